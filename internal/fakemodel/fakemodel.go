package fakemodel

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Provider names a wire format.
type Provider string

const (
	Anthropic       Provider = "anthropic"        // Messages API
	OpenAIChat      Provider = "openai-chat"      // Chat Completions API
	OpenAIResponses Provider = "openai-responses" // Responses API
	Gemini          Provider = "gemini"           // Generative Language API
)

// Message is one turn of the conversation a model request carries, in a
// provider-neutral form.
type Message struct {
	// Role is "system", "user", "assistant" or "tool" (OpenAI Chat's tool
	// messages; elsewhere tool results are part of a user message).
	Role        string
	Text        string // the text parts, joined by "\n"
	ToolCalls   []ToolCall
	ToolResults []ToolResult
	// Other lists the types of the parts that are neither text, tool call
	// nor tool result (image, document, inlineData, reasoning…).
	Other []string
}

// ToolCall is a call of a tool by the model.
type ToolCall struct {
	ID    string // the provider's call id ("" for Gemini)
	Name  string
	Input json.RawMessage // a JSON object
}

// ToolResult is the result of a tool call sent back to the model.
type ToolResult struct {
	ID      string // the call id it answers (Gemini: the tool's name)
	Name    string // the tool's name when the format carries it
	Output  string // the result's text (JSON for Gemini's response objects)
	IsError bool
}

// Exchange is one model request, decoded.
type Exchange struct {
	Provider Provider
	Path     string
	Model    string
	Stream   bool
	System   string
	Messages []Message
	Tools    []string // names of the tools offered
	Raw      []byte   // the request body as received
}

// LastUserText is the text of the last user message that has text (tool
// results alone do not count).
func (e *Exchange) LastUserText() string {
	for i := len(e.Messages) - 1; i >= 0; i-- {
		m := e.Messages[i]
		if m.Role == "user" && strings.TrimSpace(m.Text) != "" {
			return m.Text
		}
	}
	return ""
}

// LastToolResults are the tool results in the last message when it carries
// any (the model is being told what its tool calls returned), else nil.
func (e *Exchange) LastToolResults() []ToolResult {
	var out []ToolResult
	for i := len(e.Messages) - 1; i >= 0; i-- {
		m := e.Messages[i]
		if len(m.ToolResults) == 0 {
			break
		}
		out = append(m.ToolResults, out...)
		if m.Role != "tool" {
			break
		}
	}
	return out
}

// HasTool reports whether a tool of that name is offered.
func (e *Exchange) HasTool(name string) bool {
	for _, t := range e.Tools {
		if t == name {
			return true
		}
	}
	return false
}

// UserTexts are the texts of every user message, in order.
func (e *Exchange) UserTexts() []string {
	var out []string
	for _, m := range e.Messages {
		if m.Role == "user" && m.Text != "" {
			out = append(out, m.Text)
		}
	}
	return out
}

// Reply is what the fake model answers: text, then tool calls. A reply with
// tool calls ends with the provider's "tool use" stop reason.
type Reply struct {
	Text      string
	ToolCalls []ToolCall // ID may be empty: one is made up
	// Fail, if set, answers the request with an HTTP error in the
	// provider's error shape instead.
	Fail *Failure
	// Hold, in a streamed reply, stops after the text until the client goes
	// away (or HoldMax passes): a model still generating, for cancel tests.
	Hold bool
}

// HoldMax bounds how long a Hold reply waits for the client to go away.
const HoldMax = 60 * time.Second

// Failure is an HTTP error answer.
type Failure struct {
	Status  int // e.g. 400, 429, 500
	Message string
}

// Responder chooses the reply to a model request.
type Responder func(e *Exchange) Reply

// Rule is one case of a Script.
type Rule struct {
	Name  string // for the record of which rule answered
	Match func(e *Exchange) bool
	Reply func(e *Exchange) Reply
}

// Script answers with the first rule that matches, else with fallback.
func Script(fallback Reply, rules ...Rule) Responder {
	return func(e *Exchange) Reply {
		for _, r := range rules {
			if r.Match == nil || r.Match(e) {
				return r.Reply(e)
			}
		}
		return fallback
	}
}

