package ui

import (
	"github.com/chipchat/chipchat/dialog"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// replyThread stores a thread whose last message is a reply of one text
// item.
func (e *testEnv) replyThread(text string) (store.Thread, string) {
	e.t.Helper()
	th := e.newThread("quotes",
		store.Message{Role: message.RoleUser, Text: "explain", Status: message.StatusDone},
		store.Message{Role: message.RoleAssistant, Status: message.StatusDone, Items: []message.Item{{ID: "t1", Kind: message.ItemText, Text: text}}})
	msgs := e.messages(th.ID)
	return th, msgs[len(msgs)-1].ID
}

// citations are the assistant quotes of the draft's text.
func (h *harness) citations() []*contextref.Citation {
	var out []*contextref.Citation
	for _, o := range contextref.ValidCitations(h.app.ed.Draft().Markdown()) {
		out = append(out, o.Citation)
	}
	return out
}

// q on a selected sentence of a reply puts an assistant quote chip at the
// composer's caret: this environment, thread and reply, UTF-16 offsets;
// sent, the projection expands it as DESIGN.md 3.8 says.
func TestQuoteChipReachesAgent(t *testing.T) {
	e := newTestEnv(t)
	th, replyID := e.replyThread("The handler returns early. It never retries at all.")
	h := e.open(th.ID)
	h.typeText("about ")
	h.focusTranscriptItem(0)
	h.press("v", "w", "w", "w", "q")
	h.pumpUntil("the quote chip", func() bool { return len(h.citations()) == 1 })
	c := h.citations()[0]
	if c.EnvironmentID != e.st.EnvironmentID() || c.ThreadID != th.ID || c.MessageID != replyID ||
		c.Text != "The handler returns early." || c.Start != 0 || c.End != 26 || c.Prefix != "" || c.Suffix != " It never retries at all." || c.Comment != nil {
		t.Fatalf("citation %+v", c)
	}
	if !h.app.ed.Focused() {
		t.Fatal("the composer gets the keys after a quote")
	}
	md := h.app.ed.Draft().Markdown()
	if md != "about "+c.Link()+" " {
		t.Fatalf("draft %q", md)
	}
	if scr := h.plain(); !strings.Contains(scr, "❝ The handler returns early.") {
		t.Fatalf("no quote chip:\n%s", scr)
	}
	h.typeText("- why?")
	h.press("enter")
	h.pumpUntil("the projection", func() bool { return strings.Contains(h.replyShown(), "</assistant_citations>") })
	reply := h.replyShown()
	for _, want := range []string{"about [assistant-quote-1] - why?", "<assistant_citations>\nThe following excerpts were selected from earlier assistant responses.",
		`"id": "assistant-quote-1"`, `"environmentId": "` + e.st.EnvironmentID() + `"`, `"threadId": "` + th.ID + `"`, `"messageId": "` + replyID + `"`,
		`"text": "The handler returns early."`, `"start": 0`, `"end": 26`, `"suffix": " It never retries at all."`} {
		if !strings.Contains(reply, want) {
			t.Fatalf("the projection lacks %q:\n%s", want, reply)
		}
	}
	// What the user sees in the transcript is the chip, not the link.
	if scr := h.plain(); strings.Contains(scr, "t3-citation://") {
		t.Fatalf("the link shows as text:\n%s", scr)
	}
}

// Q asks for a comment on the footer row first; enter inserts the quote
// with it, esc drops the quote.
func TestQuoteWithComment(t *testing.T) {
	e := newTestEnv(t)
	th, _ := e.replyThread("First point here. Second point there.")
	h := e.open(th.ID)
	h.focusTranscriptItem(0)
	h.press("v", "w", "w", "Q")
	h.pumpUntil("the prompt", func() bool { return top[*dialog.Quote](h.app) != nil })
	if f := h.footer(); !strings.Contains(f, "Comment on “First point here.”:") || !strings.Contains(f, "enter quote · esc drop") {
		t.Fatalf("footer %q", f)
	}
	h.typeText("not ")
	h.paste("so\nsure\x1b[2J")
	if f := h.footer(); !strings.Contains(f, "not so sure█") {
		t.Fatalf("footer %q", f)
	}
	// The field's keys are the table's: ctrl+a goes to the start.
	h.press("ctrl+a")
	h.typeText("I am ")
	h.press("enter")
	h.pumpUntil("the quote chip", func() bool { return len(h.citations()) == 1 })
	c := h.citations()[0]
	if c.Comment == nil || *c.Comment != "I am not so sure" || c.Text != "First point here." {
		t.Fatalf("citation %+v", c)
	}
	// The chip shows the quote, then the comment (issue 25 item 14: not
	// the comment alone).
	if scr := h.plain(); !strings.Contains(scr, "❝ First point here. — I am not so sure") {
		t.Fatalf("chip:\n%s", scr)
	}
	// Q then esc: nothing is inserted.
	h.focusTranscriptItem(0)
	h.press("v", "Q")
	h.pumpUntil("the prompt", func() bool { return top[*dialog.Quote](h.app) != nil })
	h.typeText("x")
	h.press("esc")
	if top[*dialog.Quote](h.app) != nil || len(h.citations()) != 1 {
		t.Fatalf("esc drops the quote: %d quotes", len(h.citations()))
	}
	// A blank comment is no comment.
	h.focusTranscriptItem(0)
	h.press("v", "Q")
	h.pumpUntil("the prompt", func() bool { return top[*dialog.Quote](h.app) != nil })
	h.typeText("  ")
	h.press("enter")
	h.pumpUntil("the second chip", func() bool { return len(h.citations()) == 2 })
	if c := h.citations()[1]; c.Comment != nil {
		t.Fatalf("blank comment kept: %+v", c)
	}
}
