package ui

import (
	"os"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/ui/keymap"
)

// sendWithChip types a prompt, attaches a file at its end and sends it.
func sendWithChip(t *testing.T, h *harness, words, file string) {
	t.Helper()
	h.typeText(words + " ")
	p := h.e.writeFile(file, []byte("content of "+file))
	h.exec(h.app.clip.attach(p))
	h.pumpUntil("the chip of "+file, func() bool { return len(h.app.ed.Draft().Records()) == 1 })
	h.press("enter")
	h.pumpUntil("the send of "+file, func() bool {
		return h.app.ed.Draft().IsEmpty() && len(h.app.hist.steps.Entries()) > 0 && strings.Contains(h.app.hist.steps.Entries()[0].Markdown, words)
	})
}

func TestHistoryUpDownWithChipsAndTheTypedDraft(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	sendWithChip(t, h, "first alpha", "a.txt")
	sendWithChip(t, h, "second bravo", "b.txt")
	sendWithChip(t, h, "third charlie", "c.txt")

	// Restart: the history comes from the store.
	h2 := e.open("")
	h2.pumpUntil("the history", func() bool { return len(h2.app.hist.steps.Entries()) == 3 })
	h2.typeText("my own draft")
	h2.press("up")
	if got := h2.app.ed.Draft().Markdown(); !strings.HasPrefix(got, "third charlie [c.txt](") {
		t.Fatalf("up shows %q", got)
	}
	h2.press("up", "up")
	h2.pumpUntil("the import of the first prompt", func() bool {
		recs := h2.app.ed.Draft().Records()
		return strings.HasPrefix(h2.app.ed.Draft().Markdown(), "first alpha [a.txt](") && len(recs) == 1
	})
	f, ok := h2.app.ed.Draft().Records()[0].(*contextref.FileRecord)
	if !ok || f.Name != "a.txt" {
		t.Fatalf("the first prompt's chip = %+v", h2.app.ed.Draft().Records()[0])
	}
	if !strings.Contains(h2.plain(), "first alpha") {
		t.Errorf("the screen does not show the first prompt:\n%s", h2.plain())
	}
	h2.press("up") // the oldest: stays
	if !strings.HasPrefix(h2.app.ed.Draft().Markdown(), "first alpha") {
		t.Errorf("up past the oldest changed the draft: %q", h2.app.ed.Draft().Markdown())
	}
	h2.press("down", "down", "down")
	if got := h2.app.ed.Draft().Markdown(); got != "my own draft" {
		t.Fatalf("down past the newest = %q, want the typed draft back", got)
	}
	// Sending a recalled prompt sends its chip, bound in this environment.
	h2.press("up")
	h2.pumpUntil("the recalled chip", func() bool { return len(h2.app.ed.Draft().Records()) == 1 })
	h2.typeText(" again")
	h2.press("enter")
	h2.pumpUntil("the resend", func() bool {
		msgs := e.messages(h2.app.thread.ID)
		return len(msgs) > 0 && strings.Contains(msgs[len(msgs)-1].Text, "again") ||
			len(msgs) > 1 && strings.Contains(msgs[len(msgs)-2].Text, "again")
	})
}

// A binary whose bytes are gone comes back as an unresolved chip with a
// note, not as nothing.
func TestHistoryRecallOfAGoneBinary(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	sendWithChip(t, h, "gone soon", "g.txt")
	rec := h.app.hist.steps.Entries()[0].Records[0].(*contextref.FileRecord)
	assetID, ok, err := e.st.AttachmentBinding(rec.AttachmentID)
	if err != nil || !ok {
		t.Fatalf("binding: %v %v", ok, err)
	}
	p, err := e.as.Path(assetID)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	h.pumpUntil("the reply", func() bool { return h.app.conv.phase() == 0 })
	h.press("up")
	h.pumpUntil("the note", func() bool { return strings.Contains(h.app.Toast(), "from the history") })
	// the link stays, pointing at no record: an unresolved chip
	if md := h.app.ed.Draft().Markdown(); !strings.Contains(md, "[g.txt](t3-context://") {
		t.Fatalf("the unresolved chip is gone: %q", md)
	}
	if !strings.Contains(h.plain(), "g.txt") {
		t.Errorf("the unresolved chip is not drawn:\n%s", h.plain())
	}
}

func TestHistorySearchCtrlR(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	for _, p := range []string{"deploy the staging box", "fix the flaky parser test", "write the release notes"} {
		h.typeText(p)
		h.press("enter")
		h.pumpUntil("sent "+p, func() bool {
			return h.app.ed.Draft().IsEmpty() && len(h.app.hist.steps.Entries()) > 0 && h.app.hist.steps.Entries()[0].Markdown == p
		})
	}
	h.press("ctrl+r")
	if h.app.OverlayScope() != keymap.ScopeHistory {
		t.Fatal("ctrl+r does not open the history search")
	}
	h.typeText("flaky")
	if !strings.Contains(h.plain(), "fix the flaky parser test") || top[*dialog.HistorySearch](h.app).Picker.Len() != 1 {
		t.Fatalf("the search does not narrow to the flaky prompt:\n%s", h.plain())
	}
	h.press("enter")
	if got := h.app.ed.Draft().Markdown(); got != "fix the flaky parser test" {
		t.Fatalf("enter put %q in the composer", got)
	}
	// ctrl+r keeps meaning rename in the thread list (scopes).
	h.press("ctrl+l")
	h.pumpUntil("the thread list", func() bool {
		return top[*dialog.Threads](h.app) != nil && top[*dialog.Threads](h.app).Listed() != nil
	})
	h.press("ctrl+r")
	if h.app.OverlayScope() != keymap.ScopeThreads || renamingID(h.app) == "" {
		t.Fatal("ctrl+r in the thread list does not rename")
	}
}

// Two chipchats of one project share the history: a prompt sent in one
// is found by ctrl+r in the other, and up after its own next send.
func TestHistorySharedByTwoProcesses(t *testing.T) {
	e := newTestEnv(t)
	a := e.open("")
	b := e.open("")
	b.typeText("from the other window")
	b.press("enter")
	b.pumpUntil("b's send", func() bool { return b.app.ed.Draft().IsEmpty() && len(b.app.hist.steps.Entries()) == 1 })
	a.press("ctrl+r")
	a.pumpUntil("b's prompt in a's search", func() bool {
		return top[*dialog.HistorySearch](a.app) != nil && top[*dialog.HistorySearch](a.app).Picker.Total() == 1
	})
	a.press("esc")
	a.typeText("mine")
	a.press("enter")
	a.pumpUntil("a's send", func() bool { return a.app.ed.Draft().IsEmpty() && len(a.app.hist.steps.Entries()) == 2 })
	a.press("up", "up")
	if got := a.app.ed.Draft().Markdown(); got != "from the other window" {
		t.Fatalf("up up in a = %q", got)
	}
}
