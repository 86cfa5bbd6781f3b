package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/sshtest"
)

// reconnectAgent says where it runs; a prompt with "hang" in it hangs
// (the turn is running when the master dies), any other is echoed.
const reconnectAgent = `exec:p=$(cat); case "$p" in *hang*) printf 'hanging now\n'; exec sleep 120;; esac; printf 'pwd=%s got %s\n' "$(pwd)" "$p"`

// The master killed mid-turn (as a dropped network ends it) with sshd gone
// too: the running turn ends and says so, the header says
// "reconnecting to sshtest…" with the next try while attempts fail, the
// draft typed meanwhile stays; once sshd is back chipchat reconnects by
// itself (a new login, "reconnected to sshtest") and the next turn runs
// on the remote.
func TestEndToEndRemoteReconnects(t *testing.T) {
	e := newRemoteEnvWith(t, reconnectAgent)
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
	s.waitForComposer("kept draft")
	t.Logf("SCREEN:\n%s", s.screen())

	e.srv.Restart(t)
	s.waitUntil("the header without reconnecting", func(scr string) bool {
		return !strings.Contains(scr, "reconnecting to")
	})
	if n := e.srv.Logins(); n <= logins {
		t.Errorf("no new login after sshd came back (%d, %d before)", n, logins)
	}
	s.waitForComposer("kept draft")
	for range len("kept draft") {
		s.keys("BSpace")
	}
	s.text("second turn")
	s.keys("Enter")
	s.waitFor("pwd="+e.proj+" got second turn")
	s.keys("C-q")
	s.waitFor("EXITED=0")
}
