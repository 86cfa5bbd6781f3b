//go:build unix

package agent

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// The ACP tests run a fake agent, built here from the SDK's agent side, as
// a re-exec of the test binary (TestACPHelperProcess), so NewACP's real
// stdio path (sh -c, pipes, process group) is exercised. The fake agent
// appends one JSON line per event to the file in CHIPCHAT_ACP_LOG.
//
// Its behaviour depends on the prompt text:
//
//	[wait]        streams "waiting", then waits for session/cancel
//	[hang]        streams "hanging", then ignores everything
//	[permission]  asks permission for "Edit config.json", replies "chose <id>"
//	[crash]       writes "boom" to stderr and exits 3
//	anything else "Hello", " world", a thought, a tool call with two updates,
//	              a plan, then "\n\nDone."
//
// Env: CHIPCHAT_ACP_CAPS=none advertises no prompt capabilities and no
// loadSession (default: image, embeddedContext, loadSession);
// CHIPCHAT_ACP_AUTH=1 makes session/new require authentication with the
// method "key".

const fakeACPEnv = "CHIPCHAT_ACP_FAKE"

// TestACPHelperProcess is the fake agent; it does nothing in a normal run.
func TestACPHelperProcess(t *testing.T) {
	if os.Getenv(fakeACPEnv) != "1" {
		return
	}
	runFakeACPAgent()
	os.Exit(0)
}

type fakeACPAgent struct {
	conn     *acp.AgentSideConnection
	caps     bool
	needAuth bool

	logMu sync.Mutex
	log   *os.File

	mu     sync.Mutex
	authed bool
	n      int
}

func runFakeACPAgent() {
	f, err := os.OpenFile(os.Getenv("CHIPCHAT_ACP_LOG"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ag := &fakeACPAgent{log: f, caps: os.Getenv("CHIPCHAT_ACP_CAPS") != "none", needAuth: os.Getenv("CHIPCHAT_ACP_AUTH") == "1"}
	conn := acp.NewAgentSideConnection(ag, os.Stdout, os.Stdin)
	conn.SetLogger(slog.New(slog.DiscardHandler))
	ag.conn = conn
	<-conn.Done()
}

func (f *fakeACPAgent) record(ev map[string]any) {
	f.logMu.Lock()
	defer f.logMu.Unlock()
	b, _ := json.Marshal(ev)
	f.log.Write(append(b, '\n'))
}

func (f *fakeACPAgent) Initialize(_ context.Context, p acp.InitializeRequest) (acp.InitializeResponse, error) {
	f.record(map[string]any{"ev": "initialize", "pid": os.Getpid()})
	resp := acp.InitializeResponse{
		ProtocolVersion: acp.ProtocolVersionNumber,
		AgentInfo:       &acp.Implementation{Name: "fake", Title: acp.Ptr("Fake Agent"), Version: "1"},
		AuthMethods:     []acp.AuthMethod{},
	}
	if f.caps {
		resp.AgentCapabilities = acp.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: acp.PromptCapabilities{Image: true, EmbeddedContext: true},
		}
	}
	if f.needAuth {
		resp.AuthMethods = []acp.AuthMethod{
			{Agent: &acp.AuthMethodAgent{Id: "key", Name: "API key", Description: acp.Ptr("use the key in FAKE_KEY")}},
			{Agent: &acp.AuthMethodAgent{Id: "browser", Name: "Browser login"}},
		}
	}
	return resp, nil
}

func (f *fakeACPAgent) Authenticate(_ context.Context, p acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	f.record(map[string]any{"ev": "authenticate", "method": p.MethodId})
	if p.MethodId != "key" {
		return acp.AuthenticateResponse{}, acp.NewInvalidParams(map[string]any{"error": "unknown method"})
	}
	f.mu.Lock()
	f.authed = true
	f.mu.Unlock()
	return acp.AuthenticateResponse{}, nil
}

func (f *fakeACPAgent) NewSession(_ context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	f.mu.Lock()
	if f.needAuth && !f.authed {
		f.mu.Unlock()
		f.record(map[string]any{"ev": "new-auth-required"})
		return acp.NewSessionResponse{}, acp.NewAuthRequired(nil)
	}
	f.n++
	id := fmt.Sprintf("sess-%d-%d", os.Getpid(), f.n)
	f.mu.Unlock()
	f.record(map[string]any{"ev": "new", "session": id, "cwd": p.Cwd})
	return acp.NewSessionResponse{SessionId: acp.SessionId(id)}, nil
}

func (f *fakeACPAgent) LoadSession(ctx context.Context, p acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	f.record(map[string]any{"ev": "load", "session": string(p.SessionId), "cwd": p.Cwd})
	// Replay the history, as the protocol asks.
	f.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: acp.UpdateUserMessageText("old question")})
	f.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: acp.UpdateAgentMessageText("old reply")})
	return acp.LoadSessionResponse{}, nil
}

