package ui

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/ui/keymap"
)

// Issue 25 item 16: while a permission prompt is up, esc answers the
// agent's reject option, and the screen says so in one wording: the hint
// bar says "esc reject", the header no longer says "(esc cancels)".
func TestPermissionEscWordedAsItAnswers(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	opt := h.e.options("")
	opt.Backend = &askingBackend{}
	h2 := h.e.openWith(opt)
	threadID := h2.app.thread.ID
	h2.typeText("go")
	h2.press("enter")
	h2.pumpUntil("the question", func() bool { return h2.app.OverlayScope() == keymap.ScopeAsk })
	h2.pumpUntil("the header", func() bool { return strings.Contains(h2.plain(), "replying") })
	scr := h2.plain()
	head, _, _ := strings.Cut(scr, "\n")
	if strings.Contains(scr, "esc cancels") || strings.Contains(scr, "esc dismiss") || !strings.Contains(scr, "esc reject") {
		t.Fatalf("esc is worded otherwise than it answers (header %q):\n%s", head, scr)
	}
	h2.press("esc")
	h2.pumpUntil("the reply", func() bool {
		msgs := h.e.messages(threadID)
		return len(msgs) == 2 && msgs[1].Status.Final()
	})
	if reply := h.e.messages(threadID)[1].Text; reply != "chose never (rejected)" {
		t.Fatalf("esc answered %q", reply)
	}
}
