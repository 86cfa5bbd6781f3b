package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/sshtest"
	"github.com/chipchat/chipchat/internal/testenv"
)

// A key with a passphrase: batch mode cannot use it, so the app opens
// with ssh asking for the passphrase in a terminal tab. Three wrong
// answers end that ssh; chipchat asks again in a new tab (the failed one
// kept), and the right passphrase connects: the turn runs on the remote
// over the master that ssh left.
func TestEndToEndRemotePassphraseAskedAgain(t *testing.T) {
	e := newRemoteEnv(t)
	key := filepath.Join(e.srv.Dir, "locked_key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "open sesame", "-C", "locked", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v: %s", err, out)
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	auth := e.srv.AuthorizedKeys
	old, err := os.ReadFile(auth)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, auth, string(old)+string(pub))
	e.srv.WriteClientConfig(t, e.srv.ConfigFile, key, e.srv.KnownHosts)

	s := startTmuxSize(t, e.command(t, "--remote", "box"), 140, 50)
	s.waitFor("connecting to "+sshtest.HostAlias+": ssh asks in the terminal", "Enter passphrase for key")
	for i := 1; i <= 3; i++ {
		s.waitUntil("passphrase prompt", func(scr string) bool {
			return strings.Count(scr, "Enter passphrase for key") >= i
		})
		s.text("wrong " + strings.Repeat("x", i))
		s.keys("Enter")
	}
	s.waitFor("ssh asks in the terminal (try 2 of 3)") // the header says so until ssh ends
	s.waitUntil("a fourth prompt, in the new tab", func(scr string) bool {
		return strings.Contains(scr, "Enter passphrase for key") && !strings.Contains(scr, "Permission denied")
	})
	s.text("open sesame")
	s.keys("Enter")
	s.waitFor("connected to " + sshtest.HostAlias)
	s.text("first turn")
	s.keys("Enter")
	s.waitFor("home="+e.srv.Home, "pwd="+e.proj)
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// A server that takes a password (the remote user's, sshd checking it
// itself) and a key it refuses: the app opens with ssh asking for the
// password in a terminal tab; three wrong ones end that ssh and chipchat
// asks again in a new tab; the right one connects, and the turn runs over
// the master that ssh left, in batch mode, without asking again.
func TestEndToEndRemotePasswordLogin(t *testing.T) {
	testenv.NeedCommands(t, "apt-get install passwd", "chpasswd", "usermod")
	srv := sshtest.StartWith(t, sshtest.Options{SSHDConfig: "PasswordAuthentication yes"})
	if srv.Remote == nil {
		testenv.Missing(t, "a password login needs sshtest's second-user mode (root, and the users .ci/run creates): sshd checks a real user's password")
	}
	const password = "correct horse 7"
	setPassword(t, srv.Remote.Name, password)
	e := newRemoteEnvOn(t, remoteAgent, srv)
	other := filepath.Join(srv.Dir, "unknown_key") // not in authorized_keys
	sshtest.Keygen(t, other)
	srv.WriteClientConfig(t, srv.ConfigFile, other, srv.KnownHosts)
	b, err := os.ReadFile(srv.ConfigFile)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, srv.ConfigFile, strings.Replace(string(b), "PasswordAuthentication no", "PasswordAuthentication yes", 1))

	s := startTmuxSize(t, e.command(t, "--remote", "box"), 140, 50)
	s.waitFor("connecting to "+sshtest.HostAlias+": ssh asks in the terminal", "password:")
	for i := 1; i <= 3; i++ {
		s.waitUntil("password prompt", func(scr string) bool { return strings.Count(scr, "password:") >= i })
		s.text("not it " + strings.Repeat("x", i))
		s.keys("Enter")
	}
	s.waitFor("ssh asks in the terminal (try 2 of 3)")
	s.waitUntil("a prompt in the new tab", func(scr string) bool {
		return strings.Contains(scr, "password:") && !strings.Contains(scr, "Permission denied")
	})
	s.text(password)
	s.keys("Enter")
	s.waitFor("connected to " + sshtest.HostAlias)
	s.text("first turn")
	s.keys("Enter")
	s.waitFor("home="+e.srv.Home, "pwd="+e.proj, "user="+srv.Remote.Name)
	if n := strings.Count(srv.Log(), "Accepted password for "); n != 1 {
		t.Errorf("%d password logins, want 1: the turn ran over the master the tab opened", n)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// setPassword gives user a password for the test, and locks it again
// (usermod -p '*': no password, a key login still allowed) when it ends.
func setPassword(t *testing.T, user, password string) {
	t.Helper()
	cmd := exec.Command("chpasswd")
	cmd.Stdin = strings.NewReader(user + ":" + password + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chpasswd: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("usermod", "-p", "*", user).CombinedOutput(); err != nil {
			t.Errorf("usermod -p '*' %s: %v: %s", user, err, out)
		}
	})
}
