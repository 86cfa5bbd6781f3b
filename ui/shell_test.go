package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/terminal"
)

func TestShellModeEntersAndLeaves(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.typeText("!")
	if !h.app.shell.on || !h.app.ed.Draft().IsEmpty() {
		t.Fatalf("! on an empty draft: shell mode %v, draft %q", h.app.shell.on, h.app.ed.Draft().Markdown())
	}
	rows := strings.Split(h.plain(), "\n")
	if composer := rows[len(rows)-2]; !strings.HasPrefix(composer, "! ") {
		t.Errorf("no ! prompt on the composer row: %q", composer)
	}
	if !strings.Contains(h.footer(), "! shell mode") || !strings.Contains(h.footer(), "esc leave") {
		t.Errorf("footer = %q", h.footer())
	}
	h.press("backspace")
	if h.app.shell.on {
		t.Error("backspace on the empty line does not leave shell mode")
	}
	h.typeText("!ls")
	h.press("esc")
	if h.app.shell.on {
		t.Error("esc does not leave shell mode")
	}
	// ! inside a draft is just a character.
	h.app.ed.Reset()
	h.typeText("hi!")
	if h.app.shell.on || h.app.ed.Draft().Markdown() != "hi!" {
		t.Errorf("! after text: shell %v, draft %q", h.app.shell.on, h.app.ed.Draft().Markdown())
	}
}

func waitShellChip(t *testing.T, h *harness) *contextref.TerminalRecord {
	t.Helper()
	h.pumpUntilWithin(10*time.Second, "the shell chip", func() bool { return h.app.shell.run == nil && len(h.app.ed.Draft().Records()) == 1 })
	rec, ok := h.app.ed.Draft().Records()[0].(*contextref.TerminalRecord)
	if !ok {
		t.Fatalf("the chip is %T", h.app.ed.Draft().Records()[0])
	}
	return rec
}

func TestShellCommandBecomesATerminalChip(t *testing.T) {
	e := newTestEnv(t)
	if err := os.WriteFile(filepath.Join(e.dir, "marker.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h := e.open("")
	h.typeText("!echo hi; ls")
	h.press("enter")
	h.pumpUntil("the command", func() bool { return h.app.shell.run != nil || len(h.app.ed.Draft().Records()) == 1 })
	if h.app.shell.on || !h.app.panes.shown {
		t.Fatalf("enter: shell mode %v, running %v, pane shown %v", h.app.shell.on, h.app.shell.run != nil, h.app.panes.shown)
	}
	rec := waitShellChip(t, h)
	if !strings.HasPrefix(rec.Text, "$ echo hi; ls\nhi\n") || !strings.Contains(rec.Text, "marker.txt") {
		t.Fatalf("the record holds %q (want the command line, its output, run in the project directory)", rec.Text)
	}
	if strings.Contains(rec.Text, "process exited") {
		t.Errorf("the exit marker is in the chip: %q", rec.Text)
	}
	if !strings.HasPrefix(rec.Label, "Shell 1 lines ") {
		t.Errorf("label = %q", rec.Label)
	}
	// The user adds words and sends: the agent gets the excerpt.
	h.typeText(" what is this?")
	h.press("enter")
	h.pumpUntil("the echo", func() bool { return strings.Contains(h.replyShown(), "marker.txt") })
}

func TestShellEscKillsAndKeepsWhatItPrinted(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.typeText("!echo started; sleep 30")
	h.press("enter")
	h.pumpUntil("the command", func() bool { return h.app.shell.run != nil })
	h.pumpUntilWithin(10*time.Second, "the first output", func() bool {
		var seen bool
		h.app.shell.run.Do(func(s *terminal.Screen) {
			seen = strings.Contains(strings.Join(s.Lines(s.FirstLine(), s.LastLine()), "\n"), "started")
		})
		return seen
	})
	// The command sleeps 30 s: its chip before then, with the toast
	// saying it was killed, is the kill's doing.
	h.press("esc")
	rec := waitShellChip(t, h)
	if !strings.Contains(rec.Text, "started") {
		t.Errorf("the chip lost what it printed: %q", rec.Text)
	}
	if !strings.Contains(h.app.Toast(), "killed") {
		t.Errorf("toast = %q", h.app.Toast())
	}
}

// Long output is cut as captures are: the first lines go, the label says
// so, the record stays under the excerpt limit.
func TestShellLongOutputIsCut(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.typeText("!seq -f '%040g' 1 5000") // 5000 lines of 41 bytes: over the excerpt limit, within the scrollback
	h.press("enter")
	rec := waitShellChip(t, h)
	if !strings.Contains(rec.Label, "(cut)") || !strings.HasSuffix(rec.Text, "0000000000000000000000000000000000005000") {
		t.Fatalf("label %q, text ends %q", rec.Label, rec.Text[max(0, len(rec.Text)-20):])
	}
	if len(rec.Text) > contextref.MaxTerminalTextLen {
		t.Fatalf("the record holds %d characters", len(rec.Text))
	}
}
