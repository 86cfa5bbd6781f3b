package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/message"
)

// A fast stream is drawn by the cheap path alone (its blocks scroll past
// before anyone reads them): emphasis markers show as written, no block
// goes through glamour; when the reply ends, what is on screen is
// rendered in full, once.
func TestStreamFastDrawsCheapThenFull(t *testing.T) {
	a := newStreamingApp(t)
	full := benchReply(64 << 10)
	base := a.m.renders
	var frame string
	for n := 8 << 10; n <= len(full); n += 8 << 10 {
		frame = ansi.Strip(a.chunk(full[:n]))
	}
	if got := a.m.renders - base; got != 0 {
		t.Fatalf("a fast stream rendered %d blocks through glamour", got)
	}
	if !strings.Contains(frame, "**context**") {
		t.Fatalf("the streaming frame is not the cheap drawing:\n%s", frame)
	}
	a.m.SetStatus("r", message.StatusDone)
	frame = ansi.Strip(a.m.View())
	if strings.Contains(frame, "**") || a.m.renders == base {
		t.Fatalf("the ended reply is not rendered in full (%d renders):\n%s", a.m.renders-base, frame)
	}
	after := a.m.renders
	a.m.View()
	if a.m.renders != after {
		t.Fatalf("a frame after the end rendered again: %d renders", a.m.renders-after)
	}
}

// A slow stream has each completed block rendered in full by the frame
// after it completes, once: the blocks on screen are glamour's, and the
// renders are at most one per completed block.
func TestStreamSlowRendersEachBlockOnce(t *testing.T) {
	a := newStreamingApp(t)
	full := benchReply(16 << 10)
	base := a.m.renders
	var frame string
	for n := 64; n <= len(full); n += 64 {
		frame = ansi.Strip(a.chunk(full[:n]))
	}
	i, _ := a.m.index("r")
	tv := a.m.textOf(i, 0)
	done := len(tv.blocks) + len(tv.tail)
	got := a.m.renders - base
	if got == 0 || got > done {
		t.Fatalf("a slow stream of %d completed blocks rendered %d through glamour, want 1 to %d", done, got, done)
	}
	// The rows above the open block are glamour's (no ** left).
	rows := strings.Split(frame, "\n")
	if strings.Contains(strings.Join(rows[:len(rows)/2], "\n"), "**") {
		t.Fatalf("completed blocks on screen are still the cheap drawing:\n%s", frame)
	}
}
