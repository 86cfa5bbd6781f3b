package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/terminal"
)

// openWithTerms opens the app with an agent-terminal host.
func openWithTerms(t *testing.T) (*harness, *AgentTerminals) {
	t.Helper()
	e := newTestEnv(t)
	opt := e.options("")
	host := NewAgentTerminals(0)
	opt.AgentTerminals = host
	h := e.openWith(opt)
	t.Cleanup(func() { h.app.pane.CloseAll(); host.close() })
	return h, host
}

// startAgentTerm calls the host from another goroutine, as the agent's
// connection does, and pumps the app until the tab is in the pane.
func startAgentTerm(t *testing.T, h *harness, host *AgentTerminals, spec agent.TerminalSpec) agent.Terminal {
	t.Helper()
	type res struct {
		term agent.Terminal
		err  error
	}
	done := make(chan res, 1)
	go func() {
		term, err := host.Start(spec)
		done <- res{term, err}
	}()
	var r res
	h.pumpUntil("the agent's tab", func() bool {
		select {
		case r = <-done:
		default:
		}
		return r.term != nil && paneHas(h, agentTabPrefix+spec.ID)
	})
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.term
}

func paneHas(h *harness, id string) bool {
	for _, x := range h.app.pane.Terminals() {
		if x.ID == id {
			return true
		}
	}
	return false
}

func paneTab(h *harness, id string) *terminal.Terminal {
	for _, x := range h.app.pane.Terminals() {
		if x.ID == id {
			return x
		}
	}
	return nil
}

func waitExit(t *testing.T, term agent.Terminal) agent.TerminalExit {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ex, err := term.Wait(ctx)
	if err != nil {
		t.Fatalf("wait_for_exit: %v", err)
	}
	return ex
}

// An agent's command runs in a tab named after its tool call; the agent
// reads its output (without the pane's exit line), its exit code, and the
// output is cut to its limit at a character boundary; the tab is renamed
// after the tool item that shows it, and its text can be captured as a
// terminal-excerpt chip.
func TestAgentTerminalTab(t *testing.T) {
	h, host := openWithTerms(t)
	term := startAgentTerm(t, h, host, agent.TerminalSpec{ID: "term-1", Name: "Run the tests", Command: "printf 'first\\nsecond é\\n'; exit 3", OutputLimit: 1000})
	if tab := paneTab(h, "agent-term-1"); tab == nil || tab.Label != "agent: Run the tests" {
		t.Fatalf("tab %+v", tab)
	}
	if !strings.Contains(h.app.Toast(), "ctrl+t shows it") {
		t.Errorf("no toast says where the command runs: %q", h.app.Toast())
	}
	ex := waitExit(t, term)
	if ex.ExitCode == nil || *ex.ExitCode != 3 || ex.Signal != "" {
		t.Fatalf("exit %+v", ex)
	}
	out, truncated, exit := term.Output()
	if out != "first\nsecond é" || truncated || exit == nil || *exit.ExitCode != 3 {
		t.Fatalf("output %q truncated %v exit %+v", out, truncated, exit)
	}
	// The limit keeps the end, at a character boundary.
	cut := startAgentTerm(t, h, host, agent.TerminalSpec{ID: "term-2", Command: "printf", Args: []string{"abcé"}, OutputLimit: 2})
	waitExit(t, cut)
	if out, truncated, _ := cut.Output(); out != "é" || !truncated {
		t.Fatalf("cut output %q truncated %v", out, truncated)
	}
	if tab := paneTab(h, "agent-term-2"); tab == nil || tab.Label != "agent: printf abcé" {
		t.Fatalf("a tab without a tool call is named after its command: %+v", tab)
	}
	// A tool item that shows the terminal names the tab.
	h.update(chatMsg{chat.ItemChanged{ThreadID: h.app.thread.ID, Item: message.Item{Kind: message.ItemTool,
		Tool: &message.Tool{CallID: "c1", Title: "npm test \x1b[2J", Content: []message.ToolContent{{Type: message.ContentTerminal, TerminalID: "term-1"}}}}}})
	if tab := paneTab(h, "agent-term-1"); tab.Label != "agent: npm test" {
		t.Fatalf("renamed tab %q", tab.Label)
	}
	// ctrl+t shows the pane on the first tab; copy mode captures a line.
	h.press("ctrl+t")
	if h.app.pane.Active().ID != "agent-term-1" {
		t.Fatalf("shown tab %s", h.app.pane.Active().ID)
	}
	h.press("ctrl+space", "g", "y")
	h.pumpUntil("the excerpt chip", func() bool { return len(h.app.ed.Draft().Records()) == 1 })
	rec, ok := h.app.ed.Draft().Records()[0].(*contextref.TerminalRecord)
	if !ok || !strings.Contains(rec.Text, "first") || !strings.Contains(rec.Label, "npm test") {
		t.Fatalf("captured %+v", h.app.ed.Draft().Records()[0])
	}
}

