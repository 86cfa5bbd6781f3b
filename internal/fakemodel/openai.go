package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// DecodeOpenAIChat decodes a Chat Completions request body.
func DecodeOpenAIChat(body []byte) (*Exchange, error) {
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role       string `json:"role"`
			Content    any    `json:"content"`
			ToolCallID string `json:"tool_call_id"`
			Name       string `json:"name"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	e := &Exchange{Provider: OpenAIChat, Model: req.Model, Stream: req.Stream, Raw: body}
	for _, t := range req.Tools {
		if t.Function.Name != "" {
			e.Tools = append(e.Tools, t.Function.Name)
		}
	}
	var system []string
	for _, m := range req.Messages {
		msg := Message{Role: m.Role}
		text, rest := splitContent(m.Content, "text", "input_text")
		msg.Other = partTypes(rest)
		switch m.Role {
		case "system", "developer":
			system = append(system, text)
			msg.Role = "system"
			msg.Text = text
		case "tool":
			msg.ToolResults = append(msg.ToolResults, ToolResult{ID: m.ToolCallID, Name: m.Name, Output: text})
		default:
			msg.Text = text
		}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Input: rawJSON(tc.Function.Arguments)})
		}
		e.Messages = append(e.Messages, msg)
	}
	e.System = strings.Join(system, "\n")
	return e, nil
}

// DecodeOpenAIResponses decodes a Responses API request body.
func DecodeOpenAIResponses(body []byte) (*Exchange, error) {
	var req struct {
		Model        string           `json:"model"`
		Stream       bool             `json:"stream"`
		Instructions string           `json:"instructions"`
		Input        any              `json:"input"`
		Tools        []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	e := &Exchange{Provider: OpenAIResponses, Model: req.Model, Stream: req.Stream, System: req.Instructions, Raw: body}
	for _, t := range req.Tools {
		n := str(t, "name")
		if n == "" {
			n = str(t, "type") // local_shell, web_search…
		}
		e.Tools = append(e.Tools, n)
	}
	switch in := req.Input.(type) {
	case string:
		e.Messages = append(e.Messages, Message{Role: "user", Text: in})
	case []any:
		for _, it := range in {
			item, ok := it.(map[string]any)
			if !ok {
				continue
			}
			typ := str(item, "type")
			if typ == "" && str(item, "role") != "" {
				typ = "message"
			}
			switch typ {
			case "message":
				msg := Message{Role: str(item, "role")}
				if msg.Role == "developer" {
					msg.Role = "system"
				}
				text, rest := splitContent(item["content"], "input_text", "output_text", "text")
				msg.Text, msg.Other = text, partTypes(rest)
				e.Messages = append(e.Messages, msg)
			case "function_call", "custom_tool_call", "local_shell_call":
				in := item["arguments"]
				if typ == "custom_tool_call" {
					in = item["input"]
				}
				if typ == "local_shell_call" {
					in = item["action"]
				}
				e.appendItem("assistant", Message{ToolCalls: []ToolCall{{ID: str(item, "call_id"), Name: str(item, "name"), Input: rawJSON(in)}}})
			case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
				e.appendItem("user", Message{ToolResults: []ToolResult{{ID: str(item, "call_id"), Output: jsonText(item["output"])}}})
			default:
				e.appendItem("assistant", Message{Other: []string{typ}})
			}
		}
	}
	return e, nil
}

// appendItem adds a Responses item as a message of role, merging it into
// the previous message when that has the same role and carries no text
// (consecutive calls or outputs belong together).
func (e *Exchange) appendItem(role string, m Message) {
	m.Role = role
	if n := len(e.Messages); n > 0 && len(m.Other) == 0 {
		last := &e.Messages[n-1]
		lastTools := len(last.ToolCalls) > 0 || len(last.ToolResults) > 0
		if last.Role == role && lastTools && last.Text == "" && len(last.Other) == 0 {
			last.ToolCalls = append(last.ToolCalls, m.ToolCalls...)
			last.ToolResults = append(last.ToolResults, m.ToolResults...)
			return
		}
	}
	e.Messages = append(e.Messages, m)
}

func openAIError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": nil, "code": nil}})
}

func (s *Server) serveOpenAI(w http.ResponseWriter, r *http.Request, body []byte, respond Responder, rec func(*Exchange)) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/chat/completions"):
		e, reply, ok := modelCall(w, r, func() (*Exchange, error) { return DecodeOpenAIChat(body) }, openAIError, respond, rec)
		if !ok {
			return
		}
		id := s.nextID()
		var opts struct {
			StreamOptions struct {
				IncludeUsage bool `json:"include_usage"`
			} `json:"stream_options"`
		}
		_ = json.Unmarshal(body, &opts)
		if e.Stream {
			chatStream(startSSE(w, r, reply), e, reply, id, opts.StreamOptions.IncludeUsage)
		} else {
			writeJSON(w, http.StatusOK, chatCompletion(e, reply, id))
		}
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/responses"):
		e, reply, ok := modelCall(w, r, func() (*Exchange, error) { return DecodeOpenAIResponses(body) }, openAIError, respond, rec)
		if !ok {
			return
		}
		id := s.nextID()
		if e.Stream {
			responsesStream(startSSE(w, r, reply), e, reply, id)
		} else {
			writeJSON(w, http.StatusOK, responsesObject(e, responsesItems(reply, id), id, "completed"))
		}
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/models"):
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": "gpt-fake-1", "object": "model", "created": 1735689600, "owned_by": "fakemodel"},
		}})
	default:
		openAIError(w, http.StatusNotFound, "fakemodel: no such endpoint "+r.Method+" "+path)
	}
}

func chatToolCalls(reply Reply, id int) []map[string]any {
	var out []map[string]any
	for i, tc := range reply.ToolCalls {
		cid := tc.ID
		if cid == "" {
			cid = fmt.Sprintf("call_fake%03d_%d", id, i)
		}
		out = append(out, map[string]any{"index": i, "id": cid, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": inputJSON(tc.Input)}})
	}
	return out
}

func chatUsage(e *Exchange, reply Reply) map[string]any {
	in, out := estimateTokens(e.Raw), len(reply.Text)/4+1
	return map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out}
}

func chatCompletion(e *Exchange, reply Reply, id int) map[string]any {
	msg := map[string]any{"role": "assistant", "content": reply.Text}
	finish := "stop"
	if tcs := chatToolCalls(reply, id); len(tcs) > 0 {
		for _, tc := range tcs {
			delete(tc, "index")
		}
		msg["tool_calls"] = tcs
		finish = "tool_calls"
	}
	return map[string]any{
		"id": fmt.Sprintf("chatcmpl-fake%03d", id), "object": "chat.completion", "created": time.Now().Unix(), "model": e.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   chatUsage(e, reply),
	}
}

func chatStream(st *sse, e *Exchange, reply Reply, id int, includeUsage bool) {
	created := time.Now().Unix()
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": fmt.Sprintf("chatcmpl-fake%03d", id), "object": "chat.completion.chunk", "created": created, "model": e.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	st.event("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, c := range chunks(reply.Text) {
		st.event("", chunk(map[string]any{"content": c}, nil))
	}
	st.afterText()
	finish := "stop"
	for _, tc := range chatToolCalls(reply, id) {
		fn := tc["function"].(map[string]any)
		args := fn["arguments"].(string)
		st.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": tc["index"], "id": tc["id"], "type": "function", "function": map[string]any{"name": fn["name"], "arguments": ""},
		}}}, nil))
		for _, c := range chunks(args) {
			st.event("", chunk(map[string]any{"tool_calls": []any{map[string]any{"index": tc["index"], "function": map[string]any{"arguments": c}}}}, nil))
		}
		finish = "tool_calls"
	}
	st.event("", chunk(map[string]any{}, finish))
	if includeUsage {
		st.event("", map[string]any{
			"id": fmt.Sprintf("chatcmpl-fake%03d", id), "object": "chat.completion.chunk", "created": created, "model": e.Model,
			"choices": []any{}, "usage": chatUsage(e, reply),
		})
	}
	st.event("", "[DONE]")
}

// responsesItems are the output items of a Responses reply, complete.
func responsesItems(reply Reply, id int) []map[string]any {
	var items []map[string]any
	if reply.Text != "" {
		items = append(items, map[string]any{
			"id": fmt.Sprintf("msg_fake%03d", id), "type": "message", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": reply.Text, "annotations": []any{}}},
		})
	}
	for i, tc := range reply.ToolCalls {
		cid := tc.ID
		if cid == "" {
			cid = fmt.Sprintf("call_fake%03d_%d", id, i)
		}
		if custom, ok := customInput(tc.Input); ok {
			items = append(items, map[string]any{
				"id": fmt.Sprintf("ctc_fake%03d_%d", id, i), "type": "custom_tool_call", "status": "completed",
				"call_id": cid, "name": tc.Name, "input": custom,
			})
			continue
		}
		items = append(items, map[string]any{
			"id": fmt.Sprintf("fc_fake%03d_%d", id, i), "type": "function_call", "status": "completed",
			"call_id": cid, "name": tc.Name, "arguments": inputJSON(tc.Input),
		})
	}
	return items
}

// CustomInput makes the Input of a ToolCall for a custom (freeform) tool of
// the Responses API: the model's raw text input rather than JSON arguments.
func CustomInput(text string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{customKey: text})
	return b
}

const customKey = "\x00fakemodel-custom-input"

func customInput(in json.RawMessage) (string, bool) {
	var m map[string]any
	if json.Unmarshal(in, &m) != nil || len(m) != 1 {
		return "", false
	}
	s, ok := m[customKey].(string)
	return s, ok
}

func responsesObject(e *Exchange, output []map[string]any, id int, status string) map[string]any {
	if output == nil {
		output = []map[string]any{}
	}
	in := estimateTokens(e.Raw)
	obj := map[string]any{
		"id": fmt.Sprintf("resp_fake%03d", id), "object": "response", "created_at": time.Now().Unix(),
		"status": status, "model": e.Model, "output": output, "error": nil, "incomplete_details": nil,
		"parallel_tool_calls": true, "tool_choice": "auto", "tools": []any{},
	}
	if status == "completed" {
		obj["usage"] = map[string]any{
			"input_tokens": in, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
			"total_tokens": in + 10,
		}
	} else {
		obj["usage"] = nil
	}
	return obj
}

func responsesStream(st *sse, e *Exchange, reply Reply, id int) {
	seq := 0
	ev := func(typ string, fields map[string]any) {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		st.event(typ, fields)
	}
	ev("response.created", map[string]any{"response": responsesObject(e, nil, id, "in_progress")})
	ev("response.in_progress", map[string]any{"response": responsesObject(e, nil, id, "in_progress")})
	items := responsesItems(reply, id)
	for i, item := range items {
		switch item["type"] {
		case "message":
			text := reply.Text
			ev("response.output_item.added", map[string]any{"output_index": i, "item": map[string]any{
				"id": item["id"], "type": "message", "status": "in_progress", "role": "assistant", "content": []any{},
			}})
			ev("response.content_part.added", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0,
				"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
			for _, c := range chunks(text) {
				ev("response.output_text.delta", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "delta": c, "logprobs": []any{}})
			}
			st.afterText()
			ev("response.output_text.done", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "text": text, "logprobs": []any{}})
			ev("response.content_part.done", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0,
				"part": map[string]any{"type": "output_text", "text": text, "annotations": []any{}}})
		case "function_call":
			args := item["arguments"].(string)
			ev("response.output_item.added", map[string]any{"output_index": i, "item": map[string]any{
				"id": item["id"], "type": "function_call", "status": "in_progress", "call_id": item["call_id"], "name": item["name"], "arguments": "",
			}})
			for _, c := range chunks(args) {
				ev("response.function_call_arguments.delta", map[string]any{"item_id": item["id"], "output_index": i, "delta": c})
			}
			ev("response.function_call_arguments.done", map[string]any{"item_id": item["id"], "output_index": i, "arguments": args})
		case "custom_tool_call":
			input := item["input"].(string)
			ev("response.output_item.added", map[string]any{"output_index": i, "item": map[string]any{
				"id": item["id"], "type": "custom_tool_call", "status": "in_progress", "call_id": item["call_id"], "name": item["name"], "input": "",
			}})
			for _, c := range chunks(input) {
				ev("response.custom_tool_call_input.delta", map[string]any{"item_id": item["id"], "output_index": i, "delta": c})
			}
			ev("response.custom_tool_call_input.done", map[string]any{"item_id": item["id"], "output_index": i, "input": input})
		}
		ev("response.output_item.done", map[string]any{"output_index": i, "item": item})
	}
	ev("response.completed", map[string]any{"response": responsesObject(e, items, id, "completed")})
}
