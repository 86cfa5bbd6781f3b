package main

import (
	"context"
	"errors"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/terminal"
)

// agentTerms is an ACP agent's agent.TerminalHost (DESIGN.md section 10):
// terminal/create runs its command as a tab of the app's terminal pane
// (terminal.AgentTerminals.Start, which hands the started terminal to the app),
// and the agent reads, waits for, kills and releases it here. It is called
// on the agent's goroutines:
//
//   - Output reads the tab's screen and scrollback under the terminal's
//     lock: the text as the user sees it (colours and cursor motion already
//     applied), wrapped rows joined, trailing blank rows and the pane's
//     "[process exited N]" (or "[process killed (SIGNAL)]") line left out, at most the agent's
//     outputByteLimit bytes from the end, cut at a character boundary and
//     reported truncated — as it is when the scrollback dropped lines.
//   - Wait waits for the process's end (terminal.Terminal.Done) or ctx;
//     Kill sends SIGKILL to its process group and keeps the tab readable;
//     Release kills it if it still runs and tells the app the tab is
//     released (terminal.AgentTerminals.Released).
type agentTerms struct{ tabs *terminal.AgentTerminals }

var _ agent.TerminalHost = agentTerms{}

// Start runs spec's command in a new tab.
func (h agentTerms) Start(spec agent.TerminalSpec) (agent.Terminal, error) {
	t, err := h.tabs.Start(terminal.AgentCommand{ID: spec.ID, Name: spec.Name, Command: spec.Command, Args: spec.Args,
		Env: spec.Env, Dir: spec.Dir})
	if err != nil {
		return nil, err
	}
	return &agentTerm{tabs: h.tabs, t: t, limit: spec.OutputLimit}, nil
}

// agentTerm is one agent terminal, as the agent sees it.
type agentTerm struct {
	tabs  *terminal.AgentTerminals
	t     *terminal.Terminal
	limit int
	once  sync.Once
}

func exitOf(t *terminal.Terminal) agent.TerminalExit {
	if sig := t.ExitSignal(); sig != "" {
		return agent.TerminalExit{Signal: sig}
	}
	_, code := t.Exited()
	return agent.TerminalExit{ExitCode: &code}
}

func (at *agentTerm) ended() bool {
	select {
	case <-at.t.Done():
		return true
	default:
		return false
	}
}

// Output is the tab's text (see agentTerms).
func (at *agentTerm) Output() (string, bool, *agent.TerminalExit) {
	var exit *agent.TerminalExit
	if at.ended() {
		e := exitOf(at.t)
		exit = &e
	}
	limit := at.limit
	if limit <= 0 {
		limit = agent.ACPDefaultTerminalOutput
	}
	var out string
	var truncated bool
	at.t.Do(func(s *terminal.Screen) { out, truncated = screenText(s, limit, exit != nil) })
	return out, truncated, exit
}

// screenText is the last limit bytes of the screen and scrollback's text.
// It reads only as many lines as the limit needs.
func screenText(s *terminal.Screen, limit int, exited bool) (string, bool) {
	first, last := s.FirstLine(), s.LastLine()
	text := func(n int64) string { return s.Lines(n, n)[0] }
	for last >= first && strings.TrimSpace(text(last)) == "" {
		last--
	}
	if exited && last >= first && (strings.HasPrefix(text(last), "[process exited ") || strings.HasPrefix(text(last), "[process killed ")) {
		last--
		for last >= first && strings.TrimSpace(text(last)) == "" && !s.LineWrapped(last) {
			last--
		}
	}
	var parts []string // newest first
	size := 0
	n := last
	for ; n >= first && size <= limit; n-- {
		l := text(n)
		if n < last && !s.LineWrapped(n) {
			l += "\n"
		}
		parts = append(parts, l)
		size += len(l)
	}
	truncated := first > 0 || n >= first
	var b strings.Builder
	b.Grow(size)
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
	}
	out := b.String()
	if len(out) > limit {
		cut := len(out) - limit
		for cut < len(out) && !utf8.RuneStart(out[cut]) {
			cut++
		}
		out, truncated = out[cut:], true
	}
	return out, truncated
}

func (at *agentTerm) Wait(ctx context.Context) (agent.TerminalExit, error) {
	select {
	case <-at.t.Done():
		return exitOf(at.t), nil
	case <-ctx.Done():
		return agent.TerminalExit{}, ctx.Err()
	}
}

func (at *agentTerm) Kill() error {
	if at.ended() {
		return nil
	}
	if pgid := at.t.Pgid(); pgid > 0 {
		if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			return err
		}
	}
	return nil
}

func (at *agentTerm) Release() error {
	err := at.Kill()
	at.once.Do(func() { at.tabs.Released(at.t.ID) })
	return err
}