// kill ends the command and keeps the tab readable; release marks it
// released, and past keepReleased released tabs the oldest go.
func TestAgentTerminalKillRelease(t *testing.T) {
	h, host := openWithTerms(t)
	term := startAgentTerm(t, h, host, agent.TerminalSpec{ID: "term-1", Command: "echo started; exec sleep 30"})
	h.pumpUntil("the command's output", func() bool { out, _, _ := term.Output(); return out == "started" })
	if err := term.Kill(); err != nil {
		t.Fatal(err)
	}
	if ex := waitExit(t, term); ex.Signal != "killed" || ex.ExitCode != nil {
		t.Fatalf("exit after kill %+v", ex)
	}
	if out, _, exit := term.Output(); out != "started" || exit == nil {
		t.Fatalf("after kill: %q %+v", out, exit)
	}
	if err := term.Release(); err != nil {
		t.Fatal(err)
	}
	h.pumpUntil("the release", func() bool { return len(h.app.acp.tabs) == 1 && h.app.acp.tabs[0].released })
	for i := 2; i <= keepReleased+2; i++ {
		x := startAgentTerm(t, h, host, agent.TerminalSpec{ID: "term-" + itoaTest(i), Command: "true"})
		if err := x.Release(); err != nil {
			t.Fatal(err)
		}
	}
	h.pumpUntil("the oldest released tabs gone", func() bool { return len(h.app.pane.Terminals()) == keepReleased })
	if paneHas(h, "agent-term-1") || paneHas(h, "agent-term-2") || !paneHas(h, "agent-term-6") {
		var ids []string
		for _, x := range h.app.pane.Terminals() {
			ids = append(ids, x.ID)
		}
		t.Fatalf("tabs left %v", ids)
	}
}

func itoaTest(i int) string { return string(rune('0' + i)) }

// A terminal sign-in method runs the agent's login in a shown, focused tab;
// the sign-in is answered with that method once the login exits, and the
// turn goes on.
func TestSignInTerminalMethod(t *testing.T) {
	b := &acpLike{signIn: &agent.Question{Kind: agent.QuestionAuth, Title: "Sign in to fake", Options: []agent.QuestionOption{
		{ID: "login", Label: "Log in", Kind: agent.AuthTerminal, Terminal: &agent.TerminalCommand{Command: "sh", Args: []string{"-c", "echo logging in; read x"}}},
		{ID: "key", Label: "API key", Kind: agent.AuthEnvVar},
	}}}
	h := openFake(t, b)
	h.typeText("hello")
	h.press("enter")
	h.pumpUntil("the sign-in prompt", func() bool { return h.app.OverlayScope() == ScopeAsk })
	h.press("enter")
	h.pumpUntil("the login's tab", func() bool { return paneHas(h, "signin-1") && h.focus() == paneTerminal })
	tab := paneTab(h, "signin-1")
	h.pumpUntil("the login's output", func() bool { return strings.Contains(strings.Join(tab.Snapshot(5).Lines, "\n"), "logging in") })
	if tab.Label != "sign in: Log in" || h.app.pane.Active() != tab {
		t.Fatalf("tab %q shown %v", tab.Label, h.app.pane.Active() == tab)
	}
	if b.answered() != 0 {
		t.Fatal("the sign-in was answered before the login ended")
	}
	h.press("enter") // the login reads a line, then exits
	h.pumpUntil("the reply after signing in", func() bool { return strings.Contains(h.replyShown(), "got: hello") })
	if b.answers[0].OptionID != "login" {
		t.Fatalf("answered %+v", b.answers)
	}
	if h.focus() != paneComposer {
		t.Fatal("the focus stayed in the login's tab")
	}
}

func (h *harness) focus() pane { return h.app.focus }

func (b *acpLike) answered() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.answers)
}
