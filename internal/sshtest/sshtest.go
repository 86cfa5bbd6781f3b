// Package sshtest runs a real OpenSSH server on 127.0.0.1 for tests: a
// generated host key and client key, an sshd_config of its own (a free
// port, its own AuthorizedKeysFile, no PAM, StrictModes off), sshd started
// in the foreground as the current user (`sshd -D -e -f FILE`), and a
// client config (for `ssh -F`) that reads neither ~/.ssh/config nor the
// user's keys or known_hosts. The sessions' HOME is a directory of the
// test (sshd's SetEnv), so a remote ~/.profile or ~/.cache is the test's.
// Everything is removed, and sshd stopped, when the test ends.
//
// It is imported by tests only and imports nothing of the project but
// internal/testenv.
package sshtest

import (
	"bufio"
	"bytes"
	"fmt"
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

// Server is one running sshd.
type Server struct {
	Dir        string // the test's directory of keys and configs
	Home       string // HOME of the sessions
	Port       int
	User       string
	ConfigFile string // the client config, for ssh -F
	ClientKey  string // the authorized private key
	KnownHosts string // the client's known_hosts (holds the host key)

	sshd  string    // the program
	cmd   *exec.Cmd // the running sshd (nil once Stop ended it)
	extra string    // Options.SSHDConfig

	mu  sync.Mutex
	log bytes.Buffer
}

// Options change the server.
type Options struct {
	// SSHDConfig is sshd_config lines put ahead of the server's own, so
	// they win (sshd takes an option's first value): "AllowTcpForwarding
	// no" makes a server that refuses forwarding.
	SSHDConfig string
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
	u, err := user.Current()
	if err != nil {
		t.Fatalf("sshtest: current user: %v", err)
	}
	if os.Geteuid() == 0 {
		// sshd started as root insists on its privilege separation
		// directory (systemd's tmpfiles make it at boot).
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatalf("sshtest: /run/sshd: %v", err)
		}
	}
	dir := t.TempDir()
	s := &Server{sshd: sshd, extra: o.SSHDConfig, Dir: dir, Home: filepath.Join(dir, "home"), User: u.Username,
		ConfigFile: filepath.Join(dir, "ssh_config"), ClientKey: filepath.Join(dir, "client_key"),
		KnownHosts: filepath.Join(dir, "known_hosts")}
	if err := os.MkdirAll(s.Home, 0o755); err != nil {
		t.Fatal(err)
	}
	Keygen(t, filepath.Join(dir, "host_key"))
	Keygen(t, s.ClientKey)
	pub, err := os.ReadFile(s.ClientKey + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "authorized_keys"), string(pub))

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
	return s
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
	conf := filepath.Join(s.Dir, "sshd_config")
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
`, s.Port, filepath.Join(s.Dir, "host_key"), filepath.Join(s.Dir, "sshd.pid"),
		filepath.Join(s.Dir, "authorized_keys"), s.User, s.Home))
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
