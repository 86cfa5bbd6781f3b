package review

import (
	"context"
	"os"
	"path/filepath"
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
