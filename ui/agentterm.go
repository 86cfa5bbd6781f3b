package ui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/terminal"
)

// The agent's terminals (issue 12 item 5; DESIGN.md section 10): an ACP
// agent's terminal/create runs its command in a pty as a tab of chipchat's
// terminal pane (terminal.AgentTerminals, started off the UI goroutine),
// named after the tool call (renamed when a tool item names the terminal),
// visible with ctrl+t, readable and capturable as terminal-excerpt chips
// like any tab. Released tabs stay for the user to read and capture; past
// terminal.KeepReleased of them the oldest go (closed off the UI
// goroutine).
//
// A terminal sign-in method (chat.AuthTerminal) runs the agent's login the
// same way, in a tab that is shown and focused; the sign-in is answered
// once the login exits.

// authStarted: the login of a terminal sign-in method runs (or failed to
// start).
type authStarted struct {
	askID    int64
	optionID string
	t        *terminal.Terminal
	err      error
}

// authExited: the login of a terminal sign-in method ended.
type authExited struct {
	askID    int64
	optionID string
	tabID    string
	code     int
}

// listen waits for the agent's terminals' next message.
func (p *panes) listen() tea.Cmd { return p.host.Listen() }

// added puts a started agent terminal in the pane.
func (p *panes) added(m terminal.AgentAddedMsg) tea.Cmd {
	cmd := p.pane.Add(m.Terminal)
	p.tabs.Add(m.Terminal.ID)
	p.syncSocket()
	var note tea.Cmd
	if !p.shown {
		note = p.toast.show("the agent runs "+m.Terminal.Label+" in a terminal — ctrl+t shows it", false)
	}
	return tea.Batch(cmd, note, p.listen())
}

// released marks an agent's tab released.
func (p *panes) released(m terminal.AgentReleasedMsg) (tea.Cmd, paneFx) {
	p.tabs.Release(m.ID)
	cmd, fx := p.prune()
	return tea.Batch(cmd, p.listen()), fx
}

// prune removes the oldest released tabs beyond terminal.KeepReleased and
// closes them off the UI goroutine; the pane hides once empty.
func (p *panes) prune() (tea.Cmd, paneFx) {
	gone := p.tabs.Prune(p.pane)
	if len(gone) == 0 {
		return nil, paneFx{}
	}
	p.syncSocket()
	var fx paneFx
	if len(p.pane.Terminals()) == 0 {
		p.shown = false
		fx = paneFx{layout: true, focus: focusOffTerminal}
	}
	return terminal.Closing(gone...), fx
}

// rename names an agent's tab after the tool call whose content shows it.
func (p *panes) rename(it message.Item) {
	if it.Tool == nil {
		return
	}
	for _, c := range it.Tool.Content {
		if c.Type == message.ContentTerminal {
			p.tabs.Rename(p.pane, c.TerminalID, it.Tool.Title)
		}
	}
}

// signIn is the ask box's hook for a sign-in answer: a terminal method
// runs its login first (handled true), in a command away from Update; the
// others are answered at once.
func (p *panes) signIn(askID int64, optionID string, q *chat.Question) (tea.Cmd, bool) {
	if q == nil {
		return nil, false
	}
	for _, o := range q.Options {
		if o.ID == optionID && o.Kind == chat.AuthTerminal && o.Terminal != nil {
			tc := o.Terminal
			p.authSeq++
			id, label, sb := "signin-"+strconv.Itoa(p.authSeq), terminal.TabLabel("sign in: ", o.Label), p.scrollback
			return func() tea.Msg {
				t, err := terminal.StartCommand(id, label, sb, tc.Dir, tc.Env, terminal.CommandArgv(tc.Command, tc.Args))
				return authStarted{askID: askID, optionID: o.ID, t: t, err: err}
			}, true
		}
	}
	return nil, false
}

// authStarted shows the login's tab, focused, and waits for its end.
func (p *panes) authStarted(m authStarted) (tea.Cmd, paneFx) {
	if m.err != nil {
		p.chat.AnswerSignIn(m.askID, "")
		return p.toast.show("could not run the sign-in command: "+m.err.Error(), true), paneFx{}
	}
	t := m.t
	wait := func() tea.Msg {
		<-t.Done()
		_, code := t.Exited()
		return authExited{askID: m.askID, optionID: m.optionID, tabID: t.ID, code: code}
	}
	return p.showAsk(t, "sign in in the terminal; chipchat goes on when the command ends", wait)
}

// showAsk adds a tab the user must answer, shown and focused, toasting note.
func (p *panes) showAsk(t *terminal.Terminal, note string, more ...tea.Cmd) (tea.Cmd, paneFx) {
	cmd := p.pane.Add(t)
	p.pane.Show(t.ID)
	p.tabs.Add(t.ID)
	p.syncSocket()
	p.shown = true
	return tea.Batch(append(more, cmd, p.toast.show(note, false))...), paneFx{layout: true, focus: focusTerminal}
}

// ask shows the tab of a terminal.AskMsg (main waits for its end).
func (p *panes) ask(m terminal.AskMsg) (tea.Cmd, paneFx) {
	return p.showAsk(m.Terminal, m.Note, p.listen())
}

// answered ends an ask: its tab goes (or stays, released, for the user to
// read) and the keys go back to the composer.
func (p *panes) answered(m terminal.AnsweredMsg) (tea.Cmd, paneFx) {
	p.tabs.Release(m.ID)
	var closing tea.Cmd
	if m.Remove {
		if t := p.pane.Remove(m.ID); t != nil {
			closing = terminal.Closing(t)
		}
	}
	cmd, fx := p.prune()
	if p.shown && len(p.pane.Terminals()) == 0 {
		p.shown, fx.layout = false, true
	}
	p.syncSocket()
	fx.focus = focusOffTerminal
	return tea.Batch(closing, cmd, p.listen()), fx
}

// authExited answers the sign-in once its login ended.
func (p *panes) authExited(m authExited) (tea.Cmd, paneFx) {
	p.tabs.Release(m.tabID)
	p.chat.AnswerSignIn(m.askID, m.optionID)
	text := "signed in: the agent goes on"
	if m.code != 0 {
		text = "the sign-in command ended with an error; the agent tries again"
	}
	cmd, fx := p.prune()
	fx.focus = focusOffTerminal
	return tea.Batch(cmd, p.toast.show(text, m.code != 0)), fx
}
