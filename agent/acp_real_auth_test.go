//go:build unix

package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/internal/acpagents"
)

// TestACPRealAgentTerminalAuthStableShape: offered only the stable
// clientCapabilities.auth.terminal (no "terminal-auth" _meta), Claude's
// adapter lists its logins as methods of type "terminal" with args, and
// chipchat's sign-in runs the agent's own command with those args and the
// method's env. Only with CHIPCHAT_REAL_AGENTS=1.
func TestACPRealAgentTerminalAuthStableShape(t *testing.T) {
	ag, err := acpagents.Find("claude")
	if err != nil {
		t.Fatal(err)
	}
	acpagents.Need(t, ag)
	d, err := acpagents.NewDirs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	env := d.Env([]string{"IS_SANDBOX=1"})
	p, err := acpagents.Start(ctx, ag.Argv, d.Project, env, acpagents.NewClient(d.Project), acp.ClientCapabilities{Auth: acp.AuthCapabilities{Terminal: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	a := &ACP{command: strings.Join(ag.Argv, " ")}
	proc := &acpProc{env: []string{"X=1"}, dir: d.Project}
	var found []string
	for _, m := range p.Init.AuthMethods {
		if m.Terminal == nil {
			continue
		}
		if len(m.Terminal.Args) == 0 {
			t.Errorf("terminal method %s has no args: %+v", m.Terminal.Id, m.Terminal)
		}
		if _, meta := m.Terminal.Meta["terminal-auth"]; meta {
			t.Errorf("the adapter sent the _meta shape though it was not offered: %+v", m.Terminal.Meta)
		}
		o := a.authOption(m, proc)
		want := a.command
		for _, arg := range m.Terminal.Args {
			want += " " + acpShellQuote(arg)
		}
		if o.Kind != AuthTerminal || o.Terminal == nil || o.Terminal.Command != "sh" || len(o.Terminal.Args) != 2 || o.Terminal.Args[1] != want ||
			o.Terminal.Dir != d.Project || !strings.Contains(strings.Join(o.Terminal.Env, " "), "X=1") {
			t.Errorf("method %s runs %+v, want sh -c %q", m.Terminal.Id, o.Terminal, want)
		}
		found = append(found, m.Terminal.Id+": "+strings.Join(m.Terminal.Args, " "))
	}
	if len(found) == 0 {
		t.Fatalf("no terminal method among %+v", p.Init.AuthMethods)
	}
	t.Logf("terminal methods: %s", strings.Join(found, "; "))
}
