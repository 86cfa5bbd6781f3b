//go:build unix

package chat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/internal/acpagents"
	"github.com/chipchat/chipchat/internal/fakemodel"
	"github.com/chipchat/chipchat/internal/testenv"
	"github.com/chipchat/chipchat/message"
)

// TestRealAgentsEscSettlesTheCall drives chat with the ACP backend against
// the real Codex and Gemini CLI (internal/acpagents, each on a fake model
// server; only with CHIPCHAT_REAL_AGENTS=1): esc on the edit's permission
// prompt leaves no pending or running item after the turn, stored or
// reopened (as after a restart), and the question is in the call's item.
func TestRealAgentsEscSettlesTheCall(t *testing.T) {
	if os.Getenv(acpagents.EnvGate) != "1" {
		testenv.Missing(t, "the real-agent suite runs only with "+acpagents.EnvGate+"=1 (.ci/run installs the agents from npm and sets it)")
	}
	for _, name := range []string{"codex", "gemini"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ag, err := acpagents.Find(name)
			if err != nil {
				t.Fatal(err)
			}
			if !ag.Available() {
				testenv.Missing(t, fmt.Sprintf("%s is not installed (npm install -g %s; .ci/run does)", ag.Binary, ag.Package))
			}
			realEscSettles(t, ag)
		})
	}
}

func realQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=/.,:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func realEscSettles(t *testing.T, ag acpagents.Agent) {
	d, err := acpagents.NewDirs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := acpagents.DefaultFiles(d.Project)
	if err := acpagents.WriteFile(files.Notes, files.OldLine+"\n"); err != nil {
		t.Fatal(err)
	}
	if err := acpagents.WriteFile(filepath.Join(d.Project, "README.md"), "# test project\n"); err != nil {
		t.Fatal(err)
	}
	srv := fakemodel.New(ag.Provider, acpagents.Responder(ag, files))
	t.Cleanup(srv.Close)
	extra, err := ag.Setup(d, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	command := "exec env -i"
	for _, kv := range d.Env(extra) {
		command += " " + realQuote(kv)
	}
	for _, arg := range ag.Argv {
		command += " " + realQuote(arg)
	}
	backend, err := agent.NewACP(command, agent.ACPOptions{Dir: d.Project})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { backend.Close() })
	e := newEnvWith(t, nil, backend, func(o *Options) { o.Dir = d.Project })
	e.send("Edit notes.txt again: " + acpagents.MarkEditReject)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	asked := 0
	var finished *ReplyFinished
	for finished == nil {
		evs := e.s.Wait(ctx)
		if evs == nil {
			t.Fatalf("the turn did not end; model requests:\n%s", srv.Summary())
		}
		for _, ev := range evs {
			switch ev := ev.(type) {
			case PermissionAsked:
				asked++
				e.s.AnswerPermission(ev.ID, PermissionAnswer{Outcome: "rejected"}) // esc
			case SignInAsked:
				e.s.AnswerSignIn(ev.ID, "")
			case ReplyFinished:
				finished = &ev
			}
		}
	}
	if asked == 0 {
		t.Fatalf("no permission asked; reply %s %v", finished.Status, finished.Err)
	}
	if b, _ := os.ReadFile(files.Notes); strings.Contains(string(b), files.RejectLine) {
		t.Errorf("the rejected edit was made: %q", b)
	}
	stored, reopened := e.toolsOf()
	for name, tools := range map[string]map[string]message.Tool{"stored": stored, "reopened": reopened} {
		if len(tools) == 0 {
			t.Errorf("%s: no tool item", name)
		}
		cancelled := false
		for id, tool := range tools {
			if !message.ToolFinal(tool.Status) {
				t.Errorf("%s: %s is %q after the turn", name, id, tool.Status)
			}
			if tool.Permission != nil && tool.Permission.Outcome == "rejected" {
				cancelled = cancelled || tool.Status == message.ToolCancelled
			}
		}
		if !cancelled {
			t.Errorf("%s: no cancelled call holds the rejected question: %+v", name, tools)
		}
	}
}
