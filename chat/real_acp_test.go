//go:build unix

package chat

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/internal/acpagents"
	"github.com/chipchat/chipchat/internal/fakemodel"
	"github.com/chipchat/chipchat/message"
)

// TestRealAgentsEscSettlesTheCall drives chat with the ACP backend against
// the real Codex and Gemini CLI (internal/acpagents, each on a fake model
// server; only with CHIPCHAT_REAL_AGENTS=1): esc on the edit's permission
// prompt leaves no pending or running item after the turn, stored or
// reopened (as after a restart), and the question is in the call's item.
func TestRealAgentsEscSettlesTheCall(t *testing.T) {
	acpagents.Each(t, realEscSettles, "codex", "gemini")
}

func realQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=/.,:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// realAgent is chat on the ACP backend against the real agent ag, on a
// fake model server, in a project holding notes.txt and README.md.
type realAgent struct {
	*env
	srv   *fakemodel.Server
	files acpagents.Files
	dirs  acpagents.Dirs
}

func newRealAgent(t *testing.T, ag acpagents.Agent, prepare func(project string)) *realAgent {
	t.Helper()
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
	if prepare != nil {
		prepare(d.Project)
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
	return &realAgent{env: e, srv: srv, files: files, dirs: d}
}

func realEscSettles(t *testing.T, ag acpagents.Agent) {
	r := newRealAgent(t, ag, nil)
	e, srv, files := r.env, r.srv, r.files
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

// TestRealAgentsReviewReachesTheAgent: Codex and opencode advertise their
// own /review (issue 22 item 5): typed in chipchat it is the agent's
// command (chipchat's is /chipchat:review then), it reaches the agent as
// its command, and the agent's review request reaches the model server.
func TestRealAgentsReviewReachesTheAgent(t *testing.T) {
	acpagents.Each(t, realReview, "codex", "opencode")
}

// realTurn sends text and waits for its reply's end, answering sign-ins.
func (r *realAgent) turn(t *testing.T, text string) ReplyFinished {
	t.Helper()
	r.send(text)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	for {
		evs := r.s.Wait(ctx)
		if evs == nil {
			t.Fatalf("the turn of %q did not end; model requests:\n%s", text, r.srv.Summary())
		}
		for _, ev := range evs {
			switch ev := ev.(type) {
			case PermissionAsked:
				r.s.AnswerPermission(ev.ID, PermissionAnswer{Outcome: "rejected"})
			case SignInAsked:
				r.s.AnswerSignIn(ev.ID, "")
			case ReplyFinished:
				return ev
			}
		}
	}
}

func realReview(t *testing.T, ag acpagents.Agent) {
	r := newRealAgent(t, ag, nil)
	// Codex tells its commands during the first turns.
	for i := 0; i < 3 && !r.s.Info(r.thread.ID).AgentServes("review"); i++ {
		r.turn(t, "Please answer "+acpagents.MarkPing1)
	}
	info := r.s.Info(r.thread.ID)
	if !info.AgentServes("review") {
		t.Fatalf("%s never advertised /review: %+v", ag.Name, info.Commands)
	}
	n := len(r.srv.Exchanges())
	fin := r.turn(t, "/review")
	if fin.Status != message.StatusDone || fin.Err != nil {
		t.Fatalf("/review ended %s: %v", fin.Status, fin.Err)
	}
	ms := r.messages()
	if user := ms[len(ms)-2]; user.Role != message.RoleUser || strings.TrimSpace(user.Text) != "/review" {
		t.Errorf("the prompt stored is %s %q, not /review", user.Role, user.Text)
	}
	reviewed := false
	var seen []string
	for _, x := range r.srv.Exchanges()[n:] {
		texts := append([]string{x.System}, x.UserTexts()...)
		for _, m := range x.Messages {
			if m.Role == "system" {
				texts = append(texts, m.Text)
			}
		}
		for _, s := range texts {
			reviewed = reviewed || strings.Contains(s, ag.Review)
		}
		seen = append(seen, firstN(strings.Join(texts, " | "), 400))
	}
	if !reviewed {
		t.Errorf("no model request after /review carries %s's review prompt %q; requests:\n%s", ag.Name, ag.Review, strings.Join(seen, "\n"))
	}
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
