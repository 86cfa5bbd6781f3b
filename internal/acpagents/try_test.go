package acpagents

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// StartTrial gives each agent a home of its own under root, pointed at the
// fake model, and an executable script that starts it; the guide names the
// script and the marker words.
func TestTrialWritesTheScriptAndTheGuide(t *testing.T) {
	for _, a := range Agents {
		t.Run(a.Name, func(t *testing.T) {
			project := t.TempDir()
			tr, err := StartTrial(a, t.TempDir(), project)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			st, err := os.Stat(tr.Script)
			if err != nil || st.Mode()&0o111 == 0 {
				t.Fatalf("the script %s: %v, mode %v", tr.Script, err, st.Mode())
			}
			b, _ := os.ReadFile(tr.Script)
			script := string(b)
			for _, want := range []string{"exec env -i", "HOME=" + tr.Dirs.Home, a.Argv[0], `"$@"`} {
				if !strings.Contains(script, want) {
					t.Errorf("the script lacks %q:\n%s", want, script)
				}
			}
			if strings.Contains(script, "HOME="+os.Getenv("HOME")+" ") {
				t.Errorf("the script gives the agent the caller's home:\n%s", script)
			}
			var g bytes.Buffer
			tr.Guide(&g)
			for _, want := range []string{"chipchat --agent acp:" + tr.Script, tr.Server.URL, MarkPing1, MarkSeq, project + "/notes.txt"} {
				if !strings.Contains(g.String(), want) {
					t.Errorf("the guide lacks %q:\n%s", want, g.String())
				}
			}
		})
	}
}

// The script StartTrial writes starts the real agent, which answers from
// the fake model (the README's "try a real agent" step).
func TestTrialScriptReachesTheFakeModel(t *testing.T) {
	gate(t)
	for _, a := range Agents {
		t.Run(a.Name, func(t *testing.T) {
			t.Parallel()
			needAgent(t, a)
			project := t.TempDir()
			tr, err := StartTrial(a, t.TempDir(), project)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Close()
			ctx, cancel := context.WithTimeout(context.Background(), startTimeout+promptTimeout)
			defer cancel()
			client := NewClient(project)
			p, err := Start(ctx, []string{tr.Script}, project, nil, client, acp.ClientCapabilities{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Stop()
			sess, err := p.Conn.NewSession(ctx, acp.NewSessionRequest{Cwd: project, McpServers: []acp.McpServer{}})
			if err != nil {
				t.Fatalf("session/new: %v\nstderr: %s", err, lastLines(p.Stderr(), 30))
			}
			_, evs, err := p.Prompt(ctx, sess.SessionId, acp.TextBlock("Please answer "+MarkPing1))
			if err != nil {
				t.Fatalf("prompt: %v\nstderr: %s", err, lastLines(p.Stderr(), 30))
			}
			if got := TurnText(evs); !strings.Contains(got, ReplyPing1) {
				t.Errorf("the reply %q lacks %q; model requests:\n%s", got, ReplyPing1, tr.Server.Summary())
			}
		})
	}
}
