package chat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/fragment"
)

// A turn on a thread with a stored agent session carries the thread's
// earlier turns to hand over should that session not resume: a
// <thread_history> of the messages before this one, within
// Limits.ResumeHistoryBytes, the oldest left out first and counted.
func TestResumeHandover(t *testing.T) {
	fb := &fakeBackend{caps: agent.Capabilities{Cancel: true, Sessions: true}, turns: make(chan *fakeTurn, 4)}
	e := newEnvFor(t, fb, fb)
	e.send("first question")
	ft := e.turn()
	if kept, omitted := ft.turn.Handover.Take(); kept != 0 || omitted != 0 || ft.turn.Handover.Text() != "" {
		t.Error("a new thread's first message hands over something") // (a fork's would: rewind_test.go)
	}
	ft.emit(agent.TextDelta{Text: "first answer <with> & tags"})
	ft.emit(agent.SessionStarted{ID: "sess-1"})
	ft.end <- nil
	until[ReplyFinished](e, nil)
	for i := range 3 {
		e.send(fmt.Sprintf("question %d %s", i, strings.Repeat("x", 300)))
		ft = e.turn()
		ft.emit(agent.TextDelta{Text: fmt.Sprintf("answer %d", i)})
		ft.end <- nil
		until[ReplyFinished](e, nil)
	}
	e.send("now")
	ft = e.turn()
	if ft.turn.SessionID != "sess-1" || ft.turn.Handover == nil {
		t.Fatalf("session %q, handover %v", ft.turn.SessionID, ft.turn.Handover)
	}
	kept, omitted := ft.turn.Handover.Take()
	text := ft.turn.Handover.Text()
	h, ok := fragment.ParseThreadHistory(text)
	if !ok || kept != 8 || omitted != 0 || h.Attrs["thread"] != e.thread.ID ||
		!strings.HasPrefix(h.Body, "user: first question\nassistant: first answer <with> & tags\nuser: question 0 ") ||
		!strings.HasSuffix(strings.TrimRight(h.Body, "\n"), "assistant: answer 2") || strings.Contains(text, "user: now") {
		t.Fatalf("handover (%d kept, %d left out, %v):\n%s", kept, omitted, h.Attrs, text)
	}
	ft.end <- nil
	until[ReplyFinished](e, nil)

	// A bound: the oldest go first, and the fragment says how many (of
	// 9: the empty reply to "now" says nothing and is not one).
	s2 := New(Options{Store: e.st, Assets: e.assets, Backend: fb, Dir: t.TempDir(), Clock: e.clock,
		Limits: agent.Limits{ResumeHistoryBytes: 700}})
	defer s2.Close()
	s2.Send(e.thread.ID, Submission{Markdown: "later"})
	ft = e.turn()
	kept, omitted = ft.turn.Handover.Take()
	text = ft.turn.Handover.Text()
	if len(text) > 700 || omitted == 0 || kept+omitted != 9 || !strings.Contains(text, fmt.Sprintf("(%d earlier messages left out)", omitted)) ||
		!strings.Contains(text, "assistant: answer 2") || !strings.Contains(text, "user: now") {
		t.Fatalf("bounded handover (%d bytes, %d kept, %d left out):\n%s", len(text), kept, omitted, text)
	}
	ft.end <- nil
}
