package ui

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/terminal"
)

// The agent's terminals (issue 12 item 5; DESIGN.md section 10): an ACP
// agent's terminal/create runs its command in a pty as a tab of chipchat's
// terminal pane, named after the tool call (renamed when a tool item names
// the terminal), visible with ctrl+t, readable and capturable as
// terminal-excerpt chips like any tab. The agent's side (agent.TerminalHost:
// reading, waiting for, killing and releasing a terminal) is an adapter in
// package main over AgentTerminals; it calls it on the agent's goroutines:
//
//   - Start starts the process there (no I/O on the UI goroutine) and hands
//     the started terminal to the app through a channel the app listens on
//     (listenAgentTerminals); the app's Update only adds it to the pane.
//   - Released tells the app the agent released a tab. Released tabs stay
//     for the user to read and capture; once more than keepReleased of them
//     exist the oldest is removed (and closed off the UI goroutine).
//
// A terminal sign-in method (chat.AuthTerminal) runs the agent's login the
// same way, in a tab that is shown and focused; the sign-in is answered
// once the login exits (runAuthTerminal).

// keepReleased is how many released agent tabs stay in the pane.
const keepReleased = 4

// agentTabPrefix starts the pane id of an agent's terminal ("agent-term-1").
const agentTabPrefix = "agent-"

// AgentTerminals runs an ACP agent's terminals in the app's terminal pane.
// Make it with NewAgentTerminals, pass it to the agent's terminal host
// (package main) and in Options.AgentTerminals. Its methods may be called
// from any goroutine.
type AgentTerminals struct {
	events chan tea.Msg
	quit   chan struct{}
	once   sync.Once

	mu         sync.Mutex
	scrollback int
}

// NewAgentTerminals makes the host; scrollback is the lines each tab keeps
// (≤ 0: the pane's default).
func NewAgentTerminals(scrollback int) *AgentTerminals {
	return &AgentTerminals{events: make(chan tea.Msg, 64), quit: make(chan struct{}), scrollback: scrollback}
}

// AgentCommand is a command the agent runs in a terminal (terminal/create).
type AgentCommand struct {
	ID      string // the agent's terminal id; the tab is agent-<ID>
	Name    string // the tool call's title, when known
	Command string
	Args    []string
	Env     []string // added to the environment ("KEY=value")
	Dir     string
}

// agentTermAdded: a started agent terminal for the pane.
type agentTermAdded struct{ t *terminal.Terminal }

// agentTermReleased: the agent released a terminal.
type agentTermReleased struct{ id string }

// authExited: the login of a terminal sign-in method ended.
type authExited struct {
	askID    int64
	optionID string
	tabID    string
	code     int
}

// post hands m to the app; false once the app has closed.
func (h *AgentTerminals) post(m tea.Msg) bool {
	select {
	case h.events <- m:
		return true
	case <-h.quit:
		return false
	}
}

// close stops posting (the app is gone).
func (h *AgentTerminals) close() { h.once.Do(func() { close(h.quit) }) }

// commandArgv is how a command line runs: a command without args that
// looks like a shell line ("ls -la | wc") through sh -c, as agents send
// both forms.
func commandArgv(command string, args []string) []string {
	if len(args) == 0 && strings.ContainsAny(command, " \t|&;<>()$`\"'*?~\n") {
		return []string{"sh", "-c", command}
	}
	return append([]string{command}, args...)
}

// tabLabel is a tab's label for a tool call's title or command line.
func tabLabel(prefix, name string) string {
	name = strings.TrimSpace(chips.SanitizeLine(name))
	if name == "" {
		name = "command"
	}
	return prefix + chips.Truncate(name, 32)
}

// Start runs c's command in a new tab (the agent's goroutine) and hands
// the tab to the app; the terminal is the agent's to read and end.
func (h *AgentTerminals) Start(c AgentCommand) (*terminal.Terminal, error) {
	h.mu.Lock()
	sb := h.scrollback
	h.mu.Unlock()
	name := c.Name
	if strings.TrimSpace(name) == "" {
		name = strings.Join(append([]string{c.Command}, c.Args...), " ")
	}
	t := terminal.NewTerminal(agentTabPrefix+c.ID, tabLabel("agent: ", name), 80, 24, sb)
	t.Env = append([]string(nil), c.Env...)
	t.NoRestart = true
	if err := t.Start(c.Dir, commandArgv(c.Command, c.Args)...); err != nil {
		return nil, err
	}
	if !h.post(agentTermAdded{t}) {
		t.Close()
		return nil, errors.New("chipchat is closing")
	}
	return t, nil
}

// Released marks the tab of terminal id (Start's terminal's ID) released.
func (h *AgentTerminals) Released(id string) { h.post(agentTermReleased{id}) }

// ---- the app's side ----

// agentTabs is what the app knows of the agent's tabs, oldest first.
type agentTab struct {
	id       string
	released bool
	auth     bool // a sign-in's login: not the agent's
}

// listenAgentTerminals waits for the host's next message.
func (a *App) listenAgentTerminals() tea.Cmd {
	h := a.acp.terms
	if h == nil {
		return nil
	}
	return func() tea.Msg {
		select {
		case m := <-h.events:
			return m
		case <-h.quit:
			return nil
		}
	}
}

