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
// that was in the composer goes to the stash (a toast says so); sending
// stores the edited message in the fork only, and esc no longer leaves it.
func TestRewindEditsAMessageInAFork(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	from := h.app.thread.ID
	rewindTwoTurns(h, e, from)
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
	if !strings.HasSuffix(h.app.thread.Title, " (from message 2)") || h.app.focus != paneComposer {
		t.Errorf("title %q, focus %v", h.app.thread.Title, h.app.focus)
	}
	if n := len(h.app.ed.Draft().Records()); n != 1 {
		t.Errorf("the message's chip in the composer: %d records", n)
	}
	h.pumpUntil("the stash's toast", func() bool { return strings.Contains(h.app.Toast(), "in the stash") })
	if es, err := e.st.Stash(e.project.ID); err != nil || len(es) != 1 || es[0].Markdown != "a draft of the original" {
		t.Errorf("stash: %+v %v", es, err)
	}
	if d, ok := e.draft(from); ok && strings.Contains(d.Markdown, "a draft of the original") {
		t.Errorf("the draft stayed the original's too: %+v", d)
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
	h.press("esc") // sent: the edit is over, the fork stays
	if h.app.thread.ID != fork {
		t.Errorf("esc after the send left the fork")
	}
	if ts, _ := e.st.Threads(e.project.ID); len(ts) != 2 {
		t.Errorf("%d threads after the send and esc, want 2", len(ts))
	}
}

// esc in the fork before anything is sent leaves the edit: the fork is
// deleted, the thread rewound opens with its draft back (chip included),
// and the stash no longer holds it. A rewind with an empty composer
// stashes nothing, and esc leaves it the same way.
func TestRewindLeftWithEscBringsTheDraftBack(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	from := h.app.thread.ID
	rewindTwoTurns(h, e, from)
	h.typeText("my draft ")
	h.app.ed.InsertContext(uiTerm("ctx_d"), "")
	draft := h.app.ed.Draft().Markdown()
	h.press("tab", "home", "down", "down", "e")
	h.pumpUntil("the fork's composer", func() bool { return h.app.thread.ID != from && h.app.focus == paneComposer })
	h.pumpUntil("the stash", func() bool { es, _ := e.st.Stash(e.project.ID); return len(es) == 1 })
	fork := h.app.thread.ID
	h.typeText(" changed my mind")
	h.press("esc")
	h.pumpUntil("the thread rewound, its draft back", func() bool {
		return h.app.thread.ID == from && h.app.ed.Draft().Markdown() == draft
	})
	if n := len(h.app.ed.Draft().Records()); n != 1 {
		t.Errorf("the draft's chip: %d records", n)
	}
	h.pumpUntil("the stash emptied", func() bool { es, _ := e.st.Stash(e.project.ID); return len(es) == 0 })
	h.pumpUntil("the fork deleted", func() bool { ts, _ := e.st.Threads(e.project.ID); return len(ts) == 1 })
	if ts, _ := e.st.Threads(e.project.ID); len(ts) != 1 || ts[0].ID != from {
		t.Errorf("threads after leaving the edit: %+v (the fork was %s)", ts, fork)
	}
	if !strings.Contains(h.app.Toast(), "left the edit") {
		t.Errorf("toast %q", h.app.Toast())
	}

	// No draft: nothing stashed; esc leaves the fork all the same.
	h.app.ed.Reset()
	h.press("tab", "home", "down", "down", "e")
	h.pumpUntil("the fork's composer", func() bool { return h.app.thread.ID != from && h.app.focus == paneComposer })
	h.press("esc")
	h.pumpUntil("the thread rewound", func() bool { return h.app.thread.ID == from })
	h.pumpUntil("the fork deleted", func() bool { ts, _ := e.st.Threads(e.project.ID); return len(ts) == 1 })
	if es, _ := e.st.Stash(e.project.ID); len(es) != 0 {
		t.Errorf("stash after a rewind without a draft: %+v", es)
	}
	if !h.app.ed.Draft().IsEmpty() {
		t.Errorf("composer %q after leaving a rewind begun with none", h.app.ed.Draft().Markdown())
	}
}

// rewindTwoTurns sends "one" and "two " (with a chip) in thread from.
func rewindTwoTurns(h *harness, e *testEnv, from string) {
	h.t.Helper()
	for i, w := range []string{"one", "two "} {
		before := len(e.messages(from))
		h.typeText(w)
		if i == 1 {
			h.app.ed.InsertContext(uiTerm("ctx_t"), "")
		}
		h.press("enter")
		if r := h.replyAfter("the reply", before); r.Status != message.StatusDone {
			h.t.Fatalf("the reply to %q ended %s", w, r.Status)
		}
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