func (f *fakeACPAgent) Cancel(_ context.Context, p acp.CancelNotification) error {
	f.record(map[string]any{"ev": "cancel", "session": string(p.SessionId)})
	return nil
}

func (f *fakeACPAgent) say(ctx context.Context, sid acp.SessionId, u acp.SessionUpdate) {
	f.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: sid, Update: u})
}

func (f *fakeACPAgent) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	var blocks []map[string]any
	text := ""
	for _, b := range p.Prompt {
		switch {
		case b.Text != nil:
			text += b.Text.Text
			blocks = append(blocks, map[string]any{"type": "text", "text": b.Text.Text})
		case b.Image != nil:
			blocks = append(blocks, map[string]any{"type": "image", "mime": b.Image.MimeType, "data": b.Image.Data})
		case b.Resource != nil && b.Resource.Resource.TextResourceContents != nil:
			r := b.Resource.Resource.TextResourceContents
			blocks = append(blocks, map[string]any{"type": "resource", "uri": r.Uri, "text": r.Text})
		case b.Resource != nil && b.Resource.Resource.BlobResourceContents != nil:
			r := b.Resource.Resource.BlobResourceContents
			blocks = append(blocks, map[string]any{"type": "resource", "uri": r.Uri, "blob": r.Blob})
		default:
			blocks = append(blocks, map[string]any{"type": "other"})
		}
	}
	f.record(map[string]any{"ev": "prompt", "session": string(p.SessionId), "blocks": blocks})
	sid := p.SessionId
	switch {
	case strings.Contains(text, "[wait]"):
		f.say(ctx, sid, acp.UpdateAgentMessageText("waiting"))
		<-ctx.Done()
		f.record(map[string]any{"ev": "prompt-cancelled", "session": string(sid)})
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	case strings.Contains(text, "[hang]"):
		f.say(ctx, sid, acp.UpdateAgentMessageText("hanging"))
		time.Sleep(time.Hour)
	case strings.Contains(text, "[crash]"):
		fmt.Fprintln(os.Stderr, "boom")
		os.Exit(3)
	case strings.Contains(text, "[permission]"):
		f.say(ctx, sid, acp.StartToolCall("call_1", "Edit config.json", acp.WithStartKind(acp.ToolKindEdit),
			acp.WithStartLocations([]acp.ToolCallLocation{{Path: "/project/config.json"}})))
		// Not ctx: the test wants the client's own answer, even after session/cancel.
		resp, err := f.conn.RequestPermission(context.WithoutCancel(ctx), acp.RequestPermissionRequest{
			SessionId: sid,
			ToolCall:  acp.ToolCallUpdate{ToolCallId: "call_1", Title: acp.Ptr("Edit config.json")},
			Options: []acp.PermissionOption{
				{Kind: acp.PermissionOptionKindAllowOnce, Name: "Allow once", OptionId: "allow"},
				{Kind: acp.PermissionOptionKindAllowAlways, Name: "Always allow", OptionId: "always"},
				{Kind: acp.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: "reject"},
			},
		})
		outcome := "error"
		switch {
		case err != nil:
		case resp.Outcome.Selected != nil:
			outcome = string(resp.Outcome.Selected.OptionId)
		case resp.Outcome.Cancelled != nil:
			outcome = "cancelled"
		}
		f.record(map[string]any{"ev": "permission", "outcome": outcome})
		f.say(ctx, sid, acp.UpdateToolCall("call_1", acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
		f.say(ctx, sid, acp.UpdateAgentMessageText("chose "+outcome))
	default:
		f.say(ctx, sid, acp.UpdateAgentThoughtText("secret thought one"))
		f.say(ctx, sid, acp.UpdateAgentMessageText("Hello"))
		f.say(ctx, sid, acp.UpdateAgentMessageText(" world"))
		f.say(ctx, sid, acp.UpdateAgentThoughtText("secret thought two"))
		f.say(ctx, sid, acp.StartToolCall("call_2", "Read main.go", acp.WithStartKind(acp.ToolKindRead), acp.WithStartStatus(acp.ToolCallStatusPending)))
		f.say(ctx, sid, acp.UpdateToolCall("call_2", acp.WithUpdateStatus(acp.ToolCallStatusInProgress)))
		f.say(ctx, sid, acp.UpdateToolCall("call_2", acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("file body"))})))
		f.say(ctx, sid, acp.UpdateToolCall("call_2", acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
		plan := acp.UpdatePlan(
			acp.PlanEntry{Content: "step one", Status: acp.PlanEntryStatusCompleted, Priority: acp.PlanEntryPriorityHigh},
			acp.PlanEntry{Content: "step two", Status: acp.PlanEntryStatusInProgress, Priority: acp.PlanEntryPriorityMedium},
		)
		f.say(ctx, sid, plan)
		f.say(ctx, sid, plan) // unchanged: shown once
		f.say(ctx, sid, acp.UpdateAgentMessageText("\n\nDone."))
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

func (f *fakeACPAgent) CloseSession(context.Context, acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, nil
}

func (f *fakeACPAgent) ListSessions(context.Context, acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	return acp.ListSessionsResponse{}, nil
}

func (f *fakeACPAgent) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, nil
}

func (f *fakeACPAgent) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, nil
}

