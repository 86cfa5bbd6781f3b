package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// DecodeAnthropic decodes a Messages API request body.
func DecodeAnthropic(body []byte) (*Exchange, error) {
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		System   any    `json:"system"`
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	e := &Exchange{Provider: Anthropic, Model: req.Model, Stream: req.Stream, System: jsonText(req.System), Raw: body}
	for _, t := range req.Tools {
		if n := str(t, "name"); n != "" {
			e.Tools = append(e.Tools, n)
		}
	}
	for _, m := range req.Messages {
		msg := Message{Role: m.Role}
		text, rest := splitContent(m.Content, "text")
		msg.Text = text
		for _, part := range rest {
			switch typ := str(part, "type"); typ {
			case "tool_use", "server_tool_use":
				msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: str(part, "id"), Name: str(part, "name"), Input: rawJSON(part["input"])})
			case "tool_result":
				isErr, _ := part["is_error"].(bool)
				msg.ToolResults = append(msg.ToolResults, ToolResult{ID: str(part, "tool_use_id"), Output: jsonText(part["content"]), IsError: isErr})
			default:
				msg.Other = append(msg.Other, typ)
			}
		}
		e.Messages = append(e.Messages, msg)
	}
	return e, nil
}

func anthropicFail(w http.ResponseWriter, status int, msg string) {
	anthropicError(w, status, "invalid_request_error", msg)
}

func anthropicError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}

func (s *Server) serveAnthropic(w http.ResponseWriter, r *http.Request, body []byte, respond Responder, rec func(*Exchange)) {
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPost && path == "/v1/messages/count_tokens":
		writeJSON(w, http.StatusOK, map[string]any{"input_tokens": estimateTokens(body)})
	case r.Method == http.MethodPost && path == "/v1/messages":
		e, reply, ok := modelCall(w, r, func() (*Exchange, error) { return DecodeAnthropic(body) }, anthropicFail, respond, rec)
		if !ok {
			return
		}
		id := s.nextID()
		if e.Stream {
			anthropicStream(startSSE(w, r, reply), e, reply, id)
		} else {
			writeJSON(w, http.StatusOK, anthropicMessage(e, reply, id))
		}
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/models"):
		model := map[string]any{"type": "model", "id": "claude-fake-1", "display_name": "Claude Fake", "created_at": "2025-01-01T00:00:00Z"}
		if path == "/v1/models" {
			writeJSON(w, http.StatusOK, map[string]any{"data": []any{model}, "has_more": false, "first_id": "claude-fake-1", "last_id": "claude-fake-1"})
		} else {
			model["id"] = strings.TrimPrefix(path, "/v1/models/")
			writeJSON(w, http.StatusOK, model)
		}
	default:
		anthropicError(w, http.StatusNotFound, "not_found_error", "fakemodel: no such endpoint "+r.Method+" "+path)
	}
}

func anthropicContent(reply Reply, id int) ([]map[string]any, string) {
	var content []map[string]any
	if reply.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": reply.Text})
	}
	stop := "end_turn"
	for i, tc := range reply.ToolCalls {
		tid := tc.ID
		if tid == "" {
			tid = fmt.Sprintf("toolu_fake%03d_%d", id, i)
		}
		var input any
		_ = json.Unmarshal([]byte(inputJSON(tc.Input)), &input)
		content = append(content, map[string]any{"type": "tool_use", "id": tid, "name": tc.Name, "input": input})
		stop = "tool_use"
	}
	return content, stop
}

func anthropicUsage(e *Exchange, out int) map[string]any {
	return map[string]any{"input_tokens": estimateTokens(e.Raw), "output_tokens": out, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

func anthropicMessage(e *Exchange, reply Reply, id int) map[string]any {
	content, stop := anthropicContent(reply, id)
	if content == nil {
		content = []map[string]any{}
	}
	return map[string]any{
		"id": fmt.Sprintf("msg_fake%03d", id), "type": "message", "role": "assistant", "model": e.Model,
		"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": anthropicUsage(e, len(reply.Text)/4+1),
	}
}

func anthropicStream(st *sse, e *Exchange, reply Reply, id int) {
	content, stop := anthropicContent(reply, id)
	usage := anthropicUsage(e, 1)
	st.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_fake%03d", id), "type": "message", "role": "assistant", "model": e.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage,
	}})
	st.event("ping", map[string]any{"type": "ping"})
	for i, block := range content {
		switch block["type"] {
		case "text":
			st.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, c := range chunks(block["text"].(string)) {
				st.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": c}})
			}
			st.afterText()
		case "tool_use":
			st.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
			b, _ := json.Marshal(block["input"])
			for _, c := range chunks(string(b)) {
				st.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": c}})
			}
		}
		st.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	st.event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": len(reply.Text)/4 + 1}})
	st.event("message_stop", map[string]any{"type": "message_stop"})
}
