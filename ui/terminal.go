package ui

import (
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/terminal"
)

// showTerminal shows the terminal pane (starting Terminal 1 the first time)
// and focuses it.
func (a *App) showTerminal() tea.Cmd {
	a.paneShown = true
	a.layout()
	a.setFocus(paneTerminal)
	return a.pane.Open()
}

// terminalKey handles a key while the pane has focus: the pane's own app
// keys, else the pane (copy mode, the shell); ok false when the pane has
// no focus.
func (a *App) terminalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if a.focus != paneTerminal {
		return nil, false
	}
	return a.terminalPaneKey(msg), true
}

func (a *App) terminalPaneKey(msg tea.KeyPressMsg) tea.Cmd {
	k := a.keys
	switch {
	case key.Matches(msg, k.Terminal) && !a.pane.InCopyMode():
		a.setFocus(paneComposer)
		return nil
	case key.Matches(msg, k.HidePane) && !a.pane.InCopyMode():
		return a.togglePane()
	case key.Matches(msg, k.CloseTerminal) && !a.pane.InCopyMode():
		return a.closeTerminal()
	case key.Matches(msg, k.NewTerminal):
		return a.pane.NewTerminal()
	case key.Matches(msg, k.NextTerminal):
		a.pane.Next(1)
		return nil
	case key.Matches(msg, k.PrevTerminal):
		a.pane.Next(-1)
		return nil
	case key.Matches(msg, k.ZoomTerminal):
		if a.pane.Layout == terminal.LayoutZoomed {
			a.pane.Layout = terminal.LayoutSplit
		} else {
			a.pane.Layout = terminal.LayoutZoomed
		}
		a.layout()
		return nil
	case key.Matches(msg, k.TerminalSide):
		a.paneRight = !a.paneRight
		a.pane.Layout = terminal.LayoutSplit
		a.layout()
		return nil
	}
	var cmd tea.Cmd
	a.pane, cmd = a.pane.Update(msg)
	return cmd
}

// togglePane is alt+h: hide the pane (its shells keep running; focus goes
// to the composer) or show it again.
func (a *App) togglePane() tea.Cmd {
	if a.paneShown {
		a.paneShown = false
		if a.focus == paneTerminal {
			a.setFocus(paneComposer)
		}
		a.layout()
		return a.notify("terminal pane hidden — "+a.keys.HidePane.Help().Key+" shows it", false)
	}
	return a.showTerminal()
}

// closeTerminal is alt+w: the shown terminal's shell ends and its tab
// goes; the last one closes the pane.
func (a *App) closeTerminal() tea.Cmd {
	t := a.pane.Active()
	if t == nil {
		return nil
	}
	if a.shell.run == t {
		return a.notify("a ! command runs there: "+a.keys.ShellKill.Help().Key+" in the composer kills it", true)
	}
	label := t.Label
	a.pane.CloseActive()
	if a.pane.Active() == nil {
		a.paneShown = false
		a.setFocus(paneComposer)
	}
	a.layout()
	return a.notify("closed "+label, false)
}

// captured puts a terminal excerpt's chip at the composer's caret, focuses
// the composer and records when the excerpt was taken (for expiry).
func (a *App) captured(rec *contextref.TerminalRecord) tea.Cmd {
	a.setFocus(paneComposer)
	d := a.ed.Draft()
	d.SetCaret(d.Caret(), false) // at the caret: never over a selection
	a.spaceBeforeChip()
	a.ed.InsertContext(rec, "")
	note := a.ws.NoteExcerpt(rec.ContextID)
	return tea.Batch(a.afterComposer(), func() tea.Msg { return excerptNotedMsg{note()} },
		a.notify("captured "+rec.Label, false))
}

// spaceBeforeChip keeps a chip about to go in at the caret from gluing to
// the word before it ("see [notes.txt]", not "see[notes.txt]", and a title
// "see notes.txt"): a space goes in first unless the caret is at a line's
// start or after white space.
func (a *App) spaceBeforeChip() {
	if !a.ed.Focused() {
		return // InsertContext appends after a separating space
	}
	d := a.ed.Draft()
	if _, _, sel := d.Selection(); sel {
		return
	}
	c := d.Caret()
	line := d.Line(c.Line)
	if c.Col > 0 && c.Col <= len(line) && !unicode.IsSpace(line[c.Col-1]) {
		d.InsertText(" ")
	}
}

// paneArea splits the transcript's area between the transcript and the
// terminal pane: the pane zoomed takes it all; split, it takes the bottom
// half or the right half.
func (a *App) paneArea(w, h int) (trW, trH, pw, ph int) {
	if !a.paneShown {
		return w, h, 0, 0
	}
	switch {
	case a.pane.Layout == terminal.LayoutZoomed:
		return 0, 0, w, h
	case a.paneRight:
		pw = w / 2
		return w - pw - 1, h, pw, h
	default:
		ph = max(h/2, 3)
		return w, max(h-ph, 1), w, ph
	}
}