func (f *fakeACPAgent) SetSessionMode(context.Context, acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	return acp.SetSessionModeResponse{}, nil
}

// --- harness ---

type acpHarness struct {
	t   *testing.T
	a   *ACP
	log string
	dir string
}

// newACPHarness starts nothing yet: the agent starts on the first turn.
func newACPHarness(t *testing.T, opts ACPOptions, env ...string) *acpHarness {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "agent.log")
	opts.Env = append([]string{fakeACPEnv + "=1", "CHIPCHAT_ACP_LOG=" + log}, env...)
	cmd := "exec " + acpShellQuote(os.Args[0]) + " -test.run='^TestACPHelperProcess$'"
	a, err := NewACP(cmd, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return &acpHarness{t: t, a: a, log: log, dir: dir}
}

func acpShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// turn runs one turn and returns the reply.
func (h *acpHarness) turn(thread, prompt string, atts ...Attachment) (string, error) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var b strings.Builder
	err := h.a.stream(ctx, Turn{ThreadID: thread, Prompt: prompt, Attachments: atts, Dir: h.dir}, func(s string) { b.WriteString(s) })
	return b.String(), err
}

func (h *acpHarness) mustTurn(thread, prompt string, atts ...Attachment) string {
	h.t.Helper()
	out, err := h.turn(thread, prompt, atts...)
	if err != nil {
		h.t.Fatalf("turn %q: %v (reply so far %q)", prompt, err, out)
	}
	return out
}

