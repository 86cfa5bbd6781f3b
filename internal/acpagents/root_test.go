package acpagents

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/internal/fakemodel"
	"github.com/chipchat/chipchat/internal/testenv"
)

// As root without IS_SANDBOX=1, Claude Code works in its default mode but
// withholds bypassPermissions (it refuses to skip permissions as root):
// the mode is not offered and session/set_mode refuses it.
func TestRealAgentClaudeAsRootWithoutSandbox(t *testing.T) {
	gate(t)
	if os.Getuid() != 0 {
		// What Claude Code does as root can only be seen as root; CI runs
		// as root, so there this is a failure.
		testenv.Missing(t, "root: this test runs Claude Code as root without IS_SANDBOX=1 (CI runs as root)")
	}
	a, err := Find("claude")
	if err != nil {
		t.Fatal(err)
	}
	needAgent(t, a)
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
		t.Fatalf("as root without IS_SANDBOX=1 Claude Code should still initialize: %v", err)
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
	// Bypassing permissions as root is what Claude Code refuses: the other
	// modes stay.
	var modes []string
	if sess.Modes != nil {
		for _, m := range sess.Modes.AvailableModes {
			modes = append(modes, string(m.Id))
		}
	}
	checkList(t, "modes as root without IS_SANDBOX=1", modes, []string{"default", "acceptEdits", "plan", "auto"})
	_, err = p.Conn.SetSessionMode(ctx, acp.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "bypassPermissions"})
	if err == nil {
		t.Fatalf("session/set_mode bypassPermissions succeeded as root without IS_SANDBOX=1")
	}
	var re *acp.RequestError
	if !errors.As(err, &re) || re.Code != -32602 || !strings.Contains(err.Error(), "Mode bypassPermissions is not available in this session") {
		t.Errorf("set_mode bypassPermissions: %v; want -32602 \"Mode bypassPermissions is not available in this session\"", err)
	}
}
