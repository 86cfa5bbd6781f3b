package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chat"
)

// linesBackend answers as an exec: command does: plain text lines.
type linesBackend struct{}

func (linesBackend) Name() string { return "exec:lines" }
func (linesBackend) Capabilities() agent.Capabilities {
	return agent.Capabilities{Cancel: true, PlainText: true}
}
func (linesBackend) Run(_ context.Context, _ agent.Turn, ev func(agent.Event)) error {
	ev(agent.TextDelta{Text: "first output line\nsecond output line\n"})
	return nil
}

// Issue 25 item 17: an exec: reply drawn line by line keeps its lines when
// the thread is reopened under another agent (the echo backend, whose
// replies are Markdown): the text mode is the reply's, stored with it.
func TestPlainReplyStaysPlainUnderAnotherAgent(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = linesBackend{}
	h := e.openWith(opt)
	h.typeText("run it")
	h.press("enter")
	h.pumpUntil("the reply", func() bool {
		return strings.Contains(h.replyShown(), "second output line") && h.app.conv.phase() == chat.Idle
	})
	lines := func(h *harness) bool {
		scr := h.plain()
		return strings.Contains(scr, "first output line\n") && !strings.Contains(scr, "first output line second")
	}
	if !lines(h) {
		t.Fatalf("under exec the lines are not kept:\n%s", h.plain())
	}
	threadID := h.app.thread.ID
	h.app.Close()

	h2 := e.open(threadID) // the echo backend
	h2.pumpUntil("the thread", func() bool { return strings.Contains(h2.plain(), "second output line") })
	if !lines(h2) {
		t.Fatalf("reopened under echo, the exec reply became one paragraph:\n%s", h2.plain())
	}
}