// events reads the fake agent's log, the events named ev (all if "").
func (h *acpHarness) events(ev string) []map[string]any {
	h.t.Helper()
	f, err := os.Open(h.log)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		h.t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			h.t.Fatalf("bad log line %q: %v", sc.Text(), err)
		}
		if ev == "" || m["ev"] == ev {
			out = append(out, m)
		}
	}
	return out
}

// waitEvent polls the log until an event named ev shows up.
func (h *acpHarness) waitEvent(ev string) map[string]any {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if e := h.events(ev); len(e) > 0 {
			return e[len(e)-1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.t.Fatalf("the agent never logged %q; log: %v", ev, h.events(""))
	return nil
}

func acpBlocksOf(e map[string]any) []map[string]any {
	var out []map[string]any
	list, _ := e["blocks"].([]any)
	for _, b := range list {
		out = append(out, b.(map[string]any))
	}
	return out
}

func acpWriteFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// --- tests ---

func TestACPStreamsReplyAndStatusLines(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	if got := h.a.Name(); got != "acp:"+filepath.Base(os.Args[0]) {
		t.Errorf("Name() = %q", got)
	}
	out := h.mustTurn("t1", "hi")
	for _, want := range []string{
		"Hello world",
		"> thinking…",
		"> tool: Read main.go (pending)\n\n",
		"> tool: Read main.go (in progress)\n\n",
		"> tool: Read main.go (completed)\n\n",
		"**Plan**\n\n- [x] step one\n- [ ] step two *(in progress)*\n\n",
		"Done.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("reply lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "thinking"); n != 1 {
		t.Errorf("thinking marker %d times, want 1:\n%s", n, out)
	}
	if strings.Contains(out, "secret") || strings.Contains(out, "file body") {
		t.Errorf("thought or tool output leaked into the reply:\n%s", out)
	}
	if n := strings.Count(out, "> tool:"); n != 3 {
		t.Errorf("%d tool lines, want 3 (content-only updates add none):\n%s", n, out)
	}
	if n := strings.Count(out, "**Plan**"); n != 1 {
		t.Errorf("unchanged plan shown %d times:\n%s", n, out)
	}
	if !strings.HasPrefix(out, "> thinking…\n\nHello world\n\n> tool:") {
		t.Errorf("status blocks are not set apart by blank lines:\n%q", out)
	}
	// session/new ran in the project directory.
	if e := h.waitEvent("new"); e["cwd"] != h.dir {
		t.Errorf("session cwd = %v, want %s", e["cwd"], h.dir)
	}
}

func TestACPPromptBlocks(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	png := []byte("\x89PNG\r\n\x1a\nfake image bytes")
	img := acpWriteFile(t, "shot.png", png)
	txt := acpWriteFile(t, "notes.md", []byte("# Notes\nhello file\n"))
	bin := acpWriteFile(t, "data.bin", []byte{0, 1, 2, 0xff})
	atts := []Attachment{
		{ContextID: "img1", Name: "shot.png", MimeType: "image/png", Path: img, Size: int64(len(png))},
		{ContextID: "f1", Name: "notes.md", MimeType: "text/markdown", Path: txt},
		{ContextID: "f2", Name: "data.bin", MimeType: "application/octet-stream", Path: bin},
		{ContextID: "f3", Name: "gone.txt", MimeType: "text/plain"}, // no bytes: left to the projection
	}
	h.mustTurn("t1", "look [image](t3-context://v1/image/img1)", atts...)
	blocks := acpBlocksOf(h.waitEvent("prompt"))
	if len(blocks) != 4 {
		t.Fatalf("blocks = %v, want text, image, 2 resources", blocks)
	}
	if blocks[0]["type"] != "text" || blocks[0]["text"] != "look [image](t3-context://v1/image/img1)" {
		t.Errorf("first block = %v, want the projected prompt", blocks[0])
	}
	if blocks[1]["type"] != "image" || blocks[1]["mime"] != "image/png" || blocks[1]["data"] != base64.StdEncoding.EncodeToString(png) {
		t.Errorf("image block = %v", blocks[1])
	}
	if blocks[2]["type"] != "resource" || blocks[2]["text"] != "# Notes\nhello file\n" || blocks[2]["uri"] != "file://"+txt {
		t.Errorf("text resource = %v", blocks[2])
	}
	if blocks[3]["type"] != "resource" || blocks[3]["blob"] != base64.StdEncoding.EncodeToString([]byte{0, 1, 2, 0xff}) {
		t.Errorf("blob resource = %v", blocks[3])
	}
}

func TestACPWithoutCapabilitiesSendsTextOnly(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_CAPS=none")
	img := acpWriteFile(t, "shot.png", []byte("png"))
	txt := acpWriteFile(t, "notes.md", []byte("notes"))
	h.a.SetSessionID("t1", "sess-from-before")
	out := h.mustTurn("t1", "look", Attachment{MimeType: "image/png", Path: img}, Attachment{MimeType: "text/plain", Path: txt})
	blocks := acpBlocksOf(h.waitEvent("prompt"))
	if len(blocks) != 1 || blocks[0]["type"] != "text" {
		t.Errorf("blocks = %v, want the text projection alone", blocks)
	}
	if len(h.events("load")) != 0 {
		t.Errorf("session/load used though the agent does not advertise it")
	}
	if !strings.Contains(out, "cannot resume") {
		t.Errorf("no note that the session could not be resumed:\n%s", out)
	}
	if got, want := h.a.SessionID("t1"), h.waitEvent("new")["session"]; got != want {
		t.Errorf("SessionID = %q, want the new session %v", got, want)
	}
}

func TestACPSessionPerThread(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "one")
	h.mustTurn("a", "two")
	h.mustTurn("b", "three")
	news := h.events("new")
	if len(news) != 2 {
		t.Fatalf("%d sessions created, want 2 (one per thread): %v", len(news), news)
	}
	prompts := h.events("prompt")
	if len(prompts) != 3 {
		t.Fatalf("%d prompts, want 3", len(prompts))
	}
	if prompts[0]["session"] != prompts[1]["session"] {
		t.Errorf("thread a used two sessions: %v, %v", prompts[0]["session"], prompts[1]["session"])
	}
	if prompts[2]["session"] == prompts[0]["session"] {
		t.Errorf("thread b reused thread a's session")
	}
	if h.a.SessionID("a") != prompts[0]["session"] || h.a.SessionID("b") != prompts[2]["session"] {
		t.Errorf("SessionID: a=%q b=%q, prompts went to %v and %v", h.a.SessionID("a"), h.a.SessionID("b"), prompts[0]["session"], prompts[2]["session"])
	}
	if len(h.events("initialize")) != 1 {
		t.Errorf("the agent was started more than once")
	}
}

func TestACPLoadsStoredSession(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.a.SetSessionID("a", "sess-stored")
	out := h.mustTurn("a", "again")
	h.mustTurn("a", "and again")
	loads := h.events("load")
	if len(loads) != 1 || loads[0]["session"] != "sess-stored" || loads[0]["cwd"] != h.dir {
		t.Errorf("loads = %v, want one load of sess-stored in %s", loads, h.dir)
	}
	if len(h.events("new")) != 0 {
		t.Errorf("a new session was created though the stored one loaded")
	}
	for _, p := range h.events("prompt") {
		if p["session"] != "sess-stored" {
			t.Errorf("prompt went to %v, want sess-stored", p["session"])
		}
	}
	if strings.Contains(out, "old reply") || strings.Contains(out, "old question") {
		t.Errorf("the replayed history leaked into the reply:\n%s", out)
	}
	if h.a.SessionID("a") != "sess-stored" {
		t.Errorf("SessionID = %q", h.a.SessionID("a"))
	}
}

func TestACPPermissionAsksTheUser(t *testing.T) {
	var mu sync.Mutex
	var asked []Question
	h := newACPHarness(t, ACPOptions{Ask: func(ctx context.Context, q Question) (Answer, error) {
		mu.Lock()
		asked = append(asked, q)
		mu.Unlock()
		return Answer{OptionID: "always"}, nil
	}})
	out := h.mustTurn("a", "do it [permission]")
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 {
		t.Fatalf("Ask called %d times, want 1", len(asked))
	}
	q := asked[0]
	if q.Kind != QuestionPermission || q.Title != "Edit config.json" {
		t.Errorf("question = %+v", q)
	}
	var kinds []string
	for _, o := range q.Options {
		kinds = append(kinds, o.ID+"/"+o.Kind+"/"+o.Label)
	}
	if got := strings.Join(kinds, ", "); got != "allow/allow_once/Allow once, always/allow_always/Always allow, reject/reject_once/Reject" {
		t.Errorf("options = %s", got)
	}
	if e := h.waitEvent("permission"); e["outcome"] != "always" {
		t.Errorf("the agent received %v, want always", e["outcome"])
	}
	for _, want := range []string{"> tool: Edit config.json (pending)", "> permission: Edit config.json — Always allow", "> tool: Edit config.json (completed)", "chose always"} {
		if !strings.Contains(out, want) {
			t.Errorf("reply lacks %q:\n%s", want, out)
		}
	}
}

func TestACPPermissionWithoutAskRejects(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	out := h.mustTurn("a", "[permission]")
	if e := h.waitEvent("permission"); e["outcome"] != "reject" {
		t.Errorf("the agent received %v, want reject", e["outcome"])
	}
	if !strings.Contains(out, "chose reject") {
		t.Errorf("reply = %q", out)
	}
	// An app that builds the backend with New connects its prompt later.
	h.a.SetAsk(func(context.Context, Question) (Answer, error) { return Answer{OptionID: "allow"}, nil })
	if out := h.mustTurn("a", "[permission]"); !strings.Contains(out, "chose allow") {
		t.Errorf("after SetAsk: %q", out)
	}
}

func TestACPCancel(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "warm up")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 16)
	errc := make(chan error, 1)
	go func() {
		errc <- h.a.stream(ctx, Turn{ThreadID: "a", Prompt: "[wait]", Dir: h.dir}, func(s string) { got <- s })
	}()
	select {
	case s := <-got:
		if s != "waiting" {
			t.Fatalf("first chunk %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no chunk from the waiting prompt")
	}
	start := time.Now()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Stream = %v, want context.Canceled", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("cancel took %v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stream did not return after cancel")
	}
	sid := h.a.SessionID("a")
	if e := h.waitEvent("cancel"); e["session"] != sid {
		t.Errorf("session/cancel for %v, want %s", e["session"], sid)
	}
	h.waitEvent("prompt-cancelled")
	// The thread goes on in the same session.
	if out := h.mustTurn("a", "after"); !strings.Contains(out, "Hello world") {
		t.Errorf("turn after cancel: %q", out)
	}
	if n := len(h.events("new")); n != 1 {
		t.Errorf("%d sessions, want 1", n)
	}
}

