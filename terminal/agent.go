package terminal

import (
	"errors"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
)

// The agent's terminals (issue 12 item 5; DESIGN.md section 10): an ACP
// agent's terminal/create runs its command in a pty as a tab of chipchat's
// terminal pane. The agent's side (agent.TerminalHost: reading, waiting
// for, killing and releasing a terminal) is an adapter in package main
// over AgentTerminals; it calls it on the agent's goroutines:
//
//   - Start starts the process there (no I/O on the UI goroutine) and hands
//     the started terminal to the app through a channel the app listens on
//     (Listen, an AgentAddedMsg); the app's Update only adds it to the pane.
//   - Released tells the app (AgentReleasedMsg) the agent released a tab.
//     The app's AgentTabs keeps released tabs for the user to read and
//     capture; once more than KeepReleased of them exist the oldest is
//     removed.

// KeepReleased is how many released agent tabs stay in the pane.
const KeepReleased = 4

// AgentTabPrefix starts the pane id of an agent's terminal ("agent-term-1").
const AgentTabPrefix = "agent-"

// AgentTerminals runs an ACP agent's terminals for the app's terminal
// pane. Make it with NewAgentTerminals, pass it to the agent's terminal
// host (package main) and to the app. Its methods may be called from any
// goroutine.
type AgentTerminals struct {
	events chan tea.Msg
	quit   chan struct{}
	once   sync.Once

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

// AgentAddedMsg is a started agent terminal for the pane.
type AgentAddedMsg struct{ Terminal *Terminal }

// AgentReleasedMsg says the agent released the terminal of tab ID.
type AgentReleasedMsg struct{ ID string }

// post hands m to the app; false once the app has closed.
func (h *AgentTerminals) post(m tea.Msg) bool {
	select {
	case h.events <- m:
		return true
	case <-h.quit:
		return false
	}
}

// Close stops posting (the app is gone). A nil host is none.
func (h *AgentTerminals) Close() {
	if h != nil {
		h.once.Do(func() { close(h.quit) })
	}
}

// Listen waits for the host's next message (nil with a nil host).
func (h *AgentTerminals) Listen() tea.Cmd {
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

// CommandArgv is how a command line runs: a command without args that
// looks like a shell line ("ls -la | wc") through sh -c, as agents send
// both forms.
func CommandArgv(command string, args []string) []string {
	if len(args) == 0 && strings.ContainsAny(command, " \t|&;<>()$`\"'*?~\n") {
		return []string{"sh", "-c", command}
	}
	return append([]string{command}, args...)
}

// TabLabel is a tab's label for a tool call's title or command line.
func TabLabel(prefix, name string) string {
	name = strings.TrimSpace(chips.SanitizeLine(name))
	if name == "" {
		name = "command"
	}
	return prefix + chips.Truncate(name, 32)
}

// StartCommand starts argv in dir (env added) in a new terminal that does
// not restart, for a tab id labelled label.
func StartCommand(id, label string, scrollback int, dir string, env, argv []string) (*Terminal, error) {
	t := NewTerminal(id, label, 80, 24, scrollback)
	t.Env = append([]string(nil), env...)
	t.NoRestart = true
	if err := t.Start(dir, argv...); err != nil {
		return nil, err
	}
	return t, nil
}

// Start runs c's command in a new tab (the agent's goroutine) and hands
// the tab to the app; the terminal is the agent's to read and end.
func (h *AgentTerminals) Start(c AgentCommand) (*Terminal, error) {
	name := c.Name
	if strings.TrimSpace(name) == "" {
		name = strings.Join(append([]string{c.Command}, c.Args...), " ")
	}
	t, err := StartCommand(AgentTabPrefix+c.ID, TabLabel("agent: ", name), h.scrollback, c.Dir, c.Env, CommandArgv(c.Command, c.Args))
	if err != nil {
		return nil, err
	}
	if !h.post(AgentAddedMsg{t}) {
		t.Close()
		return nil, errors.New("chipchat is closing")
	}
	return t, nil
}

// Released marks the tab of terminal id (Start's terminal's ID) released.
func (h *AgentTerminals) Released(id string) { h.post(AgentReleasedMsg{id}) }

// AgentTabs is the app's bookkeeping of the agent's tabs (and of sign-in
// logins) in its pane, oldest first. The UI goroutine owns it.
type AgentTabs struct {
	tabs []agentTab
}

type agentTab struct {
	id       string
	released bool
}

// Add records the tab id.
func (at *AgentTabs) Add(id string) { at.tabs = append(at.tabs, agentTab{id: id}) }

// Release marks the tab id released.
func (at *AgentTabs) Release(id string) {
	for i := range at.tabs {
		if at.tabs[i].id == id {
			at.tabs[i].released = true
		}
	}
}

// Released is how many of the tabs are released.
func (at *AgentTabs) Released() int {
	n := 0
	for _, t := range at.tabs {
		if t.released {
			n++
		}
	}
	return n
}

// Len is how many tabs it knows.
func (at *AgentTabs) Len() int { return len(at.tabs) }

// Prune removes from p the oldest released tabs beyond KeepReleased and
// returns their terminals, for the caller to close off the UI goroutine.
func (at *AgentTabs) Prune(p *Pane) []*Terminal {
	released := at.Released()
	var gone []*Terminal
	keep := at.tabs[:0]
	for _, t := range at.tabs {
		if t.released && released > KeepReleased {
			released--
			if term := p.Remove(t.id); term != nil {
				gone = append(gone, term)
			}
			continue
		}
		keep = append(keep, t)
	}
	at.tabs = keep
	return gone
}

// Rename labels the tab of the agent's terminal terminalID in p after a
// tool call's title (the sure link; Start only guessed).
func (at *AgentTabs) Rename(p *Pane, terminalID, title string) {
	if len(at.tabs) == 0 || terminalID == "" || title == "" {
		return
	}
	id, label := AgentTabPrefix+terminalID, TabLabel("agent: ", title)
	for _, t := range p.Terminals() {
		if t.ID == id {
			t.Do(func(*Screen) { t.Label = label }) // Snapshot reads it under this lock
		}
	}
}
