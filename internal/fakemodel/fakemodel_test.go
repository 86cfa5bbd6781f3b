package fakemodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

type sseEvent struct {
	Name string
	Data string
}

// readSSE parses a text/event-stream body.
func readSSE(t testing.TB, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Data != "" || cur.Name != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if cur.Data != "" {
				cur.Data += "\n"
			}
			cur.Data += strings.TrimPrefix(line, "data: ")
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
	return out
}

func post(t testing.TB, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func decode(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad JSON %q: %v", s, err)
	}
	return m
}

var testReply = Reply{
	Text:      "Hello, wörld — 3 chunks",
	ToolCalls: []ToolCall{{Name: "Bash", Input: json.RawMessage(`{"command":"echo hi","n":2}`)}},
}

func fixed(r Reply) Responder { return func(*Exchange) Reply { return r } }

func TestAnthropicStream(t *testing.T) {
	s := New(Anthropic, fixed(testReply))
	defer s.Close()
	resp := post(t, s.URL+"/v1/messages?beta=true", `{"model":"claude-x","stream":true,"max_tokens":10,
		"system":[{"type":"text","text":"be brief"}],
		"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"Bash","input_schema":{}}]}`)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	evs := readSSE(t, resp.Body)
	var names []string
	var text, args string
	var stop string
	for _, e := range evs {
		d := decode(t, e.Data)
		if d["type"] != e.Name {
			t.Errorf("event %s carries type %v", e.Name, d["type"])
		}
		names = append(names, e.Name)
		switch e.Name {
		case "content_block_delta":
			delta := d["delta"].(map[string]any)
			switch delta["type"] {
			case "text_delta":
				text += delta["text"].(string)
			case "input_json_delta":
				args += delta["partial_json"].(string)
			}
		case "content_block_start":
			cb := d["content_block"].(map[string]any)
			if cb["type"] == "tool_use" && (cb["name"] != "Bash" || !strings.HasPrefix(cb["id"].(string), "toolu_")) {
				t.Errorf("tool_use block %v", cb)
			}
		case "message_delta":
			stop = d["delta"].(map[string]any)["stop_reason"].(string)
		}
	}
	want := "message_start ping content_block_start content_block_delta content_block_delta content_block_delta content_block_stop content_block_start"
	if got := strings.Join(names, " "); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "content_block_stop message_delta message_stop") {
		t.Errorf("events %s", got)
	}
	if text != testReply.Text {
		t.Errorf("text %q", text)
	}
	if in := decode(t, args); in["command"] != "echo hi" {
		t.Errorf("tool input %q", args)
	}
	if stop != "tool_use" {
		t.Errorf("stop reason %q", stop)
	}
	ex := s.Exchanges()
	if len(ex) != 1 || ex[0].System != "be brief" || ex[0].LastUserText() != "hi" || !ex[0].HasTool("Bash") || !ex[0].Stream {
		t.Fatalf("recorded exchange %+v", ex)
	}
}

func TestAnthropicJSONAndAuxiliary(t *testing.T) {
	s := New(Anthropic, fixed(Reply{Text: "plain"}))
	defer s.Close()
	m := decode(t, readAll(t, post(t, s.URL+"/v1/messages", `{"model":"m","messages":[{"role":"user","content":"x"}]}`)))
	if m["stop_reason"] != "end_turn" || m["content"].([]any)[0].(map[string]any)["text"] != "plain" {
		t.Errorf("message %v", m)
	}
	if m := decode(t, readAll(t, post(t, s.URL+"/v1/messages/count_tokens", `{"messages":[]}`))); m["input_tokens"] == nil {
		t.Errorf("count_tokens %v", m)
	}
	resp := post(t, s.URL+"/v1/nothing", `{}`)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown endpoint answered %d", resp.StatusCode)
	}
	reqs := s.Requests()
	if len(reqs) != 3 || reqs[2].Path != "/v1/nothing" || reqs[2].Status != 404 || reqs[2].Exchange != nil {
		t.Errorf("requests %s", s.Summary())
	}
}

