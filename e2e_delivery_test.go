package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/testenv"
)

// End-to-end tests of issue 13 (every chip's payload reaches the model):
// the real binary in tmux.

// logLines writes a 300-line log to paste.
func logLines(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "2026-12-01T10:%02d:00Z worker %d: step %d ok\n", i%60, i%7, i)
	}
	p := filepath.Join(dir, "build.log")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A 300-line log pasted into the composer becomes a pasted-text chip; an
// exec: agent that counts the (non-empty) lines of that chip's fragment on
// its stdin answers 300.
func TestEndToEndPastedLogReachesExecAgent(t *testing.T) {
	testenv.NeedCommands(t, "apt-get install mawk", "awk") // the agent's script
	p := newExecProject(t, `awk '/^<attached_file name="pasted-text-1.txt"/{f=1;next} /^<\/attached_file>/{f=0} f && length($0) > 0 {n++} END{print "counted " n " lines of pasted-text-1.txt"}'`+"\n")
	a := p.start(t)
	a.text("summarize ")
	a.waitFor("summarize")
	a.run("load-buffer", logLines(t, p.root))
	a.run("paste-buffer", "-p", "-t", a.name)
	a.waitFor("long paste kept as pasted-text-1.txt")
	a.keys("Enter")
	a.waitFor("counted 300 lines of pasted-text-1.txt")
	a.keys("C-q")
	a.waitFor("EXITED=0")
}

// The same paste with the echo agent: the reply shows the chip's content
// in its <attached_file> fragment, as the openai harness would send it.
func TestEndToEndPastedLogShownByEcho(t *testing.T) {
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	a := startChipchat(t, proj, home, data, "")
	a.text("summarize ")
	a.waitFor("summarize")
	a.run("load-buffer", logLines(t, root))
	a.run("paste-buffer", "-p", "-t", a.name)
	a.waitFor("long paste kept as pasted-text-1.txt")
	a.keys("Enter")
	// The end of the reply: the fragment's last lines and how it went.
	scr := a.waitFor("worker 6: step 300 ok", "</attached_file>", "pasted-text-1.txt (text/plain, ", "inline as text")
	if strings.Contains(scr, "not available") {
		t.Fatalf("the paste did not reach the agent:\n%s", scr)
	}
	a.keys("C-q")
	a.waitFor("EXITED=0")
}
