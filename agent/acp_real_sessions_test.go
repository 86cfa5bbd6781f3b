//go:build unix

package agent

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/internal/acpagents"
	"github.com/chipchat/chipchat/internal/fakemodel"
)

// TestACPRealAgentSessionsList makes a session with a bare ACP client (a
// session made outside chipchat), then lists the agent's sessions through
// chipchat's backend and opens that one: it is listed with its title, its
// history comes back from session/load, and the next turn goes on in it
// (the model request holds the first turn). Claude Code and Codex; only
// with CHIPCHAT_REAL_AGENTS=1.
func TestACPRealAgentSessionsList(t *testing.T) {
	acpagents.Each(t, realSessionsList, "claude", "codex")
}

func realSessionsList(t *testing.T, ag acpagents.Agent) {
	d, err := acpagents.NewDirs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := acpagents.DefaultFiles(d.Project)
	if err := acpagents.WriteFile(filepath.Join(d.Project, "README.md"), "# test project\n"); err != nil {
		t.Fatal(err)
	}
	srv := fakemodel.New(ag.Provider, acpagents.Responder(ag, files))
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("model requests:\n%s", srv.Summary())
		}
	})
	extra, err := ag.Setup(d, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()

	// Outside chipchat: a bare client makes a session and has one turn.
	bare, err := acpagents.Start(ctx, ag.Argv, d.Project, d.Env(extra), acpagents.NewClient(d.Project), acp.ClientCapabilities{})
	if err != nil {
		t.Fatal(err)
	}
	ns, err := bare.Conn.NewSession(ctx, acp.NewSessionRequest{Cwd: d.Project, McpServers: []acp.McpServer{}})
	if err != nil {
		bare.Stop()
		t.Fatal(err)
	}
	if _, _, err := bare.Prompt(ctx, ns.SessionId, acp.TextBlock("Outside chipchat "+acpagents.MarkPing1)); err != nil {
		bare.Stop()
		t.Fatal(err)
	}
	bare.Stop()

	command := "exec env -i"
	for _, kv := range d.Env(extra) {
		command += " " + acpShellQuote(kv)
	}
	for _, arg := range ag.Argv {
		command += " " + acpShellQuote(arg)
	}
	a, err := NewACP(command, ACPOptions{Dir: d.Project})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	list, err := a.ListSessions(ctx, d.Project)
	if err != nil {
		t.Fatalf("session/list: %v", err)
	}
	var found *AgentSession
	for i := range list {
		if list[i].ID == string(ns.SessionId) {
			found = &list[i]
		}
	}
	if found == nil {
		t.Fatalf("the session made outside chipchat (%s) is not listed: %+v", ns.SessionId, list)
	}
	t.Logf("listed %d sessions; the outside one: %+v", len(list), *found)
	msgs, err := a.ImportSession(ctx, "imported", found.ID, d.Project)
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	var text strings.Builder
	for _, m := range msgs {
		text.WriteString(m.Role + ": " + m.Text + "\n")
	}
	if !strings.Contains(text.String(), acpagents.MarkPing1) || !strings.Contains(text.String(), acpagents.ReplyPing1) {
		t.Errorf("the imported history lacks the outside turn:\n%s", text.String())
	}
	var evs []Event
	err = a.Run(ctx, Turn{ThreadID: "imported", Prompt: "Back in chipchat " + acpagents.MarkPing2, Dir: d.Project, SessionID: found.ID}, func(e Event) {
		evs = append(evs, e)
		if p, ok := e.(Permission); ok {
			p.Reply <- PermissionAnswer{Outcome: "rejected"}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := acpText(evs); !strings.Contains(got, acpagents.ReplyPing2) || strings.Contains(got, acpagents.ReplyPing1) {
		t.Errorf("reply in the imported session %q", got)
	}
	if len(acpOf[SessionStarted](evs)) != 0 {
		t.Errorf("a new session instead of the imported one")
	}
	held := false
	for _, ex := range srv.Exchanges() {
		raw := string(ex.Raw)
		held = held || (strings.Contains(ex.LastUserText(), acpagents.MarkPing2) && strings.Contains(raw, acpagents.ReplyPing1))
	}
	if !held {
		t.Errorf("the model request in the imported session lacks the outside turn")
	}
}
