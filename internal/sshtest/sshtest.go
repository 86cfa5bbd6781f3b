// Package sshtest runs a real OpenSSH server on 127.0.0.1 for tests: a
// generated host key and client key, an sshd_config of its own (a free
// port, its own AuthorizedKeysFile, no PAM, StrictModes off), sshd started
// in the foreground (`sshd -D -e -f FILE`), and a client config (for
// `ssh -F`) that reads neither ~/.ssh/config nor the user's keys or
// known_hosts. The sessions' HOME is a directory of the test (sshd's
// SetEnv), so a remote ~/.profile or ~/.cache is the test's. Everything
// is removed, and sshd stopped, when the test ends.
//
// It runs in one of two modes:
//
//   - Second-user mode, when the tests run as root and the users
//     RemoteUserName and LocalUserName exist (.ci/run creates them):
//     sshd (as root) logs sessions in as RemoteUserName only, their HOME a
//     new directory inside that user's home (which must not be readable
//     by others), and the client's files (Dir: config, key, known_hosts)
//     belong to LocalUserName, the user a test runs the client as
//     (Server.Local). So a client run as LocalUserName reaches the
//     session's files only over ssh. Root writes the test's files into
//     Home; HandOver (or WriteFile) gives them to their user.
//   - Same-user mode otherwise: sshd runs as the current user and logs
//     in as it; Local and Remote are nil and HandOver does nothing. In CI
//     (testenv.InCI) as root, missing users fail the test instead; the
//     environment variable SameUserEnv=1 asks for this mode anyway (to
//     try the fallback).
//
// It is imported by tests only and imports nothing of the project but
// internal/testenv.
package sshtest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chipchat/chipchat/internal/testenv"
)

// Hint says how to install what the server needs.
const Hint = "apt-get install openssh-server openssh-client"

// HostAlias is the name the client config gives the server.
const HostAlias = "sshtest"

// The users of second-user mode (.ci/run creates them): sessions log in
// as RemoteUserName; the client runs as LocalUserName.
const (
	RemoteUserName = "chipchat-remote"
	LocalUserName  = "chipchat-local"
)

// SameUserEnv, set to 1, makes Start use same-user mode even as root with
// both users there: the fallback, to try it.
const SameUserEnv = "SSHTEST_SAME_USER"

// Account is a user of second-user mode.
type Account struct {
	Name     string
	UID, GID int
	Home     string // from the passwd entry
}

// Server is one running sshd.
type Server struct {
	Dir        string // the test's directory of the client's keys and configs
	Home       string // HOME of the sessions
	Port       int
	User       string // the user sessions log in as
	ConfigFile string // the client config, for ssh -F
	ClientKey  string // the authorized private key
	KnownHosts string // the client's known_hosts (holds the host key)
	// AuthorizedKeys is sshd's AuthorizedKeysFile (the client key's line):
	// in Dir in same-user mode, beside Home in second-user mode.
	AuthorizedKeys string

	// Local and Remote are the users of second-user mode: the one to run
	// the client as (it owns Dir) and the one sessions log in as (it owns
	// Home); both nil in same-user mode.
	Local, Remote *Account

	sshd   string    // the program
	cmd    *exec.Cmd // the running sshd (nil once Stop ended it)
	extra  string    // Options.SSHDConfig
	srvDir string    // sshd's files: host key, sshd_config, pid file
	sess   string    // second-user mode: Home's parent, the remote user's
	locals []string  // second-user mode: the directories the local user gets

	mu  sync.Mutex
	log bytes.Buffer
}

// Options change the server.
type Options struct {
	// SSHDConfig is sshd_config lines put ahead of the server's own, so
	// they win (sshd takes an option's first value): "AllowTcpForwarding
	// no" makes a server that refuses forwarding.
	SSHDConfig string
	// SameUser keeps same-user mode where second-user mode would run: for
	// a test whose sessions reach its files outside Home (a repository
	// under its TempDir).
	SameUser bool
}

// Start starts sshd for the test, or ends the test (testenv.Missing)
// when sshd, ssh or ssh-keygen are missing.
func Start(t testing.TB) *Server { t.Helper(); return StartWith(t, Options{}) }

