package terminal

import (
	"strings"

	"github.com/chipchat/chipchat/chips"
)

// Snapshot is a copy of a terminal's recent text, for readers outside the
// UI goroutine (chipchat mcp's terminal_read).
type Snapshot struct {
	ID      string
	Label   string
	Title   string // the program's title (OSC 0/2), sanitized
	Cwd     string // the shell's directory (OSC 7), when it says
	Running bool
	Exited  bool
	Code    int   // exit code when Exited
	Alt     bool  // a full-screen program has the alternate screen
	First   int64 // absolute number of Lines[0]
	Lines   []string
}

// Snapshot copies the last n lines (n < 1: one screen) of the terminal's
// screen and scrollback, ending at the screen's last non-blank row: the
// empty rows below the output or the prompt are left out. Lines
// are plain text, sanitized (chips.SanitizeLine) with trailing spaces
// trimmed. It takes the terminal's lock for the copy only and may be called
// from any goroutine.
func (t *Terminal) Snapshot(n int) Snapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.screen
	snap := Snapshot{ID: t.ID, Label: t.Label, Running: t.running, Exited: t.exited, Code: t.code,
		Title: chips.SanitizeLine(s.Title()), Cwd: chips.SanitizeLine(s.Cwd()), Alt: s.AltScreen()}
	if n < 1 {
		_, n = s.Size()
	}
	end := s.LastLine()
	for top := s.ScreenTop(); end > top && blank(s.line(end)); end-- {
	}
	from := max(end-int64(n)+1, s.FirstLine())
	snap.First = from
	snap.Lines = s.Lines(from, end)
	for i, l := range snap.Lines {
		snap.Lines[i] = strings.TrimRight(chips.SanitizeLine(l), " \t")
	}
	return snap
}

func blank(l *Line) bool { return l == nil || strings.TrimSpace(l.Text()) == "" }
