package sshtest

import (
	"os/exec"
	"strings"
	"testing"
)

// TestServerAcceptsTheClientKey logs in with the generated config and
// reads HOME back: the test's home, not the user's.
func TestServerAcceptsTheClientKey(t *testing.T) {
	s := Start(t)
	out, err := exec.Command("ssh", "-F", s.ConfigFile, "-o", "BatchMode=yes", HostAlias, `printf %s "$HOME"`).CombinedOutput()
	if err != nil {
		t.Fatalf("ssh: %v: %s\nsshd log:\n%s", err, out, s.Log())
	}
	if got := strings.TrimSpace(string(out)); got != s.Home {
		t.Fatalf("HOME = %q, want %q", got, s.Home)
	}
	if n := s.Logins(); n != 1 {
		t.Fatalf("Logins() = %d, want 1\n%s", n, s.Log())
	}
}
