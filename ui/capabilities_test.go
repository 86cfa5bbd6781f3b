package ui

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
)

// sniffable is a backend that looks like others without saying so: an
// exec: name, an attachment check that refuses everything and a Close. The
// app goes by what caps declares, never by its name or methods.
type sniffable struct {
	agent.Echo
	caps   agent.Capabilities
	mu     sync.Mutex
	closed int
}

func (*sniffable) Name() string                       { return "exec:sniffable" }
func (b *sniffable) Capabilities() agent.Capabilities { return b.caps }
func (*sniffable) CheckAttachments([]agent.Attachment) error {
	return errors.New("refused by the method")
}
func (b *sniffable) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed++
	return nil
}

func (b *sniffable) closes() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}

// lastReplyPlain says whether the last reply is shown as plain text.
func (h *harness) lastReplyPlain() (plain, ok bool) {
	msgs := h.e.messages(h.app.thread.ID)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == message.RoleAssistant {
			m, ok := h.app.tr.Message(msgs[i].ID)
			return m.PlainText, ok
		}
	}
	return false, false
}

// A backend gets plain-text replies, the attachment limit and Close from
// its Capabilities only: the same backend declaring nothing gets none of
// them, though its name starts with exec: and it has CheckAttachments and
// Close methods.
func TestCapabilitiesNotSniffed(t *testing.T) {
	for _, declared := range []bool{false, true} {
		b := &sniffable{caps: agent.Capabilities{Cancel: true}}
		if declared {
			b.caps = agent.Capabilities{Cancel: true, PlainText: true, MaxAttachment: 10, Process: true}
		}
		h := openFake(t, b)
		h.typeText("hello")
		h.press("enter")
		h.pumpUntil("the first reply", func() bool { return strings.Contains(h.replyShown(), "hello") })
		if plain, ok := h.lastReplyPlain(); !ok || plain != declared {
			t.Errorf("declared %v: reply plain text = %v (found %v)", declared, plain, ok)
		}

		img := h.e.attachImage("att_big") // 67 bytes
		h.app.ed.InsertContext(img, "")
		h.typeText(" look")
		before := len(h.e.messages(h.app.thread.ID))
		h.press("enter")
		if declared {
			h.pumpUntil("the refusal", func() bool { return strings.Contains(h.app.Toast(), "not sent") })
			if strings.Contains(h.app.Toast(), "refused by the method") {
				t.Errorf("declared: the refusal came from the method: %q", h.app.Toast())
			}
		}
		h.probe() // the image message, when sent, is stored before the probe
		stored := false
		for _, m := range h.e.messages(h.app.thread.ID)[before:] {
			if m.Role == message.RoleUser && strings.Contains(m.Text, "look") {
				stored = true
			}
		}
		if stored == declared {
			t.Errorf("declared %v: the 67-byte image message stored = %v (toast %q)", declared, stored, h.app.Toast())
		}

		h.app.Close()
		if want := map[bool]int{false: 0, true: 1}[declared]; b.closes() != want {
			t.Errorf("declared %v: Close called %d times, want %d", declared, b.closes(), want)
		}
	}
}