// StartWith is Start with options.
func StartWith(t testing.TB, o Options) *Server {
	t.Helper()
	sshd := FindSSHD()
	if sshd == "" {
		testenv.Missing(t, "sshd is not installed ("+Hint+")")
	}
	testenv.NeedCommands(t, Hint, "ssh", "ssh-keygen")
	if os.Geteuid() == 0 {
		// sshd started as root insists on its privilege separation
		// directory (systemd's tmpfiles make it at boot).
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatalf("sshtest: /run/sshd: %v", err)
		}
	}
	dir := t.TempDir()
	s := &Server{sshd: sshd, extra: o.SSHDConfig, srvDir: dir, Dir: dir, Home: filepath.Join(dir, "home"),
		AuthorizedKeys: filepath.Join(dir, "authorized_keys")}
	if !o.SameUser {
		s.Local, s.Remote = secondUsers(t)
	}
	if s.Remote != nil {
		s.User = s.Remote.Name
		s.sess = s.ownDir(t, s.Remote, "sshtest-")
		s.Home = filepath.Join(s.sess, "home")
		s.AuthorizedKeys = filepath.Join(s.sess, "authorized_keys")
		s.Dir = s.LocalDir(t)
	} else {
		u, err := user.Current()
		if err != nil {
			t.Fatalf("sshtest: current user: %v", err)
		}
		s.User = u.Username
	}
	s.ConfigFile, s.ClientKey, s.KnownHosts = filepath.Join(s.Dir, "ssh_config"), filepath.Join(s.Dir, "client_key"), filepath.Join(s.Dir, "known_hosts")
	if err := os.MkdirAll(s.Home, 0o755); err != nil {
		t.Fatal(err)
	}
	Keygen(t, filepath.Join(dir, "host_key"))
	Keygen(t, s.ClientKey)
	pub, err := os.ReadFile(s.ClientKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, s.AuthorizedKeys, string(pub))
	s.HandOver(t)

	// A free port: listen, note it, close. Another process could take it
	// in between; sshd then fails to bind and Start tries again.
	for attempt := 0; ; attempt++ {
		s.Port = freePort(t)
		err := s.start(t, sshd)
		if err == nil {
			break
		}
		if attempt == 4 {
			t.Fatalf("sshtest: %v", err)
		}
	}
	hostPub, err := os.ReadFile(filepath.Join(dir, "host_key.pub"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, s.KnownHosts, fmt.Sprintf("[127.0.0.1]:%d %s", s.Port, hostPub))
	s.WriteClientConfig(t, s.ConfigFile, s.ClientKey, s.KnownHosts)
	s.HandOver(t)
	return s
}

// secondUsers returns the users of second-user mode, or nils for
// same-user mode (not root, SameUserEnv, or the users missing outside CI).
func secondUsers(t testing.TB) (local, remote *Account) {
	t.Helper()
	if os.Geteuid() != 0 || os.Getenv(SameUserEnv) == "1" {
		return nil, nil
	}
	l, lerr := lookup(LocalUserName)
	r, rerr := lookup(RemoteUserName)
	if err := errors.Join(lerr, rerr); err != nil {
		if testenv.InCI() {
			testenv.Missing(t, fmt.Sprintf("running as root without the second-user mode's users (.ci/run creates them; %s=1 for same-user mode): %v", SameUserEnv, err))
		}
		return nil, nil
	}
	// The remote user's home must be closed to the local user.
	fi, err := os.Stat(r.Home)
	if err != nil {
		t.Fatalf("sshtest: the home of %s: %v", r.Name, err)
	}
	if fi.Mode().Perm()&0o007 != 0 {
		t.Fatalf("sshtest: the home of %s, %s, is open to others (%v): chmod 700 %s", r.Name, r.Home, fi.Mode().Perm(), r.Home)
	}
	return l, r
}

func lookup(name string) (*Account, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, err
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return nil, fmt.Errorf("user %s: uid %q", name, u.Uid)
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return nil, fmt.Errorf("user %s: gid %q", name, u.Gid)
	}
	return &Account{Name: u.Username, UID: uid, GID: gid, Home: u.HomeDir}, nil
}

