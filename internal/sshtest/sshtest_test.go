package sshtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestServerAcceptsTheClientKey logs in with the generated config and
// reads HOME and the user back: the test's home, not the user's, and in
// second-user mode the remote user.
func TestServerAcceptsTheClientKey(t *testing.T) {
	s := Start(t)
	out, err := exec.Command("ssh", "-F", s.ConfigFile, "-o", "BatchMode=yes", HostAlias, `printf '%s %s' "$HOME" "$(id -un)"`).CombinedOutput()
	if err != nil {
		t.Fatalf("ssh: %v: %s\nsshd log:\n%s", err, out, s.Log())
	}
	if got, want := strings.TrimSpace(string(out)), s.Home+" "+s.User; got != want {
		t.Fatalf("HOME and user = %q, want %q", got, want)
	}
	if n := s.Logins(); n != 1 {
		t.Fatalf("Logins() = %d, want 1\n%s", n, s.Log())
	}
}

// In second-user mode the sessions are the remote user's, the client's
// files the local user's (the key 0600), and the local user can log in
// with them but not read the sessions' files directly; a file WriteFile
// writes after HandOver is its side's user's, directories and all.
func TestSecondUserMode(t *testing.T) {
	s := Start(t)
	if s.Remote == nil {
		t.Skip("same-user mode: not root, or " + SameUserEnv + "=1, or the users missing outside CI")
	}
	if s.User != RemoteUserName || s.Local.Name != LocalUserName {
		t.Fatalf("users %q and %q", s.User, s.Local.Name)
	}
	owned := func(path string, a *Account) {
		t.Helper()
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if int(st.Uid) != a.UID || int(st.Gid) != a.GID {
			t.Errorf("%s belongs to %d:%d, want %s", path, st.Uid, st.Gid, a.Name)
		}
	}
	for _, p := range []string{s.Dir, s.ConfigFile, s.ClientKey, s.KnownHosts} {
		owned(p, s.Local)
	}
	if fi, err := os.Stat(s.ClientKey); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the client key: %v, %v", fi.Mode(), err)
	}
	owned(s.Home, s.Remote)
	secret := filepath.Join(s.Home, "proj", "deep", "secret.txt")
	s.WriteFile(t, secret, "secret\n")
	for _, p := range []string{secret, filepath.Dir(secret), filepath.Join(s.Home, "proj")} {
		owned(p, s.Remote)
	}
	note := filepath.Join(s.LocalDir(t), "sub", "note.txt")
	s.WriteFile(t, note, "mine\n")
	owned(note, s.Local)
	owned(filepath.Dir(note), s.Local)

	asLocal := func(args ...string) *exec.Cmd {
		return exec.Command("setpriv", append([]string{"--reuid=" + strconv.Itoa(s.Local.UID), "--regid=" + strconv.Itoa(s.Local.GID), "--init-groups"}, args...)...)
	}
	if out, err := asLocal("cat", secret).CombinedOutput(); err == nil || !strings.Contains(string(out), "Permission denied") {
		t.Errorf("the local user read the remote file: %v %s", err, out)
	}
	out, err := asLocal("ssh", "-F", s.ConfigFile, "-o", "BatchMode=yes", HostAlias, "id -un; cat "+secret).CombinedOutput()
	if err != nil || string(out) != RemoteUserName+"\nsecret\n" {
		t.Fatalf("ssh as the local user: %v: %q\n%s", err, out, s.Log())
	}
}

// SameUserEnv=1 keeps same-user mode: sessions are the current user's.
func TestSameUserEnvKeepsSameUserMode(t *testing.T) {
	t.Setenv(SameUserEnv, "1")
	s := Start(t)
	if s.Local != nil || s.Remote != nil {
		t.Fatalf("second-user mode with %s=1", SameUserEnv)
	}
	if s.Shared(t, "/bin/true") != "/bin/true" {
		t.Error("Shared moved a program in same-user mode")
	}
}
