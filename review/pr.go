package review

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/internal/safegit"
)

// PRTimeout bounds the `gh pr view` call.
const PRTimeout = 3 * time.Second

// PullRequest asks `gh` for the pull request of the branch checked out in
// dir. Any failure — no gh, offline, signed out, no pull request, a
// timeout, output it cannot read — gives nil: the metadata is optional and
// its absence is no error. ghCommand is "gh" when empty; timeout is
// PRTimeout when zero.
func PullRequest(ctx context.Context, dir, ghCommand string, timeout time.Duration) *contextref.PullRequest {
	return Git{}.PullRequest(ctx, dir, ghCommand, timeout)
}

// ghEnv is what gh runs with: no prompt, no update check, no colour, no
// pager, no spinner.
var ghEnv = []string{"GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1", "NO_COLOR=1", "GH_PAGER=cat", "GH_SPINNER_DISABLED=1"}

// PullRequest is the package's PullRequest where g runs its commands: gh
// runs through Exec when set (a remote project's gh, in dir there, with
// safegit's settings for the git it runs), else here.
func (g Git) PullRequest(ctx context.Context, dir, ghCommand string, timeout time.Duration) *contextref.PullRequest {
	if ghCommand == "" {
		ghCommand = "gh"
	}
	if timeout <= 0 {
		timeout = PRTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := []string{"pr", "view", "--json", "number,title,url,headRefName,baseRefName,state,isDraft"}
	var cmd *exec.Cmd
	if g.Exec != nil {
		var err error
		if cmd, err = g.Exec(ctx, dir, append([]string{ghCommand}, args...), append(safegit.StaticEnv(), ghEnv...)); err != nil {
			return nil
		}
	} else {
		cmd = exec.CommandContext(ctx, ghCommand, args...)
		cmd.Dir = dir
		// gh runs git in dir: the git it runs gets chipchat's settings
		// through the environment (safegit.Environ; the list is in doc.go).
		cmd.Env = safegit.Environ(ctx, "", dir, append(os.Environ(), ghEnv...))
	}
	cmd.WaitDelay = 200 * time.Millisecond // a child holding the pipe cannot outlive the timeout
	var out bytes.Buffer
	cmd.Stdout = &limitedWriter{w: &out, n: 1 << 20}
	if err := cmd.Run(); err != nil {
		return nil
	}
	return parsePR(out.Bytes())
}

// parsePR reads gh's JSON; anything outside the record's schema gives nil.
func parsePR(data []byte) *contextref.PullRequest {
	var v struct {
		Number      int64  `json:"number"`
		Title       string `json:"title"`
		URL         string `json:"url"`
		HeadRefName string `json:"headRefName"`
		BaseRefName string `json:"baseRefName"`
		State       string `json:"state"`
		IsDraft     bool   `json:"isDraft"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return nil
	}
	state := strings.ToLower(v.State)
	switch state {
	case "open", "closed", "merged":
	default:
		return nil
	}
	if v.Number < 1 || v.Number > 1<<53-1 {
		return nil
	}
	pr := &contextref.PullRequest{Number: v.Number, Title: v.Title, URL: v.URL,
		HeadBranch: v.HeadRefName, BaseBranch: v.BaseRefName, State: state, IsDraft: v.IsDraft}
	for _, s := range []string{pr.Title, pr.URL, pr.HeadBranch, pr.BaseBranch} {
		if contextref.UTF16Len(s) > 2048 {
			return nil
		}
	}
	return pr
}

// limitedWriter keeps the first n bytes and drops the rest.
type limitedWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		if len(p) > room {
			l.w.Write(p[:room])
		} else {
			l.w.Write(p)
		}
	}
	return len(p), nil
}
