package review

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/safegit/safegittest"
)

// TestNoRepositoryProgramRuns: in a repository whose config, hooks and
// attributes name a marker-writing program for everything that can run
// one (safegittest), the pane loads every comparison, asks gh (whose git
// calls get the settings), takes a comment with its sourceRevision, and
// checks it for staleness: no program ran.
func TestNoRepositoryProgramRuns(t *testing.T) {
	r := safegittest.New(t)
	r.Arm(t)
	// gh runs git itself, as the real one does to find the branch.
	fakeGH(t, "git rev-parse --show-toplevel >/dev/null; git status --porcelain >/dev/null; git diff HEAD >/dev/null 2>&1\n"+
		"git log -1 -p >/dev/null 2>&1\necho '"+prJSON+"'\n")
	ctx := context.Background()
	for _, cmp := range []Comparison{{Kind: WorkingTree}, {Kind: Staged}, {Kind: AgainstRef, Ref: "topic"}} {
		d, err := (Git{}).Load(ctx, r.Dir, cmp)
		if err != nil {
			t.Fatalf("%s: %v", cmp.Title(), err)
		}
		var names []string
		for _, f := range d.Files {
			names = append(names, f.NewPath)
		}
		want := "clean.txt"
		if cmp.Kind == Staged {
			want = "staged.txt"
		}
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("%s: files %q, want %s among them", cmp.Title(), names, want)
		}
		if ran := r.Ran(); len(ran) > 0 {
			t.Fatalf("loading %s ran %q", cmp.Title(), ran)
		}
	}
	if h := (Git{}).Head(ctx, r.Dir); h != r.Head {
		t.Errorf("Head = %q, want %s", h, r.Head)
	}

	m := New(Options{ProjectDir: r.Dir, NewID: func() string { return "c1" }})
	m.SetSize(100, 30)
	run(m, m.Init())
	if m.PullRequest() == nil || m.PullRequest().Number != 42 {
		t.Fatalf("pane PR %+v", m.PullRequest())
	}
	press(m, "c")
	typeText(m, "look")
	msgs := press(m, "enter")
	if len(msgs) != 1 {
		t.Fatalf("messages %#v", msgs)
	}
	rec := msgs[0].(CommentMsg).Record
	if rec.SourceRevision == nil || *rec.SourceRevision != r.Head {
		t.Errorf("sourceRevision %v, want %s", rec.SourceRevision, r.Head)
	}
	if err := MarkStale(r.Dir, rec); err != nil {
		t.Fatal(err)
	}
	if ran := r.Ran(); len(ran) > 0 {
		t.Fatalf("the pane, gh, the comment ran %q", ran)
	}
	// The control: the same gh with the environment as it was runs them.
	gh := exec.Command(filepath.Join(filepath.SplitList(os.Getenv("PATH"))[0], "gh"))
	gh.Dir = r.Dir
	_ = gh.Run()
	if len(r.Ran()) == 0 {
		t.Error("gh without chipchat's settings ran nothing: the test proves nothing")
	}
}
