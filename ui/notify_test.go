package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/notify"
)

// raws are the raw writes the app asked for.
func raws(h *harness) []string {
	var out []string
	for _, m := range h.seen {
		if r, ok := m.(tea.RawMsg); ok {
			out = append(out, r.Msg.(string))
		}
	}
	return out
}

func finished(h *harness) int {
	n := 0
	for _, m := range h.seen {
		if evs, ok := m.(chatMsg); ok {
			for _, e := range evs {
				if _, ok := e.(chat.ReplyFinished); ok {
					n++
				}
			}
		}
	}
	return n
}

// A turn that ends while the terminal is blurred writes OSC 9 with the
// thread's title; focused, nothing; focus never reported, a turn shorter
// than min_turn_seconds writes nothing either.
func TestNotifyOnTurnEnd(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.pumpUntil("the terminal probed", func() bool { return count[terminalProbedMsg](h) > 0 })
	h.update(terminalProbedMsg(notify.Terminal{Term: "xterm-256color", FocusEvents: true})) // outside tmux
	if !h.app.View().ReportFocus {
		t.Fatal("focus reports (DECSET 1004) not asked for")
	}
	send := func(text string, n int) {
		h.typeText(text)
		h.press("enter")
		h.pumpUntil("the turn's end", func() bool { return finished(h) >= n })
	}
	send("short turn", 1) // focus never reported, the echo turn is shorter than 10 s
	if r := raws(h); len(r) != 0 {
		t.Fatalf("a short turn without focus reports wrote %q", r)
	}
	h.update(tea.BlurMsg{})
	send("blurred turn", 2)
	h.pumpUntil("the notification", func() bool { return len(raws(h)) > 0 })
	if r := raws(h); len(r) != 1 || r[0] != "\x1b]9;short turn: turn ended\a" {
		t.Fatalf("blurred: wrote %q, want one OSC 9 with the thread's title", r)
	}
	// Focused, then blurred again: only the blurred turn writes (a write
	// of the focused turn would have come before it).
	h.update(tea.FocusMsg{})
	send("focused turn", 3)
	h.update(tea.BlurMsg{})
	send("blurred again", 4)
	h.pumpUntil("the second notification", func() bool { return len(raws(h)) > 1 })
	if r := raws(h); len(r) != 2 {
		t.Fatalf("focused, then blurred: wrote %q, want one notification more", r[1:])
	}
}
