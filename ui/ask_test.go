package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/ui/keymap"
)

// askingBackend asks a permission before it answers, listing the options
// the way Claude Code and Gemini do: "Always Allow" first.
type askingBackend struct{ diff bool }

func (*askingBackend) Name() string                     { return "asking" }
func (*askingBackend) Capabilities() agent.Capabilities { return agent.Capabilities{Cancel: true} }
func (b *askingBackend) Run(ctx context.Context, t agent.Turn, ev func(agent.Event)) error {
	reply := make(chan agent.PermissionAnswer, 1)
	old := "func main() {}\n"
	tool := message.Tool{CallID: "c1", Kind: "edit", Title: "Edit main.go", Locations: []message.Location{{Path: "main.go"}}}
	if b.diff {
		tool.Content = []message.ToolContent{{Type: message.ContentDiff, Path: "main.go", OldText: &old, NewText: "func main() { run() }\n"}}
	}
	ev(agent.ToolCall{Tool: tool})
	ev(agent.Permission{Request: message.Permission{ToolCallID: "c1", Asked: "Run \x1b[2Jrm -rf build?", Options: []message.PermissionOption{
		{ID: "always", Name: "Always Allow", Kind: message.AllowAlways},
		{ID: "once", Name: "Allow", Kind: message.AllowOnce},
		{ID: "never", Name: "Reject", Kind: message.RejectOnce}}}, Tool: tool, Reply: reply})
	select {
	case ans := <-reply:
		ev(agent.TextDelta{Text: "chose " + ans.OptionID + " (" + ans.Outcome + ")"})
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *harness) askAndAnswer(t *testing.T, diff bool, keys ...string) (reply string, perm *message.Permission) {
	t.Helper()
	opt := h.e.options("")
	opt.Backend = &askingBackend{diff: diff}
	h2 := h.e.openWith(opt)
	threadID := h2.app.thread.ID
	h2.typeText("go")
	h2.press("enter")
	h2.pumpUntil("the question", func() bool { return h2.app.OverlayScope() == keymap.ScopeAsk })
	scr := h2.plain()
	if !strings.Contains(scr, "1. Always Allow") || !strings.Contains(scr, "2. Allow") || !strings.Contains(scr, "3. Reject") ||
		strings.Contains(h2.app.View().Content, "\x1b[2J") {
		t.Fatalf("the prompt shows the options, sanitized:\n%s", scr)
	}
	if !strings.Contains(scr, "1. Always Allow  (remembered)") || !strings.Contains(scr, "> 2. Allow") {
		t.Fatalf("the option kinds and the safe default are shown:\n%s", scr)
	}
	if diff && (!strings.Contains(scr, "run()") || !strings.Contains(scr, "main.go")) {
		t.Fatalf("the diff to approve is on screen:\n%s", scr)
	}
	h2.press(keys...)
	h2.pumpUntil("the reply", func() bool {
		msgs := h.e.messages(threadID)
		return len(msgs) == 2 && msgs[1].Status.Final()
	})
	if h2.app.OverlayScope() != keymap.Scope("") {
		t.Fatal("the prompt closes once answered")
	}
	reply = h.e.messages(threadID)[1].Text
	for _, it := range h.e.messages(threadID)[1].Items {
		if it.Permission != nil {
			perm = it.Permission
		}
		if it.Tool != nil && it.Tool.Permission != nil { // a call's question lives in its item
			perm = it.Tool.Permission
		}
	}
	return reply, perm
}

// enter picks the agent's one-time allow, never "Always Allow" listed
// first: a permanent rule is never written by a bare enter.
func TestPermissionEnterAllowsOnce(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	reply, perm := h.askAndAnswer(t, true, "enter")
	if reply != "chose once (selected)" || perm == nil || perm.ChosenName() != "Allow" {
		t.Fatalf("reply %q, recorded %+v", reply, perm)
	}
}

// A digit picks that option.
func TestPermissionDigitPicks(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	if reply, _ := h.askAndAnswer(t, false, "3"); reply != "chose never (selected)" {
		t.Fatal(reply)
	}
}

// esc answers the agent's reject option (not "cancelled", which agents
// turn into an error) and the reply records "rejected".
func TestPermissionEscRejects(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	reply, perm := h.askAndAnswer(t, false, "esc")
	if reply != "chose never (rejected)" || perm == nil || perm.Outcome != "rejected" {
		t.Fatalf("reply %q, recorded %+v", reply, perm)
	}
}

// ctrl+c on the prompt cancels the turn and answers the question cancelled.
func TestPermissionCtrlCCancelsTurn(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	_, perm := h.askAndAnswer(t, false, "ctrl+c")
	if perm == nil || perm.Outcome != "cancelled" {
		t.Fatalf("recorded %+v", perm)
	}
}

// sessionBackend keeps a session per thread like ACP does: it reports the
// session it made and is handed it back on later turns. Each Run tells
// runs the session it was handed, before it answers.
type sessionBackend struct{ runs chan string }

func newSessionBackend() *sessionBackend { return &sessionBackend{runs: make(chan string, 8)} }

func (b *sessionBackend) Name() string { return "acp:fake" }
func (*sessionBackend) Capabilities() agent.Capabilities {
	return agent.Capabilities{Cancel: true, Sessions: true}
}
func (b *sessionBackend) Run(ctx context.Context, t agent.Turn, ev func(agent.Event)) error {
	b.runs <- t.SessionID
	if t.SessionID == "" {
		ev(agent.SessionStarted{ID: "sess-" + t.ThreadID})
	}
	ev(agent.TextDelta{Text: "ok"})
	return nil
}

func TestAgentSessionResumesAfterRestart(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = newSessionBackend()
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	h.typeText("hi")
	h.press("enter")
	h.pumpUntil("the session saved", func() bool {
		id, ok, _ := e.st.AgentSession(threadID, "acp:fake")
		return ok && id == "sess-"+threadID
	})
	// A new process: the thread's session comes back from the store.
	opt = e.options(threadID)
	second := newSessionBackend()
	opt.Backend = second
	h2 := e.openWith(opt)
	h2.typeText("again")
	h2.press("enter")
	// The reply row exists before the backend runs: wait for the reply to
	// be done, which is after Run returned (and so after it told runs).
	h2.pumpUntil("the second turn's reply done", func() bool {
		msgs := e.messages(threadID)
		return len(msgs) == 4 && msgs[3].Status == message.StatusDone
	})
	select {
	case got := <-second.runs:
		if got != "sess-"+threadID {
			t.Fatalf("the second process handed session %q, want %q", got, "sess-"+threadID)
		}
	default:
		t.Fatal("the second turn's reply is done but its backend never ran")
	}
	select {
	case got := <-second.runs:
		t.Fatalf("the second process ran a second turn (handed %q)", got)
	default:
	}
}

// optionsBackend asks a permission with n options: an allow once first,
// then a mix of every kind, "allow always" among them. It answers with the
// option chosen.
type optionsBackend struct{ n, body int }

func (*optionsBackend) Name() string                     { return "options" }
func (*optionsBackend) Capabilities() agent.Capabilities { return agent.Capabilities{Cancel: true} }
func (b *optionsBackend) Run(ctx context.Context, t agent.Turn, ev func(agent.Event)) error {
	reply := make(chan agent.PermissionAnswer, 1)
	tool := message.Tool{CallID: "c1", Kind: "execute", Title: "Run make"}
	if b.body > 0 {
		var text strings.Builder
		for i := range b.body {
			fmt.Fprintf(&text, "line %d\n", i+1)
		}
		tool.Content = []message.ToolContent{{Type: message.ContentDiff, Path: "out.txt", NewText: text.String()}}
	}
	kinds := []string{message.AllowAlways, message.RejectOnce, message.RejectAlways, message.AllowOnce}
	var opts []message.PermissionOption
	for i := range b.n {
		kind := message.AllowOnce
		if i > 0 {
			kind = kinds[i%len(kinds)]
		}
		opts = append(opts, message.PermissionOption{ID: fmt.Sprintf("opt-%d", i+1), Name: fmt.Sprintf("Option %d", i+1), Kind: kind})
	}
	ev(agent.ToolCall{Tool: tool})
	ev(agent.Permission{Request: message.Permission{ToolCallID: "c1", Asked: "Run make?", Options: opts}, Tool: tool, Reply: reply})
	select {
	case ans := <-reply:
		ev(agent.TextDelta{Text: "chose " + ans.OptionID + " (" + ans.Outcome + ")"})
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// askOptions opens a thread whose agent asks with n options and waits for
// the prompt.
func (e *testEnv) askOptions(n, body int) (*harness, string) {
	opt := e.options("")
	opt.Backend = &optionsBackend{n: n, body: body}
	h := e.openWith(opt)
	h.typeText("go")
	h.press("enter")
	h.pumpUntil("the question", func() bool { return h.app.OverlayScope() == keymap.ScopeAsk })
	return h, h.app.thread.ID
}

func (h *harness) answered(threadID string) string {
	h.pumpUntil("the reply", func() bool {
		msgs := h.e.messages(threadID)
		return len(msgs) == 2 && msgs[1].Status.Final()
	})
	return h.e.messages(threadID)[1].Text
}

// downTo presses down in a prompt of n options and fails unless option i
// (from 1) is then highlighted on screen and counted "i of n"; it returns
// the screen.
func (h *harness) downTo(i, n int) string {
	h.t.Helper()
	h.press("down")
	want := fmt.Sprintf("> %d. Option %d", i, i)
	scr := h.plain()
	if !strings.Contains(scr, want) || !strings.Contains(scr, fmt.Sprintf("%d of %d", i, n)) {
		h.t.Fatalf("after down, %q and its count are not on screen:\n%s", want, scr)
	}
	return scr
}

// 500 options: the list scrolls so the highlight stays on screen, says
// which of how many it is, and enter answers the option the user sees
// highlighted.
func TestPermissionManyOptionsScroll(t *testing.T) {
	e := newTestEnv(t)
	h, threadID := e.askOptions(500, 0)
	scr := h.plain()
	if !strings.Contains(scr, "> 1. Option 1") || !strings.Contains(scr, "1 of 500") {
		t.Fatalf("the first option is highlighted, with its place in the list:\n%s", scr)
	}
	for i := range 45 {
		h.downTo(i+2, 500)
	}
	if lines := strings.Split(h.view(), "\n"); len(lines) != testHeight {
		t.Fatalf("the screen is %d lines, want %d", len(lines), testHeight)
	}
	h.press("up", "down")
	h.press("enter")
	if reply := h.answered(threadID); reply != "chose opt-46 (selected)" {
		t.Fatalf("enter answered %q, want the highlighted opt-46", reply)
	}
}

// A list that fits shows no count.
func TestPermissionFewOptionsNoCount(t *testing.T) {
	e := newTestEnv(t)
	h, _ := e.askOptions(3, 0)
	if scr := h.plain(); !strings.Contains(scr, "3. Option 3") || strings.Contains(scr, "of 3") {
		t.Fatalf("three options are all shown, without a count:\n%s", scr)
	}
}

// Zero options: the prompt says so and what esc answers; enter does not
// answer, esc answers cancelled.
func TestPermissionZeroOptions(t *testing.T) {
	e := newTestEnv(t)
	h, threadID := e.askOptions(0, 0)
	scr := h.plain()
	if !strings.Contains(scr, "no options") || !strings.Contains(scr, "esc answers cancelled") {
		t.Fatalf("the prompt says there is nothing to pick and what esc does:\n%s", scr)
	}
	h.press("down", "up", "enter")
	if h.app.OverlayScope() != keymap.ScopeAsk {
		t.Fatal("enter with nothing to pick keeps the prompt open")
	}
	h.press("esc")
	if reply := h.answered(threadID); reply != "chose  (cancelled)" {
		t.Fatalf("esc answered %q", reply)
	}
}

// A long diff and a long list share the prompt: both scroll, the
// highlight and the diff's scroll hint stay on screen.
func TestPermissionManyOptionsWithLongDiff(t *testing.T) {
	e := newTestEnv(t)
	h, threadID := e.askOptions(60, 200)
	for i := range 20 {
		if scr := h.downTo(i+2, 60); !strings.Contains(scr, "line 1") || !strings.Contains(scr, "pgup/pgdown scroll") {
			t.Fatalf("the diff and its hint are not on screen:\n%s", scr)
		}
	}
	h.press("pgdown", "pgdown")
	if scr := h.plain(); !strings.Contains(scr, "> 21. Option 21") || strings.Contains(scr, "line 1\n") {
		t.Fatalf("pgdown scrolls the diff and keeps the highlight:\n%s", scr)
	}
	h.press("enter")
	if reply := h.answered(threadID); reply != "chose opt-21 (selected)" {
		t.Fatalf("enter answered %q", reply)
	}
}
