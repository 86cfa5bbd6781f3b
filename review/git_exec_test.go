package review

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

// A pane whose git runs elsewhere (Git.Exec, a remote project's) shows
// the same diff as git here: every call goes through Exec with safegit's
// arguments and settings, the untracked file read there too.
func TestLoadThroughExec(t *testing.T) {
	dir := modifiedRepo(t)
	var mu sync.Mutex
	var calls [][]string
	var envs [][]string
	there := func(ctx context.Context, d string, argv, env []string) (*exec.Cmd, error) {
		mu.Lock()
		calls, envs = append(calls, argv), append(envs, env)
		mu.Unlock()
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Dir = d
		// A clean environment, as on another machine.
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
		return cmd, nil
	}
	want, err := Git{}.Load(context.Background(), dir, Comparison{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Git{Exec: there}.Load(context.Background(), dir, Comparison{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Head != want.Head || len(got.Files) != len(want.Files) {
		t.Fatalf("through Exec: head %q, %d files; here: %q, %d files", got.Head, len(got.Files), want.Head, len(want.Files))
	}
	for i := range want.Files {
		g, w := got.Files[i], want.Files[i]
		if g.Path() != w.Path() || len(g.Hunks) != len(w.Hunks) || g.Hunks[0].Header() != w.Hunks[0].Header() {
			t.Errorf("file %d: %s %d hunks, want %s %d hunks", i, g.Path(), len(g.Hunks), w.Path(), len(w.Hunks))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	sawHead := false
	for i, argv := range calls {
		switch argv[0] {
		case "git":
			if argv[1] != "--no-pager" || !slices.ContainsFunc(envs[i], func(e string) bool { return strings.HasPrefix(e, "GIT_CONFIG_COUNT=") }) {
				t.Errorf("git call %q with env %q", argv, envs[i])
			}
		case "head":
			sawHead = true
		default:
			t.Errorf("call %q", argv)
		}
	}
	if !sawHead {
		t.Errorf("the untracked file was not read through Exec: %q", calls)
	}
}
