package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// openPausedQueue opens a thread whose turn was interrupted (chipchat died
// mid-turn) with queued messages behind it, and waits for its queue shown
// paused.
func (e *testEnv) openPausedQueue(queued ...string) (*harness, store.Thread) {
	msgs := []store.Message{
		{Role: message.RoleUser, Text: "first", Status: message.StatusDone},
		{Role: message.RoleAssistant, Text: "half", Status: message.StatusInterrupted},
	}
	for _, q := range queued {
		msgs = append(msgs, store.Message{Role: message.RoleUser, Text: q, Status: message.StatusQueued})
	}
	th := e.newThread("queued", msgs...)
	h := e.open(th.ID)
	paused := fmt.Sprintf("queued (%d), paused", len(queued))
	h.pumpUntil("the paused queue", func() bool { return strings.Contains(h.plain(), paused) })
	return h, th
}

// A thread reopened with a queued message (chipchat died before sending
// it) shows its queue paused; enter on the empty composer sends the next
// queued message, as the queue's line says.
func TestEnterOnEmptyComposerSendsPausedQueue(t *testing.T) {
	e := newTestEnv(t)
	h, th := e.openPausedQueue("second", "third")
	h.press("enter")
	// the head goes first; once it is answered the queue runs on
	h.pumpUntil("both queued messages answered", func() bool {
		msgs := e.messages(th.ID)
		return len(msgs) == 6 && msgs[5].Status.Final() && !h.app.conv.turnShown()
	})
	var got []string
	for _, m := range e.messages(th.ID)[2:] {
		got = append(got, string(m.Role)+":"+string(m.Status))
	}
	if msgs := e.messages(th.ID); msgs[2].Text != "second" || msgs[4].Text != "third" ||
		strings.Join(got, " ") != "user:done assistant:done user:done assistant:done" {
		t.Fatalf("stored after enter: %v", got)
	}
	if !h.app.ed.Draft().IsEmpty() {
		t.Fatalf("the draft is %q", h.app.ed.Draft().Markdown())
	}
}

// A draft of blanks is an empty draft: enter sends the queue's head too,
// and an ordinary draft still goes behind the paused queue.
func TestEnterOnBlankDraftSendsPausedQueue(t *testing.T) {
	e := newTestEnv(t)
	h, th := e.openPausedQueue("second")
	h.typeText("  ")
	h.press("enter")
	h.replyAfter("the queued message answered", 3)
	if msgs := e.messages(th.ID); len(msgs) != 4 || msgs[2].Text != "second" || msgs[2].Status != message.StatusDone {
		t.Fatalf("stored: %+v", msgs)
	}
}
