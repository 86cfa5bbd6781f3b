package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/ui/keymap"
)

func excerpt(id string) *contextref.TerminalRecord {
	return &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, id, "Terminal 1 lines 1-2"),
		TerminalID: "term-1", TerminalLabel: "Terminal 1", LineStart: 1, LineEnd: 2, Text: "a\nb"}
}

func TestExcerptAgeConfig(t *testing.T) {
	if got := config.Default().Limits.ExcerptAge(); got != 24*time.Hour {
		t.Fatalf("default excerpt age %v", got)
	}
	if got := (config.Limits{ExcerptMaxAge: "0"}).ExcerptAge(); got != 0 {
		t.Fatalf("\"0\" means never: %v", got)
	}
	path := writeConfig(t, "[limits]\nexcerpt_max_age = \"soon\"\n")
	if _, err := config.Load(path, keymap.CheckKeys); err == nil || !strings.Contains(err.Error(), "excerpt_max_age") {
		t.Fatalf("a bad duration names the setting: %v", err)
	}
	c, err := config.Load(writeConfig(t, "[limits]\nexcerpt_max_age = \"90m\"\nscrollback = 500\n"), keymap.CheckKeys)
	if err != nil || c.Limits.ExcerptAge() != 90*time.Minute || c.Limits.Scrollback != 500 {
		t.Fatalf("got %+v, %v", c.Limits, err)
	}
}

func TestCapturedExcerptGoesToTheCaretAndExpires(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.typeText("before after")
	for i := 0; i < len(" after"); i++ {
		h.press("left")
	}
	h.app.setFocus(paneTerminal)
	h.update(terminal.CaptureMsg{Record: excerpt("ex1")})
	if h.app.focus != paneComposer {
		t.Fatal("a capture focuses the composer")
	}
	// issue 15: a space keeps the chip off the word before the caret
	if got := h.app.ed.Draft().Markdown(); got != "before [Terminal 1 lines 1-2](t3-context://v1/terminal/ex1) after" {
		t.Fatalf("the chip goes at the caret: %q", got)
	}
	h.pumpUntil("the capture time", func() bool {
		_, ok, _ := e.st.ExcerptCaptured("ex1")
		return ok
	})
	// Captured long ago: dropped at send, with a toast; the link stays.
	if err := e.st.NoteExcerpt("ex1", time.Now().Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}
	threadID := h.app.thread.ID
	h.press("enter")
	h.pumpUntil("the message", func() bool { return len(e.messages(threadID)) >= 1 })
	msg := e.messages(threadID)[0]
	if msg.Context != nil && len(msg.Context.Records) > 0 {
		t.Fatalf("the expired excerpt was sent: %+v", msg.Context.Records)
	}
	if !strings.Contains(msg.Text, "t3-context://v1/terminal/ex1") {
		t.Fatalf("the link stays in the text: %q", msg.Text)
	}
	h.pumpUntil("the toast", func() bool { return strings.Contains(h.app.Toast(), "older than 24h0m0s dropped") })
}

func TestOneKeyCannotDoTwoAppThings(t *testing.T) {
	k := keymap.Default()
	err := k.Apply(map[string][]string{"attach": {"ctrl+t"}})
	if err == nil || !strings.Contains(err.Error(), "ctrl+t") || !strings.Contains(err.Error(), "terminal") {
		t.Fatalf("want a conflict naming the key and both actions, got %v", err)
	}
	k = keymap.Default()
	if err := k.Apply(map[string][]string{"picker_next": {"ctrl+n"}}); err != nil {
		t.Fatalf("composer keys may share keys with the app: %v", err)
	}
}

func TestPaneKeysAreConfigurable(t *testing.T) {
	c, err := config.Load(writeConfig(t, "[keys]\ncopy_mode = [\"ctrl+y\"]\nquick_capture = [\"alt+c\"]\nterminal = [\"f6\"]\n"), keymap.CheckKeys)
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t)
	opt := e.options("")
	opt.Config = c
	h := e.openWith(opt)
	defer h.app.Close()
	if got := h.app.panes.pane.CopyModeKeys; len(got) != 1 || got[0] != "ctrl+y" {
		t.Fatalf("copy mode keys %v", got)
	}
	if got := h.app.panes.pane.QuickCaptureKeys; len(got) != 1 || got[0] != "alt+c" {
		t.Fatalf("quick capture keys %v", got)
	}
	h.app.panes.pane.Shell = []string{"/bin/sh"}
	h.press("f6")
	if h.app.focus != paneTerminal || !h.app.panes.shown {
		t.Fatal("the rebound terminal key opens the pane")
	}
	h.press("f6")
	if h.app.focus != paneComposer {
		t.Fatal("the rebound terminal key returns to the composer")
	}
}
