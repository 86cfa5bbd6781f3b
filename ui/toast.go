package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
)

// toastFor is how long a toast stays on the footer row.
const toastFor = 4 * time.Second

// toastLine is the footer's toast: a line that says what just happened,
// for a few seconds.
type toastLine struct {
	text string
	err  bool
	seq  int
}

type toastDoneMsg struct{ seq int }

// show puts text on the footer (sanitized) until its tick comes.
func (t *toastLine) show(text string, isErr bool) tea.Cmd {
	t.text, t.err = chips.SanitizeLine(text), isErr
	t.seq++
	seq := t.seq
	return tea.Tick(toastFor, func(time.Time) tea.Msg { return toastDoneMsg{seq} })
}

// done clears the toast of tick seq, unless a newer one replaced it.
func (t *toastLine) done(seq int) {
	if seq == t.seq {
		t.text = ""
	}
}

// view is the footer row while a toast shows ("" when none).
func (t *toastLine) view(width int) string {
	if t.text == "" {
		return ""
	}
	st := okStyle
	if t.err {
		st = errStyle
	}
	return st.Render(chips.Truncate(" "+t.text, width))
}