func TestACPCancelGraceWhenAgentIgnoresCancel(t *testing.T) {
	h := newACPHarness(t, ACPOptions{CancelGrace: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan string, 16)
	errc := make(chan error, 1)
	go func() {
		errc <- h.a.stream(ctx, Turn{ThreadID: "a", Prompt: "[hang]", Dir: h.dir}, func(s string) { got <- s })
	}()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("no chunk from the hanging prompt")
	}
	start := time.Now()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Stream = %v, want context.Canceled", err)
		}
		if d := time.Since(start); d < 150*time.Millisecond || d > 2*time.Second {
			t.Errorf("returned after %v, want about the 200ms grace", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stream did not return after the grace period")
	}
	h.waitEvent("cancel")
	// Another thread is not blocked by the hung one.
	if out := h.mustTurn("b", "hi"); !strings.Contains(out, "Hello world") {
		t.Errorf("other thread: %q", out)
	}
}

func TestACPAuthentication(t *testing.T) {
	var asked []Question
	h := newACPHarness(t, ACPOptions{Ask: func(ctx context.Context, q Question) (Answer, error) {
		asked = append(asked, q)
		return Answer{OptionID: "key"}, nil
	}}, "CHIPCHAT_ACP_AUTH=1")
	out := h.mustTurn("a", "hi")
	if !strings.Contains(out, "Hello world") {
		t.Errorf("reply %q", out)
	}
	if len(asked) != 1 {
		t.Fatalf("Ask called %d times, want 1", len(asked))
	}
	q := asked[0]
	if q.Kind != QuestionAuth || q.Title != "Sign in to Fake Agent" || len(q.Options) != 2 ||
		q.Options[0] != (QuestionOption{ID: "key", Label: "API key"}) || !strings.Contains(q.Detail, "FAKE_KEY") {
		t.Errorf("question = %+v", q)
	}
	if e := h.waitEvent("authenticate"); e["method"] != "key" {
		t.Errorf("authenticated with %v", e["method"])
	}
	h.mustTurn("b", "hi")
	if len(asked) != 1 {
		t.Errorf("asked again for the second thread")
	}
}

