package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/sshtest"
)

// reconnectAgent says where it runs; a prompt with "hang" in it hangs
// (the turn is running when the master dies), any other is echoed.
// Hanging, it holds $HOME/term-seen open when the test made it (a FIFO
// whose end of file says the agent ended).
const reconnectAgent = `exec:p=$(cat); case "$p" in *hang*) [ -p "$HOME/term-seen" ] && exec 3>"$HOME/term-seen"; printf 'hanging now\n'; while :; do sleep 1; done;; esac; printf 'pwd=%s got %s\n' "$(pwd)" "$p"`

// The master killed mid-turn (as a dropped network ends it) with sshd gone
// too: the running turn ends and says so, the header says
// "reconnecting to sshtest…" with the next try while attempts fail, the
// draft typed meanwhile stays; once sshd is back chipchat reconnects by
// itself (a new login), ends the agent left running on the remote by the
// lost master, and the next turn runs on the remote.
func TestEndToEndRemoteReconnects(t *testing.T) {
	e := newRemoteEnvWith(t, reconnectAgent)
	seen := termSeen(t, e)
	s := startTmuxSize(t, e.command(t, "--remote", "box"), 140, 40)
	s.waitFor("enter send")
	s.text("please hang")
	s.keys("Enter")
	s.waitFor("hanging now", "replying")
	s.text("kept draft")
	s.waitFor("kept draft")
	logins := e.srv.Logins()

	e.srv.Stop(t)
	e.srv.KillMaster(t, filepath.Join(e.run, "chipchat-ssh", "%C"))
	scr := s.waitFor("reconnecting to "+sshtest.HostAlias+"…", "next try in", "enter send")
	if strings.Contains(scr, "replying") {
		t.Fatalf("the turn still runs after the master died:\n%s", scr)
	}
	// The ended turn says why in words, not as ssh's bare exit status.
	s.waitFor("dropped while the command ran")
	s.waitForComposer("kept draft")

	e.srv.Restart(t)
	s.waitUntil("the header without reconnecting", func(scr string) bool {
		return !strings.Contains(scr, "reconnecting to")
	})
	if n := e.srv.Logins(); n <= logins {
		t.Errorf("no new login after sshd came back (%d, %d before)", n, logins)
	}
	// The agent that ran over the lost master is ended on the remote.
	select {
	case got := <-seen:
		if got != "ended<nil>" {
			t.Fatalf("the orphaned agent's trap wrote %q", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the agent of the lost master runs on:\n%s", s.screen())
	}
	s.waitForComposer("kept draft")
	for range len("kept draft") {
		s.keys("BSpace")
	}
	s.text("second turn")
	s.keys("Enter")
	s.waitFor("pwd=" + e.proj + " got second turn")
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// Esc on a turn of a remote exec: agent that neither reads nor writes
// ends it on the remote too (the FIFO it holds ends), not only the local
// ssh.
func TestEndToEndRemoteCancelEndsTheRemoteProcess(t *testing.T) {
	e := newRemoteEnvWith(t, reconnectAgent)
	seen := termSeen(t, e)
	s := startTmuxSize(t, e.command(t, "--remote", "box"), 140, 40)
	s.waitFor("enter send")
	s.text("please hang")
	s.keys("Enter")
	s.waitFor("hanging now", "replying")
	s.keys("Escape")
	s.waitFor("interrupted")
	select {
	case got := <-seen:
		if got != "ended<nil>" {
			t.Fatalf("the remote agent's trap wrote %q", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the remote agent was not signalled after esc:\n%s", s.screen())
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// termSeen makes the FIFO a hanging reconnectAgent holds open, and
// delivers "ended" at its end of file (the agent ended).
func termSeen(t *testing.T, e *remoteEnv) <-chan string {
	t.Helper()
	fifo := filepath.Join(e.srv.Home, "term-seen")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	seen := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the trap opens it to write
		if err != nil {
			seen <- err.Error()
			return
		}
		defer f.Close()
		_, err = io.Copy(io.Discard, f)
		seen <- fmt.Sprint("ended", err)
	}()
	return seen
}
