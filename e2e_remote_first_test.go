package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/sshtest"
)

// clientConfigAsking rewrites the server's client config with identity
// and an empty known_hosts under ssh's default StrictHostKeyChecking
// (ask): a first connection ssh asks about. It returns the known_hosts.
func clientConfigAsking(t *testing.T, srv *sshtest.Server, identity string) string {
	t.Helper()
	known := filepath.Join(srv.Dir, "first_known_hosts")
	writeFile(t, known, "")
	srv.WriteClientConfig(t, srv.ConfigFile, identity, known)
	b, err := os.ReadFile(srv.ConfigFile)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, srv.ConfigFile, string(bytes.ReplaceAll(b, []byte("StrictHostKeyChecking yes"), []byte("StrictHostKeyChecking ask"))))
	return known
}

// A host key not known yet: the app opens with ssh's question in a
// terminal tab, focused; "yes" typed there connects, the tab goes, and
// the turn runs on the remote over the master ssh left.
func TestEndToEndRemoteFirstConnectionAsksInATab(t *testing.T) {
	e := newRemoteEnv(t)
	known := clientConfigAsking(t, e.srv, e.srv.ClientKey)
	s := startTmuxSize(t, e.command(t, "--remote", "box"), 140, 50)
	s.waitFor("Are you sure you want to continue connecting", "the host key of "+sshtest.HostAlias+" is not known yet — answer ssh")
	s.waitFor("connecting to " + sshtest.HostAlias + ": ssh asks in the terminal")
	s.text("yes")
	s.keys("Enter")
	s.waitFor("connected to " + sshtest.HostAlias)
	s.waitUntil("the tab gone", func(scr string) bool { return !strings.Contains(scr, "Are you sure") })
	if b, _ := os.ReadFile(known); !strings.Contains(string(b), "127.0.0.1") {
		t.Errorf("known_hosts after yes: %q", b)
	}
	s.text("first turn")
	s.keys("Enter")
	s.waitFor("home="+e.srv.Home, "pwd="+e.proj)
	if n := e.srv.Logins(); n != 1 {
		t.Errorf("%d logins, want 1: the turn ran over the master the tab opened", n)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// ssh failures no person can answer end chipchat with one line, ssh's
// own words in it: a host that does not resolve, a key the server
// refuses.
func TestEndToEndRemoteFailuresAreOneLine(t *testing.T) {
	e := newRemoteEnv(t)
	s := startTmuxSize(t, e.command(t, "--remote", "no-such-host.invalid:/srv"), 200, 20)
	scr := s.waitFor("EXITED=1")
	oneChipchatLine(t, scr, "remote: no-such-host.invalid: host unknown", "Could not resolve hostname no-such-host.invalid")

	other := filepath.Join(e.srv.Dir, "other_key")
	sshtest.Keygen(t, other)
	e.srv.WriteClientConfig(t, e.srv.ConfigFile, other, e.srv.KnownHosts)
	s = startTmuxSize(t, e.command(t, "--remote", "box"), 200, 20)
	scr = s.waitFor("EXITED=1")
	oneChipchatLine(t, scr, "remote: "+sshtest.HostAlias+": authentication refused", "Permission denied (publickey)")
}

// oneChipchatLine checks the screen holds exactly one line of chipchat's,
// holding each of want.
func oneChipchatLine(t *testing.T, scr string, want ...string) {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(scr, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "EXITED=") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "chipchat: ") {
		t.Fatalf("want one line of chipchat's, the screen is:\n%s", scr)
	}
	for _, w := range want {
		if !strings.Contains(lines[0], w) {
			t.Errorf("the line %q lacks %q", lines[0], w)
		}
	}
}

// Quitting while ssh asks ends chipchat at once and leaves no master.
func TestEndToEndRemoteFirstConnectionQuitWhileAsking(t *testing.T) {
	e := newRemoteEnv(t)
	clientConfigAsking(t, e.srv, e.srv.ClientKey)
	s := startTmuxSize(t, e.command(t, "--remote", "box"), 140, 40)
	s.waitFor("Are you sure you want to continue connecting")
	s.keys("C-q")
	s.waitFor("EXITED=0")
	check := exec.Command("ssh", "-F", e.srv.ConfigFile, "-o", "ControlPath="+filepath.Join(e.run, "chipchat-ssh", "%C"), "-O", "check", sshtest.HostAlias)
	if out, err := check.CombinedOutput(); err == nil {
		t.Fatalf("a master runs after quitting: %s", out)
	}
	if n := e.srv.Logins(); n != 0 {
		t.Errorf("%d logins without an answer", n)
	}
}