func TestACPAuthenticationWithoutAsk(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_AUTH=1")
	_, err := h.turn("a", "hi")
	if err == nil || !strings.Contains(err.Error(), "requires authentication") || !strings.Contains(err.Error(), "API key, Browser login") {
		t.Errorf("err = %v, want a clear authentication error listing the methods", err)
	}
}

func TestACPAgentCrashRestartsAndResumes(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "hi")
	sid := h.a.SessionID("a")
	_, err := h.turn("a", "[crash]")
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v, want the agent's stderr", err)
	}
	if out := h.mustTurn("a", "hi again"); !strings.Contains(out, "Hello world") {
		t.Errorf("reply after restart %q", out)
	}
	if n := len(h.events("initialize")); n != 2 {
		t.Errorf("%d agent starts, want 2", n)
	}
	if loads := h.events("load"); len(loads) != 1 || loads[0]["session"] != sid {
		t.Errorf("loads = %v, want the thread's session %s resumed", loads, sid)
	}
}

func TestACPCloseKillsTheAgent(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "hi")
	pid := int(h.waitEvent("initialize")["pid"].(float64))
	if err := h.a.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for acpProcessAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("agent process %d still alive after Close", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := h.turn("a", "hi"); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("turn after Close: %v", err)
	}
}

func TestACPEmptyCommand(t *testing.T) {
	if _, err := NewACP("  ", ACPOptions{}); err == nil {
		t.Error("NewACP accepted an empty command")
	}
}

// acpProcessAlive reports whether pid runs (a zombie counts as dead).
func acpProcessAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

func TestACPCancelWhileAskingPermission(t *testing.T) {
	asking := make(chan struct{})
	askErr := make(chan error, 1)
	h := newACPHarness(t, ACPOptions{Ask: func(ctx context.Context, q Question) (Answer, error) {
		close(asking)
		<-ctx.Done()
		askErr <- ctx.Err()
		return Answer{}, ctx.Err()
	}})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- h.a.stream(ctx, Turn{ThreadID: "a", Prompt: "[permission]", Dir: h.dir}, func(string) {})
	}()
	select {
	case <-asking:
	case <-time.After(10 * time.Second):
		t.Fatal("Ask was never called")
	}
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Stream = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stream did not return")
	}
	if err := <-askErr; err == nil {
		t.Error("Ask's context was not cancelled")
	}
	if e := h.waitEvent("permission"); e["outcome"] != "cancelled" {
		t.Errorf("the agent received %v, want cancelled", e["outcome"])
	}
	h.waitEvent("cancel")
}
