package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/sshtest"
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
