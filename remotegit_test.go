package main

import (
	"context"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/safegit"
	"github.com/chipchat/chipchat/internal/safegit/safegittest"
	"github.com/chipchat/chipchat/internal/sshtest"
)

// The review pane's git on a remote project runs none of the hostile
// repository's programs: its filter and diff drivers are listed there and
// turned off, though review's static settings name none. Review's
// commands through the remote host alone (the settings without the
// listing) run the clean filter: the repository catches what is not made
// safe.
func TestRemoteReviewGitRunsNoDriver(t *testing.T) {
	// The repository is under the test's TempDir, which only this user reads.
	rp := openTestRemote(t, sshtest.StartWith(t, sshtest.Options{SameUser: true}))
	r := safegittest.New(t)
	r.Arm(t)
	ctx := context.Background()
	env := append(safegit.StaticEnv(), "LC_ALL=C")
	run := func(exec func(context.Context, string, []string, []string) (interface{ CombinedOutput() ([]byte, error) }, error), args ...string) string {
		t.Helper()
		cmd, err := exec(ctx, r.Dir, append([]string{"git"}, safegit.Args(args...)...), env)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	safe := func(ctx context.Context, dir string, argv, env []string) (interface{ CombinedOutput() ([]byte, error) }, error) {
		return rp.reviewGit(ctx, dir, argv, env)
	}
	plain := func(ctx context.Context, dir string, argv, env []string) (interface{ CombinedOutput() ([]byte, error) }, error) {
		return remoteHost{rp}.Command(ctx, dir, argv, env)
	}
	for _, args := range [][]string{{"diff", "HEAD", "--"}, {"diff", "--cached", "HEAD", "--"}, {"rev-parse", "HEAD"}} {
		out := run(safe, args...)
		if ran := r.Ran(); len(ran) != 0 {
			t.Errorf("git %v on the remote ran %v", args, ran)
			r.Reset(t)
		}
		if args[0] == "diff" && args[1] == "HEAD" && !strings.Contains(out, "+changed") {
			t.Errorf("git diff HEAD on the remote: %q", out)
		}
	}
	run(plain, "diff", "HEAD", "--")
	if ran := strings.Join(r.Ran(), " "); !strings.Contains(ran, "clean") {
		t.Errorf("without the drivers listed the clean filter did not run (%q): the test shows nothing", ran)
	}
}
