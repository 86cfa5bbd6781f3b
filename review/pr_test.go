package review

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeGH writes a gh script into a directory put first on PATH.
func fakeGH(t *testing.T, script string) {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

const prJSON = `{"number":42,"title":"Make it \u003cfast\u003e","url":"https://github.com/o/r/pull/42","headRefName":"topic","baseRefName":"main","state":"OPEN","isDraft":true}`

func TestPullRequestFromGH(t *testing.T) {
	fakeGH(t, `[ "$1 $2 $3" = "pr view --json" ] || exit 3
[ "$4" = "number,title,url,headRefName,baseRefName,state,isDraft" ] || exit 4
echo '`+prJSON+`'
`)
	pr := PullRequest(context.Background(), t.TempDir(), "", 0)
	if pr == nil {
		t.Fatal("no pull request")
	}
	if pr.Number != 42 || pr.Title != "Make it <fast>" || pr.HeadBranch != "topic" || pr.BaseBranch != "main" || pr.State != "open" || !pr.IsDraft || !strings.HasSuffix(pr.URL, "/42") {
		t.Fatalf("%+v", pr)
	}
}

func TestPullRequestAbsent(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"no pull request": "echo 'no pull requests found for branch \"x\"' >&2; exit 1\n",
		"signed out":      "echo 'To get started with GitHub CLI, please run:  gh auth login' >&2; exit 4\n",
		"garbage":         "echo '{nope'\n",
		"bad state":       `echo '{"number":1,"title":"t","url":"u","headRefName":"h","baseRefName":"b","state":"WEIRD","isDraft":false}'` + "\n",
		"number zero":     `echo '{"number":0,"title":"t","url":"u","headRefName":"h","baseRefName":"b","state":"OPEN","isDraft":false}'` + "\n",
	}
	for name, script := range cases {
		t.Run(name, func(t *testing.T) {
			fakeGH(t, script)
			if pr := PullRequest(context.Background(), dir, "", 0); pr != nil {
				t.Fatalf("%+v", pr)
			}
		})
	}
	t.Run("not installed", func(t *testing.T) {
		if pr := PullRequest(context.Background(), dir, filepath.Join(dir, "no-such-gh"), 0); pr != nil {
			t.Fatal(pr)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		// gh hangs (offline); the call gives up after its timeout, and a
		// child holding the pipe does not keep it waiting.
		fakeGH(t, "sleep 30 &\nexec sleep 30\n")
		start := time.Now()
		if pr := PullRequest(context.Background(), dir, "", 100*time.Millisecond); pr != nil {
			t.Fatal(pr)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("took %v", d)
		}
	})
}

// The pane asks gh when it opens; comments written after carry the
// snapshot.
func TestPaneRecordsCarryPullRequest(t *testing.T) {
	dir := modifiedRepo(t)
	fakeGH(t, "echo '"+prJSON+"'\n")
	m := New(Options{ProjectDir: dir, NewID: func() string { return "c1" }})
	m.SetSize(100, 30)
	run(m, m.Init())
	if m.PullRequest() == nil || m.PullRequest().Number != 42 {
		t.Fatalf("pane PR %+v", m.PullRequest())
	}
	if !strings.Contains(plainView(m), "#42 open draft") {
		t.Fatalf("header:\n%s", plainView(m))
	}
	press(m, "c")
	typeText(m, "x")
	msgs := press(m, "enter")
	rec := msgs[0].(CommentMsg).Record
	if rec.PullRequest == nil || rec.PullRequest.Number != 42 || rec.PullRequest.State != "open" {
		t.Fatalf("record PR %+v", rec.PullRequest)
	}
}

// A pane whose git runs elsewhere (Git.Exec: a remote project's) asks gh
// there too: the same argv through Exec, in the project's directory, with
// gh's quiet settings and safegit's; nothing runs here.
func TestPullRequestThroughExec(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "remote-gh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n[ \"$GH_PROMPT_DISABLED\" = 1 ] || exit 5\necho '"+prJSON+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir()) // no gh here
	var gotDir string
	var gotArgv, gotEnv []string
	g := Git{Exec: func(ctx context.Context, d string, argv, env []string) (*exec.Cmd, error) {
		gotDir, gotArgv, gotEnv = d, argv, env
		cmd := exec.CommandContext(ctx, script, argv[1:]...)
		cmd.Env = append(os.Environ(), env...)
		return cmd, nil
	}}
	pr := g.PullRequest(context.Background(), "/srv/app", "", 0)
	if pr == nil || pr.Number != 42 {
		t.Fatalf("pull request through Exec: %+v", pr)
	}
	if gotDir != "/srv/app" || strings.Join(gotArgv, " ") != "gh pr view --json number,title,url,headRefName,baseRefName,state,isDraft" {
		t.Fatalf("Exec got dir %q argv %q", gotDir, gotArgv)
	}
	if !slices.Contains(gotEnv, "GH_PROMPT_DISABLED=1") || !slices.ContainsFunc(gotEnv, func(kv string) bool { return strings.HasPrefix(kv, "GIT_CONFIG_") }) {
		t.Fatalf("Exec env %q lacks gh's or safegit's settings", gotEnv)
	}
	// Exec failing to start is no pull request, and no error.
	g.Exec = func(context.Context, string, []string, []string) (*exec.Cmd, error) {
		return nil, errors.New("no master")
	}
	if pr := g.PullRequest(context.Background(), "/srv/app", "", 0); pr != nil {
		t.Fatal(pr)
	}
}
