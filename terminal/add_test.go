package terminal

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// A terminal started elsewhere (an agent's command) joins the pane as a tab
// without taking the view, sees Env, reports its end on Done, and with
// NoRestart a key after the exit does not run it again; Remove takes it
// out and keeps the shown tab shown.
func TestPaneAddShowRemove(t *testing.T) {
	p := NewPane(t.TempDir())
	p.SetSize(40, 6)
	mine := NewTerminal("term-1", "Terminal 1", 40, 5, 100)
	p.terms = []*Terminal{mine}

	ag := NewTerminal("agent-term-1", "agent: echo", 10, 3, 100)
	ag.Env = []string{"CHIPCHAT_ADD_TEST=from-env"}
	ag.NoRestart = true
	if ag.Done() != nil {
		t.Fatal("Done before Start should be nil")
	}
	if err := ag.Start(t.TempDir(), "sh", "-c", `printf '%s\n' "$CHIPCHAT_ADD_TEST"; kill -TERM $$`); err != nil {
		t.Fatal(err)
	}
	if cmd := p.Add(ag); cmd == nil {
		t.Fatal("Add returned no listening command")
	}
	if p.Active() != mine {
		t.Fatal("Add took the view from the user's terminal")
	}
	var cols, rows int
	ag.Do(func(s *Screen) { cols, rows = s.Size() })
	if cols != 40 || rows != 5 {
		t.Fatalf("added terminal is %dx%d, want the pane's 40x5", cols, rows)
	}
	select {
	case <-ag.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done was not closed after the program exited")
	}
	if sig := ag.ExitSignal(); sig != "terminated" {
		t.Errorf("ExitSignal = %q, want terminated", sig)
	}
	snap := ag.Snapshot(5)
	if !strings.Contains(strings.Join(snap.Lines, "\n"), "from-env") {
		t.Errorf("Env did not reach the program: %q", snap.Lines)
	}
	if !p.Show("agent-term-1") || p.Active() != ag {
		t.Fatal("Show did not show the added tab")
	}
	p.Focused = true
	press(p, tea.KeyPressMsg{Code: 'x', Text: "x"})
	if ag.Running() {
		t.Fatal("a key restarted a NoRestart terminal")
	}
	if p.Show("nope") {
		t.Fatal("Show of an unknown id")
	}
	p.Next(1) // back to the user's terminal
	if got := p.Remove("agent-term-1"); got != ag {
		t.Fatalf("Remove returned %v", got)
	}
	if p.Active() != mine || len(p.Terminals()) != 1 {
		t.Fatalf("after Remove: active %v, %d tabs", p.Active(), len(p.Terminals()))
	}
	if p.Remove("agent-term-1") != nil {
		t.Fatal("Remove of a removed tab")
	}
	ag.Close()
}
