package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/ui/keymap"
)

// openWithTerms opens the app with an agent-terminal host.
func openWithTerms(t *testing.T) (*harness, *terminal.AgentTerminals) {
	t.Helper()
	e := newTestEnv(t)
	opt := e.options("")
	host := terminal.NewAgentTerminals(0)
	opt.AgentTerminals = host
	h := e.openWith(opt)
	t.Cleanup(func() { h.app.panes.pane.CloseAll(); host.Close() })
	return h, host
}

// startAgentTerm calls the host from another goroutine, as the agent's
// terminal host (package main) does, and pumps the app until the tab is in
// the pane.
func startAgentTerm(t *testing.T, h *harness, host *terminal.AgentTerminals, c terminal.AgentCommand) *terminal.Terminal {
	t.Helper()
	type res struct {
		term *terminal.Terminal
		err  error
	}
	done := make(chan res, 1)
	go func() {
		term, err := host.Start(c)
		done <- res{term, err}
	}()
	var r res
	h.pumpUntil("the agent's tab", func() bool {
		select {
		case r = <-done:
		default:
		}
		return r.term != nil && paneHas(h, terminal.AgentTabPrefix+c.ID)
	})
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.term
}

func paneHas(h *harness, id string) bool {
	for _, x := range h.app.panes.pane.Terminals() {
		if x.ID == id {
			return true
		}
	}
	return false
}

func paneTab(h *harness, id string) *terminal.Terminal {
	for _, x := range h.app.panes.pane.Terminals() {
		if x.ID == id {
			return x
		}
	}
	return nil
}

func waitExit(t *testing.T, term *terminal.Terminal) {
	t.Helper()
	select {
	case <-term.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not end")
	}
}

// An agent's command runs in a tab named after its tool call, else its
// command line, and the app says where it runs; the tab is renamed after
// the tool item that shows it, and its text can be captured as a
// terminal-excerpt chip. (What the agent reads of it: package main's
// TestAgentTerminalOutput.)
func TestAgentTerminalTab(t *testing.T) {
	h, host := openWithTerms(t)
	term := startAgentTerm(t, h, host, terminal.AgentCommand{ID: "term-1", Name: "Run the tests", Command: "printf 'first\\nsecond é\\n'; exit 3"})
	if tab := paneTab(h, "agent-term-1"); tab == nil || tab != term || tab.Label != "agent: Run the tests" {
		t.Fatalf("tab %+v", tab)
	}
	if !strings.Contains(h.app.Toast(), "ctrl+t shows it") {
		t.Errorf("no toast says where the command runs: %q", h.app.Toast())
	}
	waitExit(t, term)
	if _, code := term.Exited(); code != 3 {
		t.Fatalf("exit code %d", code)
	}
	cut := startAgentTerm(t, h, host, terminal.AgentCommand{ID: "term-2", Command: "printf", Args: []string{"abcé"}})
	if tab := paneTab(h, "agent-term-2"); tab == nil || tab != cut || tab.Label != "agent: printf abcé" {
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
	if h.app.panes.pane.Active().ID != "agent-term-1" {
		t.Fatalf("shown tab %s", h.app.panes.pane.Active().ID)
	}
	h.press("ctrl+space", "g", "y")
	h.pumpUntil("the excerpt chip", func() bool { return len(h.app.ed.Draft().Records()) == 1 })
	rec, ok := h.app.ed.Draft().Records()[0].(*contextref.TerminalRecord)
	if !ok || !strings.Contains(rec.Text, "first") || !strings.Contains(rec.Label, "npm test") {
		t.Fatalf("captured %+v", h.app.ed.Draft().Records()[0])
	}
}

// A released tab is marked released, and past terminal.KeepReleased released tabs
// the oldest go. (Kill and Release as the agent sees them: package main's
// TestAgentTerminalKillRelease.)
func TestAgentTerminalRelease(t *testing.T) {
	h, host := openWithTerms(t)
	term := startAgentTerm(t, h, host, terminal.AgentCommand{ID: "term-1", Command: "echo started; exec sleep 30"})
	host.Released(term.ID)
	h.pumpUntil("the release", func() bool { return h.app.panes.tabs.Len() == 1 && h.app.panes.tabs.Released() == 1 })
	for i := 2; i <= terminal.KeepReleased+2; i++ {
		x := startAgentTerm(t, h, host, terminal.AgentCommand{ID: "term-" + itoaTest(i), Command: "true"})
		host.Released(x.ID)
	}
	h.pumpUntil("the oldest released tabs gone", func() bool { return len(h.app.panes.pane.Terminals()) == terminal.KeepReleased })
	if paneHas(h, "agent-term-1") || paneHas(h, "agent-term-2") || !paneHas(h, "agent-term-6") {
		var ids []string
		for _, x := range h.app.panes.pane.Terminals() {
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
	h.pumpUntil("the sign-in prompt", func() bool { return h.app.OverlayScope() == keymap.ScopeAsk })
	h.press("enter")
	h.pumpUntil("the login's tab", func() bool { return paneHas(h, "signin-1") && h.focus() == paneTerminal })
	tab := paneTab(h, "signin-1")
	h.pumpUntil("the login's output", func() bool { return strings.Contains(strings.Join(tab.Snapshot(5).Lines, "\n"), "logging in") })
	if tab.Label != "sign in: Log in" || h.app.panes.pane.Active() != tab {
		t.Fatalf("tab %q shown %v", tab.Label, h.app.panes.pane.Active() == tab)
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
