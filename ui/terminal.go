package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/mcpserver"
	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/ui/keymap"
)

// panes is the terminal pane's controller: the pane, whether it is shown
// (where is the pane's: terminal.Pane.Split), its keys, the agent's tabs
// and sign-in logins in it (agentterm.go) and chipchat mcp's socket that
// reads its terminals (mcp.go).
type panes struct {
	pane  *terminal.Pane
	shown bool

	keys  *keymap.Keys
	toast *toastLine
	chat  *chat.Service

	host       *terminal.AgentTerminals // the agent's terminals, nil when none
	tabs       terminal.AgentTabs       // the agent's tabs and sign-in logins in the pane
	authSeq    int                      // numbers the sign-in tabs
	mcp        *mcpserver.Panes         // chipchat mcp's panes socket, nil when none
	scrollback int
}

// focusTo is where a controller asks the App to put the focus.
type focusTo int

const (
	focusKeep        focusTo = iota
	focusComposer            // the composer takes the focus
	focusTerminal            // the terminal pane takes it
	focusOffTerminal         // the composer takes it if the terminal pane had it
	focusAway                // the composer and the transcript lose it (the review pane has the keys)
)

// paneFx is what the App does after a controller acted: the focus, the
// layout, the composer's autosave (before after, a command to run once the
// composer's has), and opening the pane's first terminal (after the
// layout gave it its size).
type paneFx struct {
	focus    focusTo
	layout   bool
	composer bool
	after    tea.Cmd
	open     bool
}

// act does what fx asks and returns cmd with what that started.
func (a *App) act(cmd tea.Cmd, fx paneFx) tea.Cmd {
	if fx.layout {
		a.layout()
	}
	switch {
	case fx.focus == focusComposer, fx.focus == focusOffTerminal && a.focus == paneTerminal:
		a.setFocus(paneComposer)
	case fx.focus == focusTerminal:
		a.setFocus(paneTerminal)
	case fx.focus == focusAway:
		a.ed.Blur()
		a.tr.Blur()
	}
	if fx.composer {
		cmd = tea.Batch(tea.Sequence(a.afterComposer(), fx.after), cmd)
	}
	if fx.open {
		cmd = tea.Batch(cmd, a.panes.pane.Open())
	}
	return cmd
}

// areaKey gives a key to the review pane while it is open, else to the
// terminal pane while it has the focus, else to ! shell mode; ok false
// leaves it to the others.
func (a *App) areaKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case a.rv.shown():
		return a.act(a.rv.key(msg)), true
	case a.focus == paneTerminal:
		return a.act(a.panes.key(msg, a.shell.run)), true
	case a.focus == paneComposer && !a.ed.PickerOpen():
		cmd, fx, ok := a.shell.key(msg)
		return a.act(cmd, fx), ok
	}
	return nil, false
}

// show shows the pane (starting Terminal 1 the first time) and focuses it.
func (p *panes) show() (tea.Cmd, paneFx) {
	p.shown = true
	return nil, paneFx{layout: true, focus: focusTerminal, open: true}
}

// key handles a key while the pane has focus: the pane does its own app
// keys and the rest (terminal.Pane.AppKey); leaving, hiding and closing
// are the app's. busy is the tab a ! command runs in (nil when none): it
// does not close.
func (p *panes) key(msg tea.KeyPressMsg, busy *terminal.Terminal) (tea.Cmd, paneFx) {
	k := p.keys
	cmd, act := p.pane.AppKey(msg, terminal.AppKeys{Leave: k.Terminal, Hide: k.HidePane, Close: k.CloseTerminal,
		New: k.NewTerminal, Next: k.NextTerminal, Prev: k.PrevTerminal, Zoom: k.ZoomTerminal, Side: k.TerminalSide})
	switch act {
	case terminal.ActLeave:
		return nil, paneFx{focus: focusComposer}
	case terminal.ActHide:
		return p.toggle()
	case terminal.ActClose:
		return p.closeActive(busy)
	}
	return cmd, paneFx{layout: act == terminal.ActLayout}
}

// update hands a message to the pane.
func (p *panes) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	p.pane, cmd = p.pane.Update(msg)
	return cmd
}

// toggle is alt+h: hide the pane (its shells keep running; focus goes to
// the composer) or show it again.
func (p *panes) toggle() (tea.Cmd, paneFx) {
	if !p.shown {
		return p.show()
	}
	p.shown = false
	return p.toast.show("terminal pane hidden — "+p.keys.HidePane.Help().Key+" shows it", false), paneFx{layout: true, focus: focusOffTerminal}
}

// closeActive is alt+w: the shown terminal's shell ends and its tab goes;
// the last one closes the pane.
func (p *panes) closeActive(busy *terminal.Terminal) (tea.Cmd, paneFx) {
	t := p.pane.Active()
	if t == nil {
		return nil, paneFx{}
	}
	if busy == t {
		return p.toast.show("a ! command runs there: "+p.keys.ShellKill.Help().Key+" in the composer kills it", true), paneFx{}
	}
	label := t.Label
	p.pane.CloseActive()
	fx := paneFx{layout: true}
	if p.pane.Active() == nil {
		p.shown = false
		fx.focus = focusComposer
	}
	return p.toast.show("closed "+label, false), fx
}

// split divides the transcript's area between the transcript and the
// pane (terminal.Pane.Split).
func (p *panes) split(w, h int) (trW, trH, pw, ph int) { return p.pane.Split(w, h, p.shown) }

// captured puts a terminal excerpt's chip at the composer's caret, focuses
// the composer and records when the excerpt was taken (for expiry); then
// (when not nil) toasts after it, or alone when rec is nil (what went
// wrong).
func (a *App) captured(rec *contextref.TerminalRecord, then func() tea.Cmd) tea.Cmd {
	if then == nil {
		then = func() tea.Cmd { return nil }
	}
	if rec == nil {
		return then()
	}
	a.setFocus(paneComposer)
	d := a.ed.Draft()
	d.SetCaret(d.Caret(), false) // at the caret: never over a selection
	a.ed.SpaceBeforeChip()
	a.ed.InsertContext(rec, "")
	note := a.opt.Workspace.NoteExcerpt(rec.ContextID)
	return tea.Batch(a.afterComposer(), func() tea.Msg { return excerptNotedMsg{note()} },
		a.notify("captured "+rec.Label, false), then())
}
