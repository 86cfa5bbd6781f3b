package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/message"
)

// e on the second user message: the fork "<title> (from message 2)" opens
// holding turn 1, its composer holding message 2 with its chip; the draft
// of the original stays its own; sending stores the edited message in the
// fork only.
func TestRewindEditsAMessageInAFork(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	from := h.app.thread.ID
	for i, w := range []string{"one", "two "} {
		before := len(e.messages(from))
		h.typeText(w)
		if i == 1 {
			h.app.ed.InsertContext(uiTerm("ctx_t"), "")
		}
		h.press("enter")
		if r := h.replyAfter("the reply", before); r.Status != message.StatusDone {
			t.Fatalf("the reply to %q ended %s", w, r.Status)
		}
	}
	sent := e.messages(from)[2].Text
	h.typeText("a draft of the original")
	h.press("tab", "home", "down", "e") // a reply: nothing to rewind
	if h.app.thread.ID != from || h.app.focus != paneTranscript {
		t.Fatal("e on a reply rewound")
	}
	h.press("down", "e")
	h.pumpUntil("the fork's composer", func() bool {
		return h.app.thread.ID != from && h.app.ed.Draft().Markdown() == sent
	})
	if !strings.HasSuffix(h.app.thread.Title, "(from message 2)") || h.app.focus != paneComposer {
		t.Errorf("title %q, focus %v", h.app.thread.Title, h.app.focus)
	}
	if n := len(h.app.ed.Draft().Records()); n != 1 {
		t.Errorf("the message's chip in the composer: %d records", n)
	}
	if d, ok := e.draft(from); !ok || !strings.Contains(d.Markdown, "a draft of the original") {
		t.Errorf("the original's draft: %+v %v", d, ok)
	}
	fork := h.app.thread.ID
	h.typeText(" edited")
	h.press("enter")
	h.replyAfter("the fork's reply", 2)
	ms := e.messages(fork)
	if len(ms) != 4 || ms[0].Text != "one" || ms[2].Text != sent+" edited" || ms[2].Context == nil || len(ms[2].Context.Records) != 1 {
		t.Fatalf("the fork holds %+v", ms)
	}
	if len(e.messages(from)) != 4 || e.messages(from)[2].Text != sent {
		t.Error("the original thread changed")
	}

	// A draft in the fork's composer is stashed before an edit replaces it.
	h.typeText("unsent")
	h.update(rewindEditMsg{thread: fork, edit: chat.Message{Text: "again"}})
	h.pumpUntil("the stash", func() bool { return strings.Contains(h.app.Toast(), "stashed") })
	if es, err := e.st.Stash(e.project.ID); err != nil || len(es) != 1 || es[0].Markdown != "unsent" {
		t.Errorf("stash: %+v %v", es, err)
	}
	if got := h.app.ed.Draft().Markdown(); got != "again" {
		t.Errorf("composer %q", got)
	}
}

// esc esc within 400 ms on an empty composer with no turn running rewinds
// the last user message; slower, or with a draft, it does not.
func TestEscEscRewindsTheLastMessage(t *testing.T) {
	e := newTestEnv(t)
	clock := chat.NewManualClock(time.Unix(1_800_000_000, 0))
	opt := e.options("")
	opt.Clock = clock // the app reads it for the presses; chat keeps the real one
	h := e.openWith(opt)
	from := h.app.thread.ID
	for _, w := range []string{"one", "two"} {
		before := len(e.messages(from))
		h.typeText(w)
		h.press("enter")
		h.replyAfter("the reply", before)
	}
	h.pumpUntil("the turn's end", func() bool { return h.app.conv.phase() == chat.Idle })
	h.press("esc")
	clock.Advance(500 * time.Millisecond)
	h.press("esc") // too late: it arms again
	h.typeText("x")
	h.press("esc") // a draft: no rewind
	h.press("backspace")
	h.press("esc")
	h.press("esc")
	h.pumpUntil("the fork's composer", func() bool { return h.app.thread.ID != from && h.app.ed.Draft().Markdown() == "two" })
	ts, err := e.st.Threads(e.project.ID)
	if err != nil || len(ts) != 2 {
		t.Fatalf("threads %+v %v", ts, err)
	}
	if !strings.HasSuffix(h.app.thread.Title, "(from message 2)") {
		t.Errorf("title %q", h.app.thread.Title)
	}
}
