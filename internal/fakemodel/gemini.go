package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

// DecodeGemini decodes a generateContent / streamGenerateContent request
// body. model is the model named in the path.
func DecodeGemini(body []byte, model string) (*Exchange, error) {
	var req struct {
		Contents []struct {
			Role  string           `json:"role"`
			Parts []map[string]any `json:"parts"`
		} `json:"contents"`
		SystemInstruction *struct {
			Parts []map[string]any `json:"parts"`
		} `json:"systemInstruction"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	e := &Exchange{Provider: Gemini, Model: model, Raw: body}
	if req.SystemInstruction != nil {
		var texts []string
		for _, p := range req.SystemInstruction.Parts {
			texts = append(texts, str(p, "text"))
		}
		e.System = strings.Join(texts, "\n")
	}
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			e.Tools = append(e.Tools, f.Name)
		}
	}
	for _, c := range req.Contents {
		msg := Message{Role: c.Role}
		if msg.Role == "model" {
			msg.Role = "assistant"
		}
		if msg.Role == "" {
			msg.Role = "user"
		}
		var texts []string
		for _, p := range c.Parts {
			switch {
			case p["functionCall"] != nil:
				fc, _ := p["functionCall"].(map[string]any)
				msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: str(fc, "id"), Name: str(fc, "name"), Input: rawJSON(fc["args"])})
			case p["functionResponse"] != nil:
				fr, _ := p["functionResponse"].(map[string]any)
				out, _ := json.Marshal(fr["response"])
				id := str(fr, "id")
				if id == "" {
					id = str(fr, "name")
				}
				msg.ToolResults = append(msg.ToolResults, ToolResult{ID: id, Name: str(fr, "name"), Output: string(out)})
			case p["text"] != nil:
				if thought, _ := p["thought"].(bool); thought {
					msg.Other = append(msg.Other, "thought")
					continue
				}
				texts = append(texts, str(p, "text"))
			default:
				for k := range p {
					if k != "thoughtSignature" {
						msg.Other = append(msg.Other, k)
					}
				}
			}
		}
		msg.Text = strings.Join(texts, "\n")
		e.Messages = append(e.Messages, msg)
	}
	return e, nil
}

func geminiError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": status, "message": msg, "status": http.StatusText(status)}})
}

// geminiModelAction splits ".../models/gemini-2.5-pro:streamGenerateContent"
// into the model and the action.
func geminiModelAction(path string) (model, action string, ok bool) {
	i := strings.LastIndex(path, "/models/")
	if i < 0 {
		return "", "", false
	}
	rest := path[i+len("/models/"):]
	j := strings.LastIndex(rest, ":")
	if j < 0 {
		return rest, "", true
	}
	return rest[:j], rest[j+1:], true
}

func (s *Server) serveGemini(w http.ResponseWriter, r *http.Request, body []byte, respond Responder, rec func(*Exchange)) {
	model, action, ok := geminiModelAction(r.URL.Path)
	switch {
	case r.Method == http.MethodPost && ok && (action == "streamGenerateContent" || action == "generateContent"):
		decode := func() (*Exchange, error) {
			e, err := DecodeGemini(body, model)
			if err == nil {
				e.Stream = action == "streamGenerateContent"
			}
			return e, err
		}
		e, reply, ok := modelCall(w, r, decode, geminiError, respond, rec)
		if !ok {
			return
		}
		if e.Stream {
			st := startSSE(w, r, reply)
			parts := geminiParts(reply)
			// A Hold reply waits after its text, or before its last piece
			// of text when no tool call follows (the last event carries
			// finishReason).
			holdAt := len(chunks(reply.Text))
			if len(reply.ToolCalls) == 0 {
				holdAt--
			}
			for i, p := range parts {
				if i == holdAt {
					st.afterText()
				}
				st.event("", geminiResponse(e, []map[string]any{p}, i == len(parts)-1))
			}
			if len(parts) == 0 {
				st.event("", geminiResponse(e, []map[string]any{{"text": ""}}, true))
			}
		} else {
			writeJSON(w, http.StatusOK, geminiResponse(e, geminiParts(reply), true))
		}
	case r.Method == http.MethodPost && ok && action == "countTokens":
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": estimateTokens(body)})
	case r.Method == http.MethodPost && ok && (action == "embedContent" || action == "batchEmbedContents"):
		writeJSON(w, http.StatusOK, map[string]any{"embedding": map[string]any{"values": []float64{0, 0, 0}}, "embeddings": []any{map[string]any{"values": []float64{0, 0, 0}}}})
	case r.Method == http.MethodGet && ok && action == "":
		if model == "" {
			writeJSON(w, http.StatusOK, map[string]any{"models": []any{geminiModel("gemini-2.5-pro")}})
		} else {
			writeJSON(w, http.StatusOK, geminiModel(model))
		}
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		writeJSON(w, http.StatusOK, map[string]any{"models": []any{geminiModel("gemini-2.5-pro")}})
	default:
		geminiError(w, http.StatusNotFound, "fakemodel: no such endpoint "+r.Method+" "+r.URL.Path)
	}
}

func geminiModel(name string) map[string]any {
	return map[string]any{"name": "models/" + name, "displayName": name, "inputTokenLimit": 1048576, "outputTokenLimit": 65536,
		"supportedGenerationMethods": []string{"generateContent", "countTokens"}}
}

// geminiParts are the parts of a reply: text streamed in pieces, then one
// functionCall part per tool call.
func geminiParts(reply Reply) []map[string]any {
	var parts []map[string]any
	for _, c := range chunks(reply.Text) {
		parts = append(parts, map[string]any{"text": c})
	}
	for _, tc := range reply.ToolCalls {
		var args any
		_ = json.Unmarshal([]byte(inputJSON(tc.Input)), &args)
		fc := map[string]any{"name": tc.Name, "args": args}
		if tc.ID != "" {
			fc["id"] = tc.ID
		}
		parts = append(parts, map[string]any{"functionCall": fc})
	}
	return parts
}

func geminiResponse(e *Exchange, parts []map[string]any, last bool) map[string]any {
	cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	if last {
		cand["finishReason"] = "STOP"
	}
	in := estimateTokens(e.Raw)
	return map[string]any{
		"candidates":    []any{cand},
		"usageMetadata": map[string]any{"promptTokenCount": in, "candidatesTokenCount": 10, "totalTokenCount": in + 10},
		"modelVersion":  e.Model,
		"responseId":    "fakemodel",
	}
}
