package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// endedPID is the pid of a process that ran and ended.
func endedPID(t *testing.T) int {
	t.Helper()
	c := exec.Command(os.Args[0], "-test.run=^$")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return c.ProcessState.Pid()
}

// waitGone polls until no file matches pattern.
func waitGone(t *testing.T, what, pattern string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m, _ := filepath.Glob(pattern)
		if len(m) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s is still there: %v", what, m)
		}
		time.Sleep(20 * time.Millisecond) // the polling pace
	}
}

// childOf is the pid of a child process of pid whose command line holds
// word.
func childOf(t *testing.T, pid int, word string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		child := findProcess(func(args []string, ppid int) bool {
			return ppid == pid && strings.Contains(strings.Join(args, " "), word)
		})
		if child != 0 {
			return child
		}
		if time.Now().After(deadline) {
			t.Fatalf("no child of %d running %q", pid, word)
		}
		time.Sleep(20 * time.Millisecond) // the polling pace
	}
}

// The panes socket goes the moment SIGHUP or SIGTERM arrives; chipchat
// then exits. (That a killed chipchat's socket goes at the next start is
// openPanes' own: main's TestListenPanesRemovesStaleSockets.)
func TestEndToEndSignalRemovesPanesSocket(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			root := t.TempDir()
			proj, home, data, run := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data"), filepath.Join(root, "run")
			writeFile(t, filepath.Join(proj, "README"), "x\n")
			a := startChipchat(t, proj, home, data, "agent = \"acp:sleep 600\"\n", "XDG_RUNTIME_DIR="+run)
			pid := a.pid()
			own := filepath.Join(run, "chipchat", "panes-"+strconv.Itoa(pid)+".sock")
			if _, err := os.Stat(own); err != nil {
				t.Fatalf("no panes socket: %v", err)
			}
			if err := syscall.Kill(pid, sig); err != nil {
				t.Fatal(err)
			}
			waitGone(t, "the panes socket", own)
			a.waitFor("EXITED=")
		})
	}
}

// The pager's file: one a killed chipchat left is removed at start, and
// the open pager's goes the moment SIGHUP arrives, while the pager still
// runs.
func TestEndToEndSignalRemovesPagerFile(t *testing.T) {
	root := t.TempDir()
	proj, home, data, tmp := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data"), filepath.Join(root, "tmp")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(tmp, "chipchat-pager-"+strconv.Itoa(endedPID(t))+"-1.txt")
	writeFile(t, stale, "old reply\n")
	s := startChipchat(t, proj, home, data, "agent = \"exec:printf 'the reply to %s\\\\n' page\"\n", "TMPDIR="+tmp, "PAGER=tail -f")
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the pager file of a chipchat no longer running is still there: %v", err)
	}
	pid := s.pid()
	s.text("go")
	s.keys("Enter")
	s.waitFor("the reply to page") // the header shows the command, which does not hold the reply's words
	s.keys("Tab")
	s.waitFor("o open")
	s.keys("Down") // the reply
	s.keys("o")
	pager := childOf(t, pid, "tail")
	pattern := filepath.Join(tmp, "chipchat-pager-"+strconv.Itoa(pid)+"-*.txt")
	if m, _ := filepath.Glob(pattern); len(m) != 1 {
		t.Fatalf("the pager's file: %v", m)
	}
	if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitGone(t, "the pager's file", pattern)
	// The pager may have ended with chipchat already (it shares the
	// terminal's hang-up); if not, end it so chipchat can exit.
	if err := syscall.Kill(pager, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Fatal(err)
	}
	s.waitFor("EXITED=")
}
