package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/theme"
)

// toastFor is how long a toast stays on the footer row.
const toastFor = 4 * time.Second

// toastLine is the footer's toast: a line that says what just happened,
// for a few seconds.
type toastLine struct {
	text string
	err  bool
	seq  int
	over func() bool // what it tells is over (issue 25 item 10); nil: it lasts its time
	st   theme.Status
}

type toastDoneMsg struct{ seq int }

// show puts text on the footer (sanitized) until its tick comes, or until
// over (cheap, no I/O: asked each frame) says what it tells is over.
func (t *toastLine) show(text string, isErr bool, over ...func() bool) tea.Cmd {
	t.text, t.err, t.over = chips.SanitizeLine(text), isErr, nil
	if len(over) > 0 {
		t.over = over[0]
	}
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
	if t.text == "" || t.over != nil && t.over() {
		return ""
	}
	st := t.st.OK
	if t.err {
		st = t.st.Err
	}
	return st.Render(chips.Truncate(" "+t.text, width))
}
