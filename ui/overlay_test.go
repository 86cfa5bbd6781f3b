package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/ui/overlay"
)

// An agent's question that arrives while the user types goes on top, and
// the keys typed in the guard's first 300 ms after it appears never answer
// it: the user's enter meant for the composer does not approve an edit
// unseen. Once the guard has passed, enter answers.
func TestQuestionGuardIgnoresKeysTypedBeforeItWasSeen(t *testing.T) {
	e := newTestEnv(t)
	clock := chat.NewManualClock(time.Unix(1_800_000_000, 0))
	opt := e.options("")
	opt.Config.UI.QuestionGuardText = "" // the default: 300ms
	opt.Clock = clock                    // the status line and the guard read it; chat keeps the real one
	opt.Backend = &askingBackend{diff: true}
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	h.typeText("go")
	h.press("enter")
	h.pumpUntil("the question", func() bool { return h.app.OverlayScope() == keymap.ScopeAsk })
	if f := h.footer(); !strings.Contains(f, "its keys work in a moment") {
		t.Fatalf("the hint bar says the question's keys wait: %q", f)
	}
	h.typeText("next message")
	h.press("enter") // typed for the composer, 0 ms after the prompt appeared
	clock.Advance(config.DefaultQuestionGuard - time.Millisecond)
	h.press("enter", "3")
	if h.app.OverlayScope() != keymap.ScopeAsk {
		t.Fatalf("a key inside the guard answered the question (overlay %q)", h.app.OverlayScope())
	}
	if !h.app.ed.Draft().IsEmpty() {
		t.Fatalf("keys typed while the question is on top reached the composer: %q", h.app.ed.Draft().Markdown())
	}
	if msgs := e.messages(threadID); len(msgs) != 2 || msgs[1].Status.Final() {
		t.Fatalf("the turn went on before the user answered: %d messages", len(msgs))
	}
	clock.Advance(time.Millisecond)
	if f := h.footer(); !strings.Contains(f, "the agent waits: 1-9") {
		t.Fatalf("once the guard is over the hint bar shows the question's keys: %q", f)
	}
	h.press("enter")
	h.pumpUntil("the reply", func() bool {
		msgs := e.messages(threadID)
		return len(msgs) == 2 && msgs[1].Status.Final()
	})
	var perm *message.Permission
	for _, it := range e.messages(threadID)[1].Items {
		if it.Permission != nil {
			perm = it.Permission
		}
		if it.Tool != nil && it.Tool.Permission != nil { // a call's question lives in its item
			perm = it.Tool.Permission
		}
	}
	if perm == nil || perm.ChosenName() != "Allow" {
		t.Fatalf("enter after the guard picks the highlighted allow once; recorded %+v", perm)
	}
}

// The stack: esc goes to the top overlay; a question queues under an
// open question, above everything else; closing the top shows the next.
func TestOverlayStackOrder(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.press("f1")
	if h.app.OverlayScope() != keymap.ScopeHelp {
		t.Fatalf("F1: overlay %q", h.app.OverlayScope())
	}
	k := h.app.keys
	first := dialog.NewAsk(k, dialog.Question{ID: 1, SignIn: nil, Permission: nil})
	second := dialog.NewAsk(k, dialog.Question{ID: 2})
	h.app.ovs.PushUnder(first, overlay.Is[*dialog.Ask])
	h.app.ovs.PushUnder(second, overlay.Is[*dialog.Ask])
	if h.app.ovs.Top() != first || h.app.ovs.Len() != 3 {
		t.Fatalf("the first question is on top, the second under it, the help under both: %#v", h.app.ovs.Len())
	}
	h.app.conv.closeAsk(1)
	if h.app.ovs.Top() != second {
		t.Fatal("closing a question shows the next one")
	}
	h.app.conv.closeAsk(2)
	if h.app.OverlayScope() != keymap.ScopeHelp {
		t.Fatalf("with the questions gone the help is on top again: %q", h.app.OverlayScope())
	}
	h.press("esc")
	if h.app.OverlayScope() != "" || !strings.Contains(h.footer(), "send") {
		t.Fatalf("esc closes the help, the composer's hints return: %q / %q", h.app.OverlayScope(), h.footer())
	}
}
