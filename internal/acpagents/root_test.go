package acpagents

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/internal/fakemodel"
)

// As root without IS_SANDBOX=1, Claude Code works in its default mode but
// withholds bypassPermissions (it refuses to skip permissions as root):
// the mode is not offered and session/set_mode refuses it.
func TestRealAgentClaudeAsRootWithoutSandbox(t *testing.T) {
	gate(t)
	if os.Getuid() != 0 {
		t.Skip("only as root: Claude Code refuses root without IS_SANDBOX=1")
	}
	a, err := Find("claude")
	if err != nil {
		t.Fatal(err)
	}
	if !a.Available() {
		t.Skipf("%s is not installed (npm install -g %s; .ci/run does)", a.Binary, a.Package)
	}
	d, err := NewDirs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv := fakemodel.New(a.Provider, fakemodel.Script(fakemodel.Reply{Text: ReplyAux}))
	defer srv.Close()
	extra, err := a.Setup(d, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, e := range extra {
		if !strings.HasPrefix(e, "IS_SANDBOX=") {
			env = append(env, e)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := Start(ctx, a.Argv, d.Project, d.Env(env), NewClient(d.Project), acp.ClientCapabilities{})
	if err != nil {
		t.Logf("initialize failed: %v", err)
		return
	}
	defer p.Stop()
	sess, err := p.Conn.NewSession(ctx, acp.NewSessionRequest{Cwd: d.Project, McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v; stderr %s", err, lastLines(p.Stderr(), 10))
	}
	// The default mode runs as root.
	if _, _, err := p.Prompt(ctx, sess.SessionId, acp.TextBlock("hello "+MarkPing1)); err != nil {
		t.Fatalf("default mode as root: %v", err)
	}
	// Bypassing permissions as root is what Claude Code refuses.
	if sess.Modes != nil {
		for _, m := range sess.Modes.AvailableModes {
			if m.Id == "bypassPermissions" {
				t.Errorf("bypassPermissions is offered to root without IS_SANDBOX=1")
			}
		}
	}
	_, err = p.Conn.SetSessionMode(ctx, acp.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "bypassPermissions"})
	if err == nil {
		t.Fatalf("session/set_mode bypassPermissions succeeded as root without IS_SANDBOX=1")
	}
	t.Logf("set_mode bypassPermissions: %v", firstLine(err.Error()))
}
