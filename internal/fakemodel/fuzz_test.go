package fakemodel

import (
	"encoding/json"
	"strings"
	"testing"
)

var providers = []Provider{Anthropic, OpenAIChat, OpenAIResponses, Gemini}

// The decoders take any bytes without panicking, and what they return is
// consistent: tool results come from messages that carry them.
func FuzzDecodeRequest(f *testing.F) {
	f.Add(0, `{"messages":[{"role":"user","content":"hi"}]}`)
	f.Add(1, `{"messages":[{"role":"tool","tool_call_id":"x","content":[{"type":"text","text":"r"}]}]}`)
	f.Add(2, `{"input":[{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"o"}]}]}`)
	f.Add(2, `{"input":"plain"}`)
	f.Add(3, `{"contents":[{"parts":[{"functionResponse":{"name":"n","response":{"a":1}}},{"inlineData":{}}]}]}`)
	f.Add(0, `{"system":[{"type":"text","text":"s"}],"messages":[{"role":"user","content":[{"type":"tool_result","content":null}]}]}`)
	f.Fuzz(func(t *testing.T, which int, body string) {
		if which < 0 {
			which = -which
		}
		p := providers[which%len(providers)]
		e, err := DecodeRequest(p, []byte(body), "m")
		if err != nil {
			return
		}
		_ = e.LastUserText()
		_ = e.UserTexts()
		for _, r := range e.LastToolResults() {
			_ = r.Output
		}
		for _, m := range e.Messages {
			for _, c := range m.ToolCalls {
				if len(c.Input) > 0 && !json.Valid(c.Input) {
					t.Fatalf("%s: tool call input is not JSON: %q", p, c.Input)
				}
			}
		}
	})
}

// Whatever the reply, each provider's stream carries it whole: the text
// rejoins and the tool input parses to the same JSON.
func FuzzStreamRoundTrip(f *testing.F) {
	f.Add(0, "hello", "Bash", `{"a":1}`)
	f.Add(1, "héllo\nwörld", "edit", `{"x":"y\n"}`)
	f.Add(2, "", "shell", `{}`)
	f.Add(3, "✓", "run", `{"l":[1,2]}`)
	f.Fuzz(func(t *testing.T, which int, text, tool, input string) {
		if which < 0 {
			which = -which
		}
		if !json.Valid([]byte(input)) || !strings.HasPrefix(strings.TrimSpace(input), "{") || tool == "" {
			return
		}
		// JSON carries only valid UTF-8; names and text are what models send.
		tool = strings.ToValidUTF8(tool, "?")
		p := providers[which%len(providers)]
		reply := Reply{Text: strings.ToValidUTF8(text, "?"), ToolCalls: []ToolCall{{Name: tool, Input: json.RawMessage(input)}}}
		s := New(p, fixed(reply))
		defer s.Close()
		req := streamRequests[p]
		resp := post(t, s.URL+req.path, req.body)
		gotText, gotTool, gotInput := reassemble(t, p, readSSE(t, resp.Body))
		if gotText != reply.Text || gotTool != tool {
			t.Fatalf("%s: text %q tool %q, want %q %q", p, gotText, gotTool, reply.Text, tool)
		}
		var a, b any
		_ = json.Unmarshal([]byte(input), &a)
		if err := json.Unmarshal([]byte(gotInput), &b); err != nil {
			t.Fatalf("%s: input %q: %v", p, gotInput, err)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("%s: input %s, want %s", p, jb, ja)
		}
	})
}

// streamRequests are minimal streaming requests of each provider.
var streamRequests = map[Provider]struct{ path, body string }{
	Anthropic:       {"/v1/messages", `{"model":"m","stream":true,"messages":[]}`},
	OpenAIChat:      {"/v1/chat/completions", `{"model":"m","stream":true,"messages":[]}`},
	OpenAIResponses: {"/v1/responses", `{"model":"m","stream":true,"input":[]}`},
	Gemini:          {"/v1beta/models/m:streamGenerateContent?alt=sse", `{"contents":[]}`},
}

// reassemble is a minimal client of each stream format.
func reassemble(t *testing.T, p Provider, evs []sseEvent) (text, tool, input string) {
	for _, e := range evs {
		if e.Data == "[DONE]" {
			continue
		}
		d := decode(t, e.Data)
		switch p {
		case Anthropic:
			switch e.Name {
			case "content_block_start":
				if cb := d["content_block"].(map[string]any); cb["type"] == "tool_use" {
					tool = cb["name"].(string)
				}
			case "content_block_delta":
				delta := d["delta"].(map[string]any)
				if delta["type"] == "text_delta" {
					text += delta["text"].(string)
				} else {
					input += delta["partial_json"].(string)
				}
			}
		case OpenAIChat:
			for _, c := range asList(d["choices"]) {
				delta := c.(map[string]any)["delta"].(map[string]any)
				if s, ok := delta["content"].(string); ok {
					text += s
				}
				for _, tc := range asList(delta["tool_calls"]) {
					fn := tc.(map[string]any)["function"].(map[string]any)
					if n, ok := fn["name"].(string); ok {
						tool = n
					}
					input += fn["arguments"].(string)
				}
			}
		case OpenAIResponses:
			switch e.Name {
			case "response.output_text.delta":
				text += d["delta"].(string)
			case "response.output_item.done":
				if it := d["item"].(map[string]any); it["type"] == "function_call" {
					tool, input = it["name"].(string), it["arguments"].(string)
				}
			}
		case Gemini:
			for _, c := range asList(d["candidates"]) {
				for _, pt := range asList(c.(map[string]any)["content"].(map[string]any)["parts"]) {
					part := pt.(map[string]any)
					if s, ok := part["text"].(string); ok {
						text += s
					}
					if fc, ok := part["functionCall"].(map[string]any); ok {
						tool = fc["name"].(string)
						b, _ := json.Marshal(fc["args"])
						input = string(b)
					}
				}
			}
		}
	}
	return text, tool, input
}
