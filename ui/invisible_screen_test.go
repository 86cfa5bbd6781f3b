package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/internal/vtscreen"
)

// A pasted right-to-left override (U+202E) is drawn as a visible mark in
// the composer and, once sent, in the transcript; the raw character never
// reaches the terminal, and the text keeps it.
func TestScreenPastedBidiOverrideIsAMark(t *testing.T) {
	e := newTestEnv(t)
	app := e.options("").app(t)
	s := vtscreen.New(t, app, 100, 30)
	s.Send(tea.PasteMsg{Content: "see invoice\u202Efdp.exe please"})
	scr := s.WaitForText("invoice⟨U+202E⟩fdp.exe please")
	if strings.ContainsRune(scr, '\u202E') {
		t.Fatalf("the raw override reached the screen:\n%s", scr)
	}
	s.Send(vtscreen.Key("enter"))
	scr = s.WaitFor(func(text string) bool { return strings.Count(text, "⟨U+202E⟩") >= 2 })
	if strings.ContainsRune(scr, '\u202E') {
		t.Fatalf("the raw override reached the screen:\n%s", scr)
	}
	msgs := e.messages(app.thread.ID)
	if len(msgs) == 0 || !strings.Contains(msgs[0].Text, "invoice\u202Efdp.exe") {
		t.Fatalf("the sent text lost the character: %+v", msgs)
	}
}