// Text is a Rule reply that answers text.
func Text(s string) func(*Exchange) Reply {
	return func(*Exchange) Reply { return Reply{Text: s} }
}

// Request is one HTTP request the server received.
type Request struct {
	Method string
	Path   string // with the query
	Header http.Header
	Body   []byte
	// Exchange is the decoded model request, nil for other endpoints.
	Exchange *Exchange
	// Status is the status code answered (0 while the answer is written).
	Status int
}

// Server is a fake model server for one provider format.
type Server struct {
	Provider Provider
	// URL is the base URL, e.g. http://127.0.0.1:41234 (no trailing slash).
	URL string

	srv     *httptest.Server
	respond Responder

	mu       sync.Mutex
	requests []Request
	seq      int
	notify   chan struct{}
}

// New starts a fake server for p on 127.0.0.1 answering model calls with r.
func New(p Provider, r Responder) *Server {
	s := &Server{Provider: p, respond: r, notify: make(chan struct{})}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("fakemodel: listen: %v", err))
	}
	s.srv.Listener = l
	s.srv.Start()
	s.URL = s.srv.URL
	return s
}

// Close stops the server.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// SetResponder replaces the responder for later requests.
func (s *Server) SetResponder(r Responder) {
	s.mu.Lock()
	s.respond = r
	s.mu.Unlock()
}

// Requests returns every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Exchanges returns the decoded model requests received so far.
func (s *Server) Exchanges() []*Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Exchange
	for _, r := range s.requests {
		if r.Exchange != nil {
			out = append(out, r.Exchange)
		}
	}
	return out
}

// Changed returns a channel closed at the next change of the record (a
// request received, decoded or answered).
func (s *Server) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.notify
}

// Summary is one line per request ("POST /v1/messages 200"), for test logs.
func (s *Server) Summary() string {
	var b strings.Builder
	for _, r := range s.Requests() {
		fmt.Fprintf(&b, "%s %s %d\n", r.Method, r.Path, r.Status)
	}
	return b.String()
}

// record appends r and returns its index.
func (s *Server) record(r Request) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, r)
	close(s.notify)
	s.notify = make(chan struct{})
	return len(s.requests) - 1
}

// decoded stores the decoded exchange of request i, before the reply is
// written, so that a test that saw the reply also sees the request.
func (s *Server) decoded(i int, e *Exchange) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[i].Exchange = e
	close(s.notify)
	s.notify = make(chan struct{})
}

func (s *Server) finished(i, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[i].Status = status
	close(s.notify)
	s.notify = make(chan struct{})
}

func (s *Server) nextID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return s.seq
}

const maxBody = 64 << 20

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	i := s.record(Request{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body})
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	defer func() { s.finished(i, sw.status) }()
	s.mu.Lock()
	respond := s.respond
	s.mu.Unlock()
	rec := func(e *Exchange) { s.decoded(i, e) }
	switch s.Provider {
	case Anthropic:
		s.serveAnthropic(sw, r, body, respond, rec)
	case OpenAIChat, OpenAIResponses:
		s.serveOpenAI(sw, r, body, respond, rec)
	case Gemini:
		s.serveGemini(sw, r, body, respond, rec)
	default:
		http.Error(sw, "unknown provider", http.StatusInternalServerError)
	}
}

// modelCall decodes a model request, records it and picks the reply. It
// returns false when it has answered already: a bad request, or a Fail
// reply, in the provider's error shape (fail).
func modelCall(w http.ResponseWriter, r *http.Request, decode func() (*Exchange, error), fail func(http.ResponseWriter, int, string),
	respond Responder, rec func(*Exchange)) (*Exchange, Reply, bool) {
	e, err := decode()
	if err != nil {
		fail(w, http.StatusBadRequest, err.Error())
		return nil, Reply{}, false
	}
	e.Path = r.URL.RequestURI()
	rec(e)
	reply := respond(e)
	if reply.Fail != nil {
		fail(w, reply.Fail.Status, reply.Fail.Message)
		return nil, Reply{}, false
	}
	return e, reply, true
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// sse writes Server-Sent Events.
type sse struct {
	w    http.ResponseWriter
	ctx  context.Context // the request's
	hold bool
	gone bool // the client went away during a hold: write nothing more
}

func startSSE(w http.ResponseWriter, r *http.Request, reply Reply) *sse {
	st := &sse{w: w, ctx: r.Context(), hold: reply.Hold}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)
	return st
}

