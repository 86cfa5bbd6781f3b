package ui

import (
	"github.com/chipchat/chipchat/dialog"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/message"
)

// ctrl+c clearing the draft while the @ picker is open must not leave the
// picker pointing at text that is gone (it crashed on the next key).
func TestCtrlCClearWithPickerOpenThenType(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.typeText("a")
	h.press("ctrl+j", "ctrl+j")
	h.typeText("@")
	if !h.app.ed.PickerOpen() {
		t.Fatal("the picker should be open")
	}
	h.press("ctrl+c")
	h.typeText("x")
	if got := h.app.ed.Draft().Markdown(); got != "x" {
		t.Fatalf("draft %q", got)
	}
}

// A stashed draft whose image sits on the shelf without a chip comes back
// with the image; the entry goes only when everything came back.
func TestStashRestoreKeepsShelfImages(t *testing.T) {
	clip, reg := clipEnv(t)
	e := newTestEnv(t)
	img := e.attachImage("att_shelf")
	h := e.openClip(clip, reg)
	h.app.ed.InsertContext(img, "")
	h.press("backspace") // the chip goes, the image stays on the shelf
	h.typeText("hi")
	if len(h.app.ed.Draft().Shelf()) != 1 {
		t.Fatal("the image should be on the shelf")
	}
	h.press("ctrl+s")
	h.pumpUntil("the stash", func() bool { return h.app.ed.Draft().IsEmpty() })
	h.press("ctrl+alt+s")
	h.pumpUntil("the list", func() bool {
		return top[*dialog.Stash](h.app) != nil && len(top[*dialog.Stash](h.app).Entries()) == 1
	})
	h.press("enter")
	h.pumpUntil("the restore", func() bool { return strings.Contains(h.app.Toast(), "restored") })
	if d := h.app.ed.Draft(); d.Markdown() != "hi" || len(d.Shelf()) != 1 {
		t.Fatalf("restored %q with shelf %v", d.Markdown(), d.Shelf())
	}
}

// Typing on while the message is being stored: the new text stays in the
// composer (and is saved), the sent text does not come back.
func TestTypingWhileSendingIsKept(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	threadID := h.app.thread.ID
	h.hold = heldUserStored
	h.typeText("sent")
	h.press("enter")
	h.pumpUntil("the message to be stored", func() bool { return len(h.held) == 1 })
	h.typeText(" more")
	h.hold = nil
	h.update(h.held[0])
	h.pumpUntil("the reply", func() bool {
		msgs := e.messages(threadID)
		return len(msgs) == 2 && msgs[1].Status == message.StatusDone
	})
	if got := h.app.ed.Draft().Markdown(); got != "sent more" {
		t.Fatalf("composer holds %q", got)
	}
	h.pumpUntil("the draft on disk", func() bool {
		d, ok := e.draft(threadID)
		return ok && d.Markdown == "sent more"
	})
}

// A failed turn's retry belongs to its thread: after switching, alt+r does
// nothing.
func TestRetryDoesNotFollowToAnotherThread(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = &flakyBackend{}
	h := e.openWith(opt)
	first := h.app.thread.ID
	h.typeText("hello")
	h.press("enter")
	h.pumpUntil("the error", func() bool { return h.app.chat.CanRetry(first) })
	h.press("ctrl+n")
	h.pumpUntil("the new thread", func() bool { return h.app.thread.ID != first })
	h.press("alt+r")
	// Update says at once when the conversation had nothing to retry in
	// the open thread (chat.Retry started nothing).
	if !strings.Contains(h.app.Toast(), "nothing to retry") {
		t.Fatalf("alt+r in the new thread: toast %q", h.app.Toast())
	}
	if n := len(e.messages(h.app.thread.ID)); n != 0 {
		t.Fatalf("the retry wrote %d messages into the new thread", n)
	}
}

// The exit path after a signal: the running turn's reply is saved as
// interrupted with what the agent wrote, and the draft is saved.
func TestCloseSavesRunningTurnAndDraft(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = agent.Echo{ChunkDelay: 50_000_000}
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	h.typeText("question")
	h.press("enter")
	h.pumpUntil("the turn", func() bool { return h.app.conv.phase() >= chat.Starting && h.app.ed.Draft().IsEmpty() }) // the composer cleared: the app heard the send
	h.typeText("half")
	h.app.Close()
	msgs := e.messages(threadID)
	if len(msgs) != 2 || msgs[1].Status != message.StatusInterrupted {
		t.Fatalf("after Close: %+v", msgs)
	}
	if d, ok := e.draft(threadID); !ok || d.Markdown != "half" {
		t.Fatalf("draft after Close: %+v %v", d, ok)
	}
}