func readAll(t testing.TB, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestOpenAIChatStream(t *testing.T) {
	s := New(OpenAIChat, fixed(testReply))
	defer s.Close()
	resp := post(t, s.URL+"/v1/chat/completions", `{"model":"gpt","stream":true,"stream_options":{"include_usage":true},
		"messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"hi"}]}],
		"tools":[{"type":"function","function":{"name":"Bash","parameters":{}}}]}`)
	evs := readSSE(t, resp.Body)
	if len(evs) == 0 || evs[len(evs)-1].Data != "[DONE]" {
		t.Fatalf("stream does not end with [DONE]: %v", evs)
	}
	var text, args, name, id, finish string
	usage := false
	for _, e := range evs[:len(evs)-1] {
		d := decode(t, e.Data)
		if d["object"] != "chat.completion.chunk" {
			t.Errorf("chunk object %v", d["object"])
		}
		if d["usage"] != nil {
			usage = true
		}
		for _, c := range d["choices"].([]any) {
			ch := c.(map[string]any)
			delta := ch["delta"].(map[string]any)
			if s, ok := delta["content"].(string); ok {
				text += s
			}
			if f, ok := ch["finish_reason"].(string); ok {
				finish = f
			}
			for _, tc := range asList(delta["tool_calls"]) {
				m := tc.(map[string]any)
				if m["index"].(float64) != 0 {
					t.Errorf("tool call index %v", m["index"])
				}
				if v, ok := m["id"].(string); ok {
					id = v
				}
				fn := m["function"].(map[string]any)
				if v, ok := fn["name"].(string); ok {
					name = v
				}
				args += fn["arguments"].(string)
			}
		}
	}
	if text != testReply.Text || name != "Bash" || id == "" || finish != "tool_calls" || !usage {
		t.Errorf("text %q name %q id %q finish %q usage %v", text, name, id, finish, usage)
	}
	if in := decode(t, args); in["n"].(float64) != 2 {
		t.Errorf("arguments %q", args)
	}
	ex := s.Exchanges()[0]
	if ex.System != "sys" || ex.LastUserText() != "hi" || !ex.HasTool("Bash") {
		t.Errorf("exchange %+v", ex)
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func TestOpenAIResponsesStream(t *testing.T) {
	r := testReply
	r.ToolCalls = append(r.ToolCalls, ToolCall{Name: "apply_patch", Input: CustomInput("*** Begin Patch\n*** End Patch\n")})
	s := New(OpenAIResponses, fixed(r))
	defer s.Close()
	resp := post(t, s.URL+"/v1/responses", `{"model":"gpt-5","stream":true,"instructions":"sys",
		"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}],
		"tools":[{"type":"function","name":"Bash"},{"type":"custom","name":"apply_patch"},{"type":"web_search"}]}`)
	evs := readSSE(t, resp.Body)
	seq := -1.0
	var text string
	var done []map[string]any
	var completed map[string]any
	for _, e := range evs {
		d := decode(t, e.Data)
		if d["type"] != e.Name {
			t.Errorf("event %s has type %v", e.Name, d["type"])
		}
		if n := d["sequence_number"].(float64); n != seq+1 {
			t.Errorf("sequence %v after %v", n, seq)
		} else {
			seq = n
		}
		switch e.Name {
		case "response.output_text.delta":
			text += d["delta"].(string)
		case "response.output_item.done":
			done = append(done, d["item"].(map[string]any))
		case "response.completed":
			completed = d["response"].(map[string]any)
		}
	}
	if evs[0].Name != "response.created" || evs[len(evs)-1].Name != "response.completed" {
		t.Errorf("first %s last %s", evs[0].Name, evs[len(evs)-1].Name)
	}
	if text != r.Text || len(done) != 3 {
		t.Fatalf("text %q, %d items done", text, len(done))
	}
	if done[1]["type"] != "function_call" || done[1]["name"] != "Bash" || done[1]["call_id"] == "" || decode(t, done[1]["arguments"].(string))["command"] != "echo hi" {
		t.Errorf("function call item %v", done[1])
	}
	if done[2]["type"] != "custom_tool_call" || done[2]["input"] != "*** Begin Patch\n*** End Patch\n" {
		t.Errorf("custom tool call item %v", done[2])
	}
	if completed["status"] != "completed" || completed["usage"].(map[string]any)["total_tokens"] == nil || len(completed["output"].([]any)) != 3 {
		t.Errorf("completed %v", completed)
	}
	ex := s.Exchanges()[0]
	if ex.System != "sys" || ex.LastUserText() != "hi" || !ex.HasTool("apply_patch") || !ex.HasTool("web_search") {
		t.Errorf("exchange %+v", ex)
	}
}

func TestGeminiStream(t *testing.T) {
	s := New(Gemini, fixed(testReply))
	defer s.Close()
	resp := post(t, s.URL+"/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", `{
		"contents":[{"role":"user","parts":[{"text":"hi"}]}],
		"systemInstruction":{"parts":[{"text":"sys"}]},
		"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`)
	evs := readSSE(t, resp.Body)
	var text string
	var call map[string]any
	for i, e := range evs {
		if e.Name != "" {
			t.Errorf("Gemini events carry no name, got %q", e.Name)
		}
		d := decode(t, e.Data)
		cand := d["candidates"].([]any)[0].(map[string]any)
		_, finished := cand["finishReason"]
		if finished != (i == len(evs)-1) {
			t.Errorf("finishReason on event %d of %d", i, len(evs))
		}
		for _, p := range cand["content"].(map[string]any)["parts"].([]any) {
			part := p.(map[string]any)
			if s, ok := part["text"].(string); ok {
				text += s
			}
			if fc, ok := part["functionCall"].(map[string]any); ok {
				call = fc
			}
		}
	}
	if text != testReply.Text || call["name"] != "Bash" || call["args"].(map[string]any)["command"] != "echo hi" {
		t.Errorf("text %q call %v", text, call)
	}
	ex := s.Exchanges()[0]
	if ex.Model != "gemini-2.5-flash" || ex.System != "sys" || ex.LastUserText() != "hi" || !ex.Stream {
		t.Errorf("exchange %+v", ex)
	}
	if m := decode(t, readAll(t, post(t, s.URL+"/v1beta/models/gemini-2.5-flash:countTokens", `{}`))); m["totalTokens"] == nil {
		t.Errorf("countTokens %v", m)
	}
}

// Each decoder sees the same conversation — a prompt, a tool call, its
// result — the same way.
func TestDecodersAgree(t *testing.T) {
	cases := []struct {
		p    Provider
		body string
	}{
		{Anthropic, `{"model":"m","messages":[
			{"role":"user","content":[{"type":"text","text":"run it"}]},
			{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a.txt"}]}]}]}`},
		{OpenAIChat, `{"model":"m","messages":[
			{"role":"user","content":"run it"},
			{"role":"assistant","content":"ok","tool_calls":[{"id":"t1","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"ls\"}"}}]},
			{"role":"tool","tool_call_id":"t1","content":"a.txt"}]}`},
		{OpenAIResponses, `{"model":"m","input":[
			{"type":"message","role":"user","content":[{"type":"input_text","text":"run it"}]},
			{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]},
			{"type":"function_call","call_id":"t1","name":"Bash","arguments":"{\"command\":\"ls\"}"},
			{"type":"function_call_output","call_id":"t1","output":"a.txt"}]}`},
		{Gemini, `{"contents":[
			{"role":"user","parts":[{"text":"run it"}]},
			{"role":"model","parts":[{"text":"ok"},{"functionCall":{"name":"Bash","args":{"command":"ls"}}}]},
			{"role":"user","parts":[{"functionResponse":{"name":"Bash","response":{"output":"a.txt"}}}]}]}`},
	}
	for _, c := range cases {
		t.Run(string(c.p), func(t *testing.T) {
			e, err := DecodeRequest(c.p, []byte(c.body), "m")
			if err != nil {
				t.Fatal(err)
			}
			if e.LastUserText() != "run it" {
				t.Errorf("last user text %q", e.LastUserText())
			}
			var call *ToolCall
			for _, m := range e.Messages {
				for i := range m.ToolCalls {
					call = &m.ToolCalls[i]
				}
			}
			if call == nil || call.Name != "Bash" || !bytes.Contains(call.Input, []byte(`"command":"ls"`)) {
				t.Errorf("tool call %+v", call)
			}
			rs := e.LastToolResults()
			if len(rs) != 1 || !strings.Contains(rs[0].Output, "a.txt") {
				t.Errorf("tool results %+v in %+v", rs, e.Messages)
			}
		})
	}
}

func TestScriptFirstMatchWins(t *testing.T) {
	r := Script(Reply{Text: "fallback"},
		Rule{Name: "tool", Match: func(e *Exchange) bool { return len(e.LastToolResults()) > 0 }, Reply: Text("after tool")},
		Rule{Name: "hi", Match: func(e *Exchange) bool { return strings.Contains(e.LastUserText(), "hi") }, Reply: Text("hello")},
	)
	if got := r(&Exchange{Messages: []Message{{Role: "user", Text: "hi"}}}).Text; got != "hello" {
		t.Errorf("got %q", got)
	}
	if got := r(&Exchange{Messages: []Message{{Role: "user", Text: "hi"}, {Role: "user", ToolResults: []ToolResult{{ID: "1"}}}}}).Text; got != "after tool" {
		t.Errorf("got %q", got)
	}
	if got := r(&Exchange{}).Text; got != "fallback" {
		t.Errorf("got %q", got)
	}
}

func TestChunksKeepRunes(t *testing.T) {
	for _, s := range []string{"", "a", "héllo wörld ✓✓✓", strings.Repeat("日本", 50)} {
		got := strings.Join(chunks(s), "")
		if got != s {
			t.Errorf("chunks(%q) rejoined %q", s, got)
		}
		for _, c := range chunks(s) {
			if !strings.ContainsRune(c, []rune(c)[0]) || c == "" {
				t.Errorf("empty or broken chunk %q", c)
			}
		}
	}
}

func TestFailureInProviderShape(t *testing.T) {
	for _, p := range providers {
		t.Run(string(p), func(t *testing.T) {
			s := New(p, fixed(Reply{Fail: &Failure{Status: 400, Message: "bad things"}}))
			defer s.Close()
			req := streamRequests[p]
			resp := post(t, s.URL+req.path, req.body)
			if resp.StatusCode != 400 {
				t.Fatalf("status %d", resp.StatusCode)
			}
			m := decode(t, readAll(t, resp))
			e, _ := m["error"].(map[string]any)
			if e["message"] != "bad things" {
				t.Errorf("error body %v", m)
			}
			if r := s.Requests(); len(r) != 1 || r[0].Status != 400 || r[0].Exchange == nil {
				t.Errorf("recorded %+v", r)
			}
		})
	}
}

// A Hold reply streams its text, then waits until the client goes away,
// and the handler ends when it does.
func TestHoldUntilClientLeaves(t *testing.T) {
	for _, p := range providers {
		t.Run(string(p), func(t *testing.T) {
			s := New(p, fixed(Reply{Text: "partial answer", Hold: true}))
			defer s.Close()
			req := streamRequests[p]
			resp, err := http.Post(s.URL+req.path, "application/json", strings.NewReader(req.body))
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(resp.Body)
			first := chunks("partial answer")[0]
			for sc.Scan() && !strings.Contains(sc.Text(), first) {
			}
			resp.Body.Close()
			timeout := time.NewTimer(10 * time.Second)
			defer timeout.Stop()
			for {
				ch := s.Changed()
				if r := s.Requests(); len(r) == 1 && r[0].Status == http.StatusOK {
					return
				}
				select {
				case <-ch:
				case <-timeout.C:
					t.Fatalf("the held stream did not end when the client left: %s", s.Summary())
				}
			}
		})
	}
}