// afterText is called by each stream after the reply's text: a Hold reply
// waits there for the client to go away.
func (e *sse) afterText() {
	if !e.hold {
		return
	}
	timer := time.NewTimer(HoldMax)
	defer timer.Stop()
	select {
	case <-e.ctx.Done():
		e.gone = true
	case <-timer.C:
	}
}

// event writes one event; name "" writes a data-only event.
func (e *sse) event(name string, data any) {
	if e.gone {
		return
	}
	var b []byte
	switch d := data.(type) {
	case string:
		b = []byte(d)
	default:
		var err error
		b, err = json.Marshal(d)
		if err != nil {
			panic(err)
		}
	}
	if name != "" {
		fmt.Fprintf(e.w, "event: %s\n", name)
	}
	fmt.Fprintf(e.w, "data: %s\n\n", b)
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// chunks splits s into a few pieces so that replies stream as deltas.
func chunks(s string) []string {
	if s == "" {
		return nil
	}
	const n = 3
	r := []rune(s)
	size := (len(r) + n - 1) / n
	if size < 1 {
		size = 1
	}
	var out []string
	for i := 0; i < len(r); i += size {
		j := i + size
		if j > len(r) {
			j = len(r)
		}
		out = append(out, string(r[i:j]))
	}
	return out
}

// inputJSON is a tool call's input as a compact JSON object ("{}" if empty).
func inputJSON(in json.RawMessage) string {
	if len(strings.TrimSpace(string(in))) == 0 {
		return "{}"
	}
	var v any
	if err := json.Unmarshal(in, &v); err != nil {
		return "{}"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// estimateTokens is a rough token count for usage figures.
func estimateTokens(b []byte) int { return len(b)/4 + 1 }

// jsonText turns a decoded JSON value that carries text (a string, or a
// list of parts with "text") into text.
func jsonText(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case []any:
		var parts []string
		for _, p := range t {
			if s := jsonText(p); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "\n")
	case map[string]any:
		if s, ok := t["text"].(string); ok {
			return s
		}
		if c, ok := t["content"]; ok {
			return jsonText(c)
		}
		if o, ok := t["output"]; ok {
			return jsonText(o)
		}
		b, _ := json.Marshal(t)
		return string(b)
	default:
		b, _ := json.Marshal(t)
		return string(b)
	}
}

// splitContent splits a message's content, a string or a list of typed
// parts, into the text of its parts of textTypes (joined by "\n") and the
// other parts.
func splitContent(content any, textTypes ...string) (string, []map[string]any) {
	switch c := content.(type) {
	case string:
		return c, nil
	case []any:
		var texts []string
		var rest []map[string]any
		for _, p := range c {
			part, ok := p.(map[string]any)
			if !ok {
				continue
			}
			isText := false
			for _, t := range textTypes {
				isText = isText || str(part, "type") == t
			}
			if isText {
				texts = append(texts, str(part, "text"))
			} else {
				rest = append(rest, part)
			}
		}
		return strings.Join(texts, "\n"), rest
	}
	return "", nil
}

// partTypes lists the types of parts.
func partTypes(parts []map[string]any) []string {
	var out []string
	for _, p := range parts {
		out = append(out, str(p, "type"))
	}
	return out
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func rawJSON(v any) json.RawMessage {
	if s, ok := v.(string); ok {
		if json.Valid([]byte(s)) {
			return json.RawMessage(s)
		}
		b, _ := json.Marshal(map[string]any{"input": s})
		return b
	}
	b, _ := json.Marshal(v)
	return b
}

// DecodeRequest decodes a model request body of provider p; model is the
// model named in the path (Gemini), ignored by the others.
func DecodeRequest(p Provider, body []byte, model string) (*Exchange, error) {
	switch p {
	case Anthropic:
		return DecodeAnthropic(body)
	case OpenAIChat:
		return DecodeOpenAIChat(body)
	case OpenAIResponses:
		return DecodeOpenAIResponses(body)
	case Gemini:
		return DecodeGemini(body, model)
	}
	return nil, fmt.Errorf("fakemodel: unknown provider %q", p)
}
