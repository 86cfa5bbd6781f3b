package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The review pane of a remote project asks the remote's gh for the pull
// request (gh runs there, in the project, over the master; a gh on the
// PATH of the remote login shell only — ~/.profile — and none here), and
// its header shows it.
func TestEndToEndRemoteReviewPullRequest(t *testing.T) {
	e := newRemoteEnv(t)
	gitRepo(t, e.proj, map[string]string{"app.py": reviewBefore})
	writeFile(t, filepath.Join(e.proj, "app.py"), reviewAfter)
	bin := filepath.Join(e.srv.Home, "bin")
	writeFile(t, filepath.Join(e.srv.Home, ".profile"), `PATH="$HOME/bin:$PATH"`+"\n")
	writeFile(t, filepath.Join(bin, "gh"), `#!/bin/sh
[ "$1 $2" = "pr view" ] || exit 3
[ -d .git ] || exit 4
echo '{"number":77,"title":"Remote topic","url":"https://github.com/o/r/pull/77","headRefName":"topic","baseRefName":"main","state":"OPEN","isDraft":false}'
`)
	if err := os.Chmod(filepath.Join(bin, "gh"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := startTmux(t, e.command(t, "--remote", "box"))
	s.waitFor("enter send")
	s.text("/review")
	s.keys("Enter")
	s.waitFor("Review  Working tree vs HEAD", "app.py", "#77 open")
	s.keys("C-q")
	s.waitFor("EXITED=0")
}