// acpMsg handles the messages of the agent's terminals and of a terminal
// sign-in.
func (a *App) acpMsg(msg tea.Msg) (tea.Cmd, bool) {
	a.syncPanesIfChanged() // the user's own terminals, for chipchat mcp (mcp.go)
	switch m := msg.(type) {
	case agentTermAdded:
		cmd := a.pane.Add(m.t)
		a.acp.tabs = append(a.acp.tabs, agentTab{id: m.t.ID})
		a.syncPanes()
		var note tea.Cmd
		if !a.paneShown {
			note = a.notify("the agent runs "+m.t.Label+" in a terminal — ctrl+t shows it", false)
		}
		return tea.Batch(cmd, note, a.listenAgentTerminals()), true
	case agentTermReleased:
		for i := range a.acp.tabs {
			if a.acp.tabs[i].id == m.id {
				a.acp.tabs[i].released = true
			}
		}
		return tea.Batch(a.pruneAgentTabs(), a.listenAgentTerminals()), true
	case authStarted:
		return a.authStartedMsg(m), true
	case authExited:
		for i := range a.acp.tabs {
			if a.acp.tabs[i].id == m.tabID {
				a.acp.tabs[i].released = true
			}
		}
		a.chat.AnswerSignIn(m.askID, m.optionID)
		if a.focus == paneTerminal {
			a.setFocus(paneComposer)
		}
		text := "signed in: the agent goes on"
		if m.code != 0 {
			text = "the sign-in command ended with an error; the agent tries again"
		}
		return tea.Batch(a.pruneAgentTabs(), a.notify(text, m.code != 0)), true
	}
	return nil, false
}

// pruneAgentTabs removes the oldest released tabs beyond keepReleased and
// closes them off the UI goroutine.
func (a *App) pruneAgentTabs() tea.Cmd {
	released := 0
	for _, t := range a.acp.tabs {
		if t.released {
			released++
		}
	}
	var gone []*terminal.Terminal
	keep := a.acp.tabs[:0]
	for _, t := range a.acp.tabs {
		if t.released && released > keepReleased {
			released--
			if term := a.pane.Remove(t.id); term != nil {
				gone = append(gone, term)
			}
			continue
		}
		keep = append(keep, t)
	}
	a.acp.tabs = keep
	if len(gone) == 0 {
		return nil
	}
	a.syncPanes()
	if len(a.pane.Terminals()) == 0 {
		a.paneShown = false
		if a.focus == paneTerminal {
			a.setFocus(paneComposer)
		}
		a.layout()
	}
	return func() tea.Msg {
		for _, t := range gone {
			t.Close()
		}
		return nil
	}
}

// renameAgentTerminals names an agent's tab after the tool call whose
// content shows it (the sure link; Start only guessed).
func (a *App) renameAgentTerminals(it message.Item) {
	if it.Tool == nil || len(a.acp.tabs) == 0 {
		return
	}
	for _, c := range it.Tool.Content {
		if c.Type != message.ContentTerminal || c.TerminalID == "" || it.Tool.Title == "" {
			continue
		}
		id := agentTabPrefix + c.TerminalID
		label := tabLabel("agent: ", it.Tool.Title)
		for _, t := range a.pane.Terminals() {
			if t.ID == id {
				t.Do(func(*terminal.Screen) { t.Label = label }) // Snapshot reads it under this lock
			}
		}
	}
}

// runAuthTerminal runs a terminal sign-in method's login in a shown and
// focused tab; the sign-in is answered when it exits. The process starts
// in a command, away from Update.
func (a *App) runAuthTerminal(askID int64, opt chat.QuestionOption) tea.Cmd {
	tc := opt.Terminal
	a.acp.authSeq++
	id := "signin-" + strconv.Itoa(a.acp.authSeq)
	sb := a.opt.Config.Limits.Scrollback
	label := tabLabel("sign in: ", opt.Label)
	start := func() tea.Msg {
		t := terminal.NewTerminal(id, label, 80, 24, sb)
		t.Env = append([]string(nil), tc.Env...)
		t.NoRestart = true
		if err := t.Start(tc.Dir, commandArgv(tc.Command, tc.Args)...); err != nil {
			return authStarted{askID: askID, optionID: opt.ID, err: err}
		}
		return authStarted{askID: askID, optionID: opt.ID, t: t}
	}
	return start
}

// authStarted: the login of a terminal sign-in method runs (or failed to
// start).
type authStarted struct {
	askID    int64
	optionID string
	t        *terminal.Terminal
	err      error
}

// authStartedMsg shows the login's tab and waits for its end.
func (a *App) authStartedMsg(m authStarted) tea.Cmd {
	if m.err != nil {
		a.chat.AnswerSignIn(m.askID, "")
		return a.notify("could not run the sign-in command: "+m.err.Error(), true)
	}
	cmd := a.pane.Add(m.t)
	a.pane.Show(m.t.ID)
	a.acp.tabs = append(a.acp.tabs, agentTab{id: m.t.ID, auth: true})
	a.syncPanes()
	a.paneShown = true
	a.layout()
	a.setFocus(paneTerminal)
	t := m.t
	wait := func() tea.Msg {
		<-t.Done()
		_, code := t.Exited()
		return authExited{askID: m.askID, optionID: m.optionID, tabID: t.ID, code: code}
	}
	return tea.Batch(cmd, wait, a.notify("sign in in the terminal; chipchat goes on when the command ends", false))
}

// signInChosen is the ask box's hook for a sign-in answer: a terminal
// method runs its login first (handled true), the others are answered at
// once.
func (a *App) signInChosen(askID int64, optionID string, q *chat.Question) (tea.Cmd, bool) {
	if q == nil {
		return nil, false
	}
	for _, o := range q.Options {
		if o.ID == optionID && o.Kind == chat.AuthTerminal && o.Terminal != nil {
			return a.runAuthTerminal(askID, o), true
		}
	}
	return nil, false
}
