package remote

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/chipchat/chipchat/internal/sshtest"
	"github.com/chipchat/chipchat/internal/testenv"
)

// newConn starts an sshd and returns a Conn to it (through the generated
// client config) whose project directory is proj under the remote HOME.
func newConn(t *testing.T, o Options) (*sshtest.Server, *Conn) {
	t.Helper()
	s := sshtest.Start(t)
	proj := filepath.Join(s.Home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if o.ConfigFile == "" {
		o.ConfigFile = s.ConfigFile
	}
	c := dial(t, s, proj, o)
	return s, c
}

func dial(t *testing.T, s *sshtest.Server, proj string, o Options) *Conn {
	t.Helper()
	if o.ControlDir == "" {
		// A short directory: a unix socket path is short.
		o.ControlDir = shortDir(t)
	}
	c, err := New(Target{Host: sshtest.HostAlias, Path: proj}, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestRunOutputExitCodeAndStdin(t *testing.T) {
	s, c := newConn(t, Options{})
	ctx := context.Background()
	out, err := c.Run(ctx, []string{"pwd"}, nil)
	if err != nil {
		t.Fatalf("pwd: %v\n%s", err, s.Log())
	}
	if got := strings.TrimSpace(string(out)); got != c.Target().Path {
		t.Fatalf("pwd = %q, want the project %q", got, c.Target().Path)
	}
	out, err = c.Run(ctx, []string{"sh", "-c", "echo out; echo first >&2; echo last err >&2; exit 3"}, nil)
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 3 {
		t.Fatalf("exit 3: err = %v, want an *ExitError with code 3", err)
	}
	if string(out) != "out\n" || err.Error() != "remote: exit status 3: last err" {
		t.Fatalf("exit 3: out %q, err %q", out, err)
	}
	out, err = c.Run(ctx, []string{"cat"}, strings.NewReader("from stdin\x00bytes"))
	if err != nil || string(out) != "from stdin\x00bytes" {
		t.Fatalf("cat = %q, %v", out, err)
	}
}

// TestRunQuotesArgumentsAndEnvironment passes words no shell may split
// or expand, through both shells, as arguments and as values.
func TestRunQuotesArgumentsAndEnvironment(t *testing.T) {
	_, c := newConn(t, Options{})
	hostile := []string{"a b", "it's", `"dq"`, "$(touch pwned)", "`id`", "*", "$HOME", "new\nline", "", "back\\slash", "--", "-n"}
	out, err := c.Run(context.Background(), append([]string{"printf", `[%s]\n`}, hostile...), nil)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, h := range hostile {
		want.WriteString("[" + h + "]\n")
	}
	if string(out) != want.String() {
		t.Fatalf("printf printed\n%q\nwant\n%q", out, want.String())
	}
	out, err = c.RunCommand(context.Background(), Command{Argv: []string{"sh", "-c", `printf '%s|%s' "$ONE" "$TWO"`}, Env: []string{"ONE=it's $(id) `x`", "TWO=a\nb"}}, nil)
	if err != nil || string(out) != "it's $(id) `x`|a\nb" {
		t.Fatalf("env: %q, %v", out, err)
	}
	if _, err := os.Stat(filepath.Join(c.Target().Path, "pwned")); err == nil {
		t.Fatal("an argument ran as a command")
	}
	if _, err := c.RunCommand(context.Background(), Command{Argv: []string{"true"}, Env: []string{"A B=1"}}, nil); err == nil || !strings.Contains(err.Error(), "not NAME=value") {
		t.Fatalf("a bad variable name: %v", err)
	}
}

// TestRunUsesTheLoginShellsProfile puts a program on a PATH entry that
// only ~/.profile adds.
func TestRunUsesTheLoginShellsProfile(t *testing.T) {
	s, c := newConn(t, Options{})
	bin := filepath.Join(s.Home, "profile-bin")
	os.MkdirAll(bin, 0o755)
	if err := os.WriteFile(filepath.Join(bin, "only-on-profile-path"), []byte("#!/bin/sh\necho found it\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Home, ".profile"), []byte(`PATH="$HOME/profile-bin:$PATH"; export PATH`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := c.Run(context.Background(), []string{"only-on-profile-path"}, nil)
	if err != nil || string(out) != "found it\n" {
		t.Fatalf("only-on-profile-path: %q, %v", out, err)
	}
}

// TestRunTimesOut runs sleep 60 with a short timeout: the error is the
// timeout, one line, and Run returned (no 60 s wait).
func TestRunTimesOut(t *testing.T) {
	_, c := newConn(t, Options{})
	if err := c.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := c.RunCommand(context.Background(), Command{Argv: []string{"sleep", "60"}, Timeout: 300 * time.Millisecond}, nil)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("sleep 60: %v, want ErrTimeout", err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "sleep 60") {
		t.Fatalf("timeout message %q: want one line naming the command", msg)
	}
}

// TestMasterIsReused: after the first connection, commands authenticate
// no more (sshd logs one login), and the control socket is ours.
func TestMasterIsReused(t *testing.T) {
	s, c := newConn(t, Options{})
	ctx := context.Background()
	for i := range 3 {
		if _, err := c.Run(ctx, []string{"true"}, nil); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	if _, _, err := c.ListFiles(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if n := s.Logins(); n != 1 {
		t.Fatalf("%d logins for four commands, want 1 (the master)\n%s", n, s.Log())
	}
	if !c.Alive(ctx) {
		t.Fatal("Alive() = false with the master up")
	}
	socks, _ := filepath.Glob(filepath.Join(c.o.ControlDir, "*"))
	if len(socks) != 1 {
		t.Fatalf("control dir holds %v, want one socket", socks)
	}
	if fi, err := os.Stat(socks[0]); err != nil || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("%s: %v, not a socket", socks[0], err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if c.Alive(ctx) {
		t.Fatal("Alive() = true after Close")
	}
}

// TestInteractiveOpensTheMaster runs the interactive first connection
// (no question to answer here) and then a batch command over its master.
func TestInteractiveOpensTheMaster(t *testing.T) {
	s, c := newConn(t, Options{})
	cmd := c.Interactive()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("interactive: %v: %s", err, out)
	}
	if !c.Alive(context.Background()) {
		t.Fatal("no master after the interactive connection")
	}
	if _, err := c.Run(context.Background(), []string{"true"}, nil); err != nil {
		t.Fatal(err)
	}
	if n := s.Logins(); n != 1 {
		t.Fatalf("%d logins, want 1", n)
	}
}

func TestFailuresAreOneLine(t *testing.T) {
	s := sshtest.Start(t)
	ctx := context.Background()
	check := func(name string, err error, kind error, says string) {
		t.Helper()
		if !errors.Is(err, kind) {
			t.Errorf("%s: %v, want %v", name, err, kind)
			return
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, says) {
			t.Errorf("%s: %q, want one line with ssh's %q", name, msg, says)
		}
	}

	// A key the server does not know.
	other := filepath.Join(s.Dir, "other_key")
	sshtest.Keygen(t, other)
	refused := filepath.Join(s.Dir, "refused_config")
	s.WriteClientConfig(t, refused, other, s.KnownHosts)
	err := dial(t, s, "/", Options{ConfigFile: refused}).Connect(ctx)
	check("refused key", err, ErrAuthRefused, "Permission denied (publickey)")

	// A host name that does not resolve.
	c, err := New(Target{Host: "no-such-host.invalid", Path: "/"}, Options{ConfigFile: s.ConfigFile, ControlDir: shortDir(t)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Run(ctx, []string{"true"}, nil)
	check("unknown host", err, ErrHostUnknown, "Could not resolve hostname no-such-host.invalid")

	// Another host key recorded for the server.
	hostKey := filepath.Join(s.Dir, "other_host_key")
	sshtest.Keygen(t, hostKey)
	pub, _ := os.ReadFile(hostKey + ".pub")
	known := filepath.Join(s.Dir, "changed_known_hosts")
	os.WriteFile(known, []byte("[127.0.0.1]:"+strconv.Itoa(s.Port)+" "+string(pub)), 0o600)
	changed := filepath.Join(s.Dir, "changed_config")
	s.WriteClientConfig(t, changed, s.ClientKey, known)
	err = dial(t, s, "/", Options{ConfigFile: changed}).Connect(ctx)
	check("changed host key", err, ErrHostKeyChanged, "Host key verification failed")

	// No host key recorded: batch mode cannot ask.
	empty := filepath.Join(s.Dir, "empty_known_hosts")
	os.WriteFile(empty, nil, 0o600)
	unknown := filepath.Join(s.Dir, "unknown_config")
	s.WriteClientConfig(t, unknown, s.ClientKey, empty)
	err = dial(t, s, "/", Options{ConfigFile: unknown}).Connect(ctx)
	check("unknown host key", err, ErrHostKeyUnknown, "Host key verification failed")

	if n := s.Logins(); n != 0 {
		t.Fatalf("%d logins from failing connections", n)
	}
}

func shortDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "cc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// TestProcessAndTerminal: the agent's command talks on its stdio over
// the master; the terminal's has a tty on the remote.
func TestProcessAndTerminal(t *testing.T) {
	s, c := newConn(t, Options{})
	ctx := context.Background()
	cmd, err := c.Process(ctx, Command{Argv: []string{"sh", "-c", `read line; echo "$GREETING $line from $(pwd)"`}, Env: []string{"GREETING=hello"}})
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin = strings.NewReader("agent\n")
	out, err := cmd.Output()
	if err != nil || string(out) != "hello agent from "+c.Target().Path+"\n" {
		t.Fatalf("process: %q, %v", out, err)
	}

	term, err := c.Terminal(ctx, Command{Argv: []string{"sh", "-c", "test -t 0 && test -t 1 && echo has a tty"}})
	if err != nil {
		t.Fatal(err)
	}
	ptmx, err := pty.Start(term)
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	got, _ := io.ReadAll(ptmx) // EIO once the session ends
	term.Wait()
	if !strings.Contains(string(got), "has a tty") {
		t.Fatalf("terminal printed %q", got)
	}
	if n := s.Logins(); n != 1 {
		t.Fatalf("%d logins, want 1", n)
	}
}

// TestUsersMasterIsNotUsed: a master the user opened (their config's
// ControlPath) is left alone; chipchat authenticates its own.
func TestUsersMasterIsNotUsed(t *testing.T) {
	s := sshtest.Start(t)
	userSock := filepath.Join(shortDir(t), "user-%C")
	cfg := filepath.Join(s.Dir, "user_config")
	s.WriteClientConfig(t, cfg, s.ClientKey, s.KnownHosts)
	conf, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, []byte("ControlMaster auto\nControlPath "+userSock+"\nControlPersist 60\n"+string(conf)), 0o600)
	if out, err := exec.Command("ssh", "-F", cfg, "-o", "BatchMode=yes", sshtest.HostAlias, "true").CombinedOutput(); err != nil {
		t.Fatalf("the user's master: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("ssh", "-F", cfg, "-O", "exit", sshtest.HostAlias).Run() })
	if n := s.Logins(); n != 1 {
		t.Fatalf("%d logins for the user's master", n)
	}
	c := dial(t, s, "/", Options{ConfigFile: cfg})
	if _, err := c.Run(context.Background(), []string{"true"}, nil); err != nil {
		t.Fatal(err)
	}
	if n := s.Logins(); n != 2 {
		t.Fatalf("%d logins: chipchat used the user's master", n)
	}
}

// TestConnectToASilentServerTimesOut: a server that accepts and says
// nothing ends in the timeout, not a hang.
func TestConnectToASilentServerTimesOut(t *testing.T) {
	testenv.NeedCommands(t, sshtest.Hint, "ssh")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			defer conn.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	c, err := New(Target{Host: "127.0.0.1", Port: port, Path: "/"}, Options{ConfigFile: os.DevNull, ControlDir: shortDir(t), Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Connect(context.Background())
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Connect: %v, want ErrTimeout", err)
	}
}
