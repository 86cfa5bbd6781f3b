package main

import (
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chipchat/chipchat/internal/hostileagent"
)

// Issue 23 item 1 on the real binary: internal/hostileagent (the SDK's
// agent side, attacking its client) asks chipchat in tmux for what it must
// refuse; the test reads what the user sees, what reached the disk and
// chipchat's peak memory.

// TestBoundaryHostileAgentProcess is internal/hostileagent for these
// tests; it does nothing in a normal run.
func TestBoundaryHostileAgentProcess(t *testing.T) {
	if os.Getenv(hostileagent.Env) != "1" {
		return
	}
	hostileagent.Main()
	os.Exit(0)
}

// hostilePrompt is ops as the prompt the hostile agent reads.
func hostilePrompt(t *testing.T, ops ...hostileagent.Op) string {
	t.Helper()
	b, err := json.Marshal(ops)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A 60 MB read of random bytes, the same size of text from its second
// line, a FIFO no one writes to and a write of a
// git hook, in one turn: each is refused at once with a notice the user
// reads, nothing reaches the disk, the turn ends, and chipchat's VmHWM
// stays far from the 60 MB file (it was 954 MB before os.Root and the
// read cap).
func TestEndToEndBoundaryHostileReads(t *testing.T) {
	a, p := startSelfAgent(t, "TestBoundaryHostileAgentProcess", "", hostileagent.Env+"=1")
	pid := a.pid()
	big := make([]byte, 60<<20)
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(p.proj, "big.bin"), string(big))
	big = nil
	// 60 MB of text read from its second line: streamed, refused once past
	// the cap.
	line := strings.Repeat("a line of log text, <escaped> & \"quoted\" in JSON\n", 1)
	writeFile(t, filepath.Join(p.proj, "big.log"), strings.Repeat(line, (60<<20)/len(line)))
	if err := syscall.Mkfifo(filepath.Join(p.proj, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(p.proj, ".git", "config"), "[core]\n")
	two := 2
	before := peakRSS(t, pid)
	a.text(hostilePrompt(t,
		hostileagent.Op{Op: "read", Path: filepath.Join(p.proj, "big.bin")},
		hostileagent.Op{Op: "read", Path: filepath.Join(p.proj, "big.log"), Line: &two},
		hostileagent.Op{Op: "read", Path: filepath.Join(p.proj, "pipe")},
		hostileagent.Op{Op: "write", Path: filepath.Join(p.proj, ".git", "hooks", "pre-commit"), Content: "#!/bin/sh\ntouch pwned\n"},
	))
	a.keys("Enter")
	scr := a.waitFor("refused the agent's read: big.bin is 60 MiB", "refused the agent's read: the lines asked for of big.log come to more than", "refused the agent's read: pipe is a named pipe (FIFO)",
		"refused the agent's write: .git/hooks/pre-commit is inside .git", "enter send")
	hwm := peakRSS(t, pid)
	t.Logf("VmHWM %d MB before the turn, %d MB after refusing a 60 MB read", before>>20, hwm>>20)
	if hwm > before+40<<20 {
		t.Errorf("refusing a 60 MB read took VmHWM from %d MB to %d MB:\n%s", before>>20, hwm>>20, scr)
	}
	if _, err := os.Lstat(filepath.Join(p.proj, ".git", "hooks")); err == nil {
		t.Errorf("the agent's write made .git/hooks")
	}
	a.keys("C-q")
	a.waitFor("EXITED=0")
}