// ownDir makes a new directory (0700) inside a's home, given to a and
// removed when the test ends.
func (s *Server) ownDir(t testing.TB, a *Account, pattern string) string {
	t.Helper()
	d, err := os.MkdirTemp(a.Home, pattern)
	if err != nil {
		t.Fatalf("sshtest: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chown(d, a.UID, a.GID); err != nil {
		t.Fatalf("sshtest: %v", err)
	}
	return d
}

// LocalDir returns a new directory for the client's side of the test
// (its HOME, data, runtime directory), removed when the test ends: in
// second-user mode inside the local user's home and given to it by
// HandOver; otherwise under the temporary directory. Its name is short
// (a unix socket's path may be made inside it).
func (s *Server) LocalDir(t testing.TB) string {
	t.Helper()
	if s.Local == nil {
		d, err := os.MkdirTemp("", "cc")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		return d
	}
	d := s.ownDir(t, s.Local, "cc")
	s.mu.Lock()
	s.locals = append(s.locals, d)
	s.mu.Unlock()
	return d
}

// HandOver gives, in second-user mode, what the test (root) wrote into
// the sessions' directory (Home and its parent) to the remote user and
// what it wrote into Dir and the LocalDirs to the local user, all of it,
// recursively. Call it after writing files and before the client or a
// session uses them: a file written afterwards belongs to root (readable
// if its mode says so, not writable) until the next HandOver; WriteFile
// writes one and gives it away at once. In same-user mode it does
// nothing.
func (s *Server) HandOver(t testing.TB) {
	t.Helper()
	if s.Remote == nil {
		return
	}
	chownAll(t, s.sess, s.Remote)
	s.mu.Lock()
	locals := append([]string(nil), s.locals...)
	s.mu.Unlock()
	for _, d := range locals {
		chownAll(t, d, s.Local)
	}
}

func chownAll(t testing.TB, root string, a *Account) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // gone meanwhile
			}
			return err
		}
		if err := os.Lchown(path, a.UID, a.GID); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatalf("sshtest: hand %s over to %s: %v", root, a.Name, err)
	}
}

// WriteFile writes content to path (0644; its directories made, 0755)
// and gives what it made to the user whose side path is on (see
// HandOver): a file written after HandOver.
func (s *Server) WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	a, top := s.owner(path)
	if a == nil {
		return
	}
	for p := path; p != top && strings.HasPrefix(p, top+string(filepath.Separator)); p = filepath.Dir(p) {
		if err := os.Lchown(p, a.UID, a.GID); err != nil {
			t.Fatal(err)
		}
	}
}

// owner is the user whose side path is on, and that side's top
// directory; nil in same-user mode or outside both.
func (s *Server) owner(path string) (*Account, string) {
	if s.Remote == nil {
		return nil, ""
	}
	in := func(dir string) bool { return strings.HasPrefix(path, dir+string(filepath.Separator)) }
	if in(s.sess) {
		return s.Remote, s.sess
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.locals {
		if in(d) {
			return s.Local, d
		}
	}
	return nil, ""
}

// Shared returns a path of the program prog (a test binary, a built
// chipchat under a private temporary directory) that both users of
// second-user mode can run: a hard link (or a copy) in a directory open
// to all, removed when the test ends. In same-user mode it is prog.
func (s *Server) Shared(t testing.TB, prog string) string {
	t.Helper()
	if s.Remote == nil {
		return prog
	}
	d, err := os.MkdirTemp("", "sshtest-bin-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(d, filepath.Base(prog))
	if err := os.Link(prog, dst); err != nil {
		b, rerr := os.ReadFile(prog)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err := os.WriteFile(dst, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	return dst
}

// FindSSHD returns the sshd program: on PATH, else /usr/sbin/sshd, else "".
func FindSSHD() string {
	if p, err := exec.LookPath("sshd"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/sshd"); err == nil {
		return "/usr/sbin/sshd"
	}
	return ""
}

// Keygen writes a new ed25519 key pair without passphrase to path and
// path.pub.
func Keygen(t testing.TB, path string) {
	t.Helper()
	out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "sshtest", "-f", path).CombinedOutput()
	if err != nil {
		t.Fatalf("sshtest: ssh-keygen: %v: %s", err, out)
	}
}

// WriteClientConfig writes an ssh client config to path for the server,
// under the name HostAlias, with the given identity and known_hosts files
// (another key or known_hosts make the failure tests).
func (s *Server) WriteClientConfig(t testing.TB, path, identity, knownHosts string) {
	t.Helper()
	writeFile(t, path, fmt.Sprintf(`Host %s
	HostName 127.0.0.1
	Port %d
	User %s
	IdentityFile %s
	IdentitiesOnly yes
	IdentityAgent none
	UserKnownHostsFile %s
	GlobalKnownHostsFile /dev/null
	StrictHostKeyChecking yes
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	LogLevel ERROR
Host *
	IdentitiesOnly yes
	IdentityAgent none
	UserKnownHostsFile %s
	GlobalKnownHostsFile /dev/null
`, HostAlias, s.Port, s.User, identity, knownHosts, knownHosts))
}

// Log returns what sshd wrote so far (its log, -e).
func (s *Server) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// Logins counts the accepted authentications so far.
func (s *Server) Logins() int {
	return strings.Count(s.Log(), "Accepted publickey for ")
}

// Write implements io.Writer for sshd's stderr.
func (s *Server) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.Write(p)
}

func (s *Server) start(t testing.TB, sshd string) error {
	conf := filepath.Join(s.srvDir, "sshd_config")
	writeFile(t, conf, s.extra+"\n"+fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
PidFile %s
AuthorizedKeysFile %s
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
AllowUsers %s
SetEnv HOME=%s
AllowTcpForwarding yes
AllowStreamLocalForwarding yes
StreamLocalBindUnlink yes
Subsystem sftp internal-sftp
LogLevel VERBOSE
`, s.Port, filepath.Join(s.srvDir, "host_key"), filepath.Join(s.srvDir, "sshd.pid"),
		s.AuthorizedKeys, s.User, s.Home))
	cmd := exec.Command(sshd, "-D", "-e", "-f", conf)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start sshd: %w", err)
	}
	// Ready once sshd says it listens; its log goes on to s.
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		said := false
		for sc.Scan() {
			line := sc.Text()
			s.Write([]byte(line + "\n"))
			if !said && strings.Contains(line, "Server listening on") {
				said = true
				ready <- nil
			}
		}
		if !said {
			ready <- fmt.Errorf("sshd ended before listening: %s", strings.TrimSpace(s.Log()))
		}
	}()
	if err := <-ready; err != nil {
		cmd.Wait()
		return err
	}
	s.cmd = cmd
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return nil
}

// Stop ends the listening sshd (sessions already open go on, each its
// own sshd process): new connections are refused until Restart.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

// Restart starts sshd again on the same port, with the same keys: a
// server back after a restart.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.Stop(t)
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = s.start(t, s.sshd); err == nil {
			return
		}
	}
	t.Fatalf("sshtest: restart: %v", err)
}

// KillMaster kills (SIGKILL) the OpenSSH master behind controlPath (a
// socket path, %C expanded or not) for the client config, as a dropped
// network ends it without a word: ssh -O check names its pid.
func (s *Server) KillMaster(t testing.TB, controlPath string) {
	t.Helper()
	out, err := exec.Command("ssh", "-F", s.ConfigFile, "-o", "ControlPath="+controlPath, "-O", "check", HostAlias).CombinedOutput()
	if err != nil {
		t.Fatalf("sshtest: no master at %s: %v: %s", controlPath, err, out)
	}
	_, rest, ok := strings.Cut(string(out), "pid=")
	pid, perr := strconv.Atoi(strings.TrimRight(strings.TrimSpace(rest), ")"))
	if !ok || perr != nil {
		t.Fatalf("sshtest: ssh -O check said %q", out)
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatalf("sshtest: kill the master %d: %v", pid, err)
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("sshtest: %v", err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	n, _ := strconv.Atoi(port)
	return n
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
