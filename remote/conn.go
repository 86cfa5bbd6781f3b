package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// Defaults of Options.
const (
	DefaultTimeout       = 15 * time.Second
	DefaultPersist       = 10 * time.Minute
	DefaultAliveInterval = 15 * time.Second
)

// maxControlPath is the longest unix socket path every system takes
// (macOS: 104 bytes with the terminating NUL).
const maxControlPath = 103

// Options configure a Conn. The zero value is the system's ssh with the
// user's own ssh config.
type Options struct {
	SSH           string           // the ssh program; "ssh" from PATH when ""
	ConfigFile    string           // ssh -F FILE; "" reads ~/.ssh/config as ssh does
	ControlDir    string           // where the master's socket lives; RuntimeDir()/chipchat-ssh when ""
	Timeout       time.Duration    // each remote command's (Run, ListFiles, staging steps); DefaultTimeout when 0
	Persist       time.Duration    // ControlPersist: how long an idle master stays; DefaultPersist when 0
	AliveInterval time.Duration    // ServerAliveInterval; DefaultAliveInterval when 0
	CacheBytes    int64            // the staging directory's budget; DefaultCacheBytes when 0
	Now           func() time.Time // the clock of staging's use times; time.Now when nil
}

// RuntimeDir is the directory of chipchat's sockets: $XDG_RUNTIME_DIR,
// else the system's temporary directory.
func RuntimeDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		return d
	}
	return os.TempDir()
}

// Conn is a remote project reached through one chipchat-owned OpenSSH
// master. Its methods are safe for concurrent use.
type Conn struct {
	t           Target
	o           Options
	controlPath string // with %C, for ssh to expand

	stageMu sync.Mutex // one Stage at a time

	mu     sync.Mutex
	home   string          // the remote HOME, once asked
	sftp   *sftpClient     // the staging session, once opened
	procs  map[string]bool // tokens of the Processes that may run (cancel.go)
	closed bool
}

// New returns a Conn to t; nothing runs until a command does. It makes the
// control directory (mode 0700).
func New(t Target, o Options) (*Conn, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	if o.SSH == "" {
		o.SSH = "ssh"
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Persist <= 0 {
		o.Persist = DefaultPersist
	}
	if o.AliveInterval <= 0 {
		o.AliveInterval = DefaultAliveInterval
	}
	if o.ControlDir == "" {
		o.ControlDir = filepath.Join(RuntimeDir(), "chipchat-ssh")
	}
	// %C expands to 40 hex digits.
	if n := len(o.ControlDir) + 1 + 40; n > maxControlPath {
		return nil, fmt.Errorf("remote: the control socket directory %s is too long for a unix socket (%d bytes of %d); set XDG_RUNTIME_DIR to a shorter directory", o.ControlDir, n, maxControlPath)
	}
	if err := os.MkdirAll(o.ControlDir, 0o700); err != nil {
		return nil, fmt.Errorf("remote: control socket directory: %w", err)
	}
	if err := os.Chmod(o.ControlDir, 0o700); err != nil {
		return nil, fmt.Errorf("remote: control socket directory: %w", err)
	}
	return &Conn{t: t, o: o, controlPath: filepath.Join(o.ControlDir, "%C")}, nil
}

// Target is the Conn's target.
func (c *Conn) Target() Target { return c.t }

// Timeout is the bound of each remote command.
func (c *Conn) Timeout() time.Duration { return c.o.Timeout }

// sshArgs are the arguments of every ssh run: the config file, the master
// options (ours, ahead of anything ~/.ssh/config says, so a master the
// user opened is never used), batch mode unless interactive, the user
// and port of the target. The host and the command follow.
func (c *Conn) sshArgs(batch bool) []string {
	var a []string
	if c.o.ConfigFile != "" {
		a = append(a, "-F", c.o.ConfigFile)
	}
	a = append(a,
		"-o", "ControlMaster=auto",
		"-o", "ControlPath="+c.controlPath,
		"-o", "ControlPersist="+strconv.Itoa(seconds(c.o.Persist)),
		"-o", "ServerAliveInterval="+strconv.Itoa(seconds(c.o.AliveInterval)),
		"-o", "ServerAliveCountMax=3",
	)
	if batch {
		a = append(a, "-o", "BatchMode=yes", "-o", "ConnectTimeout="+strconv.Itoa(seconds(c.o.Timeout)))
	}
	if c.t.User != "" {
		a = append(a, "-l", c.t.User)
	}
	if c.t.Port != 0 {
		a = append(a, "-p", strconv.Itoa(c.t.Port))
	}
	return a
}

func seconds(d time.Duration) int { return max(1, int((d+time.Second-1)/time.Second)) }

// command is ssh with args, the host and the remote command line.
func (c *Conn) command(ctx context.Context, args []string, remote string) *exec.Cmd {
	full := append(args, "--", c.t.Host)
	if remote != "" {
		full = append(full, remote)
	}
	cmd := exec.CommandContext(ctx, c.o.SSH, full...)
	// The backgrounded master detaches from our pipes; should anything
	// else hold them, Wait returns anyway.
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// Interactive returns the first connection for a terminal: ssh without
// batch mode, so it can ask for a password, a passphrase or a host key
// answer, that becomes the master and ends once connected. The caller
// runs it in a terminal (a pane tab) and calls Connect or any command
// after; they then use the master.
func (c *Conn) Interactive() *exec.Cmd {
	return c.command(context.Background(), c.sshArgs(false), "true")
}

// Connect makes sure the master is up, starting it in batch mode when
// not: it fails (one line, an *Error) when ssh would have to ask
// something; then Interactive is the way in.
func (c *Conn) Connect(ctx context.Context) error {
	_, err := c.runScript(ctx, 0, "", nil, "true", nil)
	return err
}

// Alive reports whether the master runs (ssh -O check).
func (c *Conn) Alive(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	return c.command(ctx, append(c.sshArgs(true), "-O", "check"), "").Run() == nil
}

// Close ends the staging session and the master (ssh -O exit).
func (c *Conn) Close() error {
	c.mu.Lock()
	s := c.sftp
	c.sftp, c.closed = nil, true
	c.mu.Unlock()
	if s != nil {
		s.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.o.Timeout)
	defer cancel()
	if !c.Alive(ctx) {
		return nil
	}
	var stderr bytes.Buffer
	cmd := c.command(ctx, append(c.sshArgs(true), "-O", "exit"), "")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return c.sshError(ctx, "close", c.o.Timeout, stderr.Bytes(), err)
	}
	return nil
}

// Command is a remote command.
type Command struct {
	Argv []string
	Dir  string   // the directory it runs in; the target's path when ""
	Env  []string // KEY=value, exported to it

	// Timeout bounds Run and RunCommand; the Conn's when 0.
	Timeout time.Duration
}

// Run runs argv in the project directory on the remote with stdin (nil:
// none), through the remote user's login shell, within the Conn's
// timeout, and returns its standard output. A non-zero exit is an
// *ExitError; an ssh failure or the timeout an *Error.
func (c *Conn) Run(ctx context.Context, argv []string, stdin io.Reader) ([]byte, error) {
	return c.RunCommand(ctx, Command{Argv: argv}, stdin)
}

// RunCommand is Run with a directory and environment.
func (c *Conn) RunCommand(ctx context.Context, cmd Command, stdin io.Reader) ([]byte, error) {
	if len(cmd.Argv) == 0 {
		return nil, errors.New("remote: no command")
	}
	return c.runScript(ctx, cmd.Timeout, c.dir(cmd.Dir), cmd.Env, "exec "+quoteArgs(cmd.Argv), stdin)
}

func (c *Conn) dir(d string) string {
	if d == "" {
		return c.t.Path
	}
	return d
}

// runScript runs the shell snippet script (in dir unless "", with env)
// through the login shell, bounded by timeout (the Conn's when 0).
func (c *Conn) runScript(ctx context.Context, timeout time.Duration, dir string, env []string, script string, stdin io.Reader) ([]byte, error) {
	line, err := loginShell(dir, env, script)
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = c.o.Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := c.command(ctx, append(c.sshArgs(true), "-T"), line)
	cmd.Stdin = stdin
	stdout, stderr, err := runPiped(ctx, cmd)
	if err != nil {
		return stdout, c.sshError(ctx, script, timeout, stderr, err)
	}
	return stdout, nil
}

// pipeDrain is how long runPiped waits, after ssh exited, for the end of
// its output: the master writes a session's output itself (the client
// passed it its descriptors) and may close them a moment later.
const pipeDrain = 2 * time.Second

// runPiped runs cmd and returns its standard output and error. When ctx
// ends it returns at once: the master may hold the pipes of a killed
// client's session until the remote command ends, so they are not waited
// for.
func runPiped(ctx context.Context, cmd *exec.Cmd) (stdout, stderr []byte, err error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, nil, err
	}
	var outBuf, errBuf bytes.Buffer
	done := make(chan struct{}, 2)
	go func() { outBuf.ReadFrom(outR); done <- struct{}{} }()
	go func() { errBuf.ReadFrom(errR); done <- struct{}{} }()
	err = cmd.Wait()
	drain := time.NewTimer(pipeDrain)
	defer drain.Stop()
	if ctx.Err() != nil {
		drain.Reset(0)
	}
	for n := 0; n < 2; n++ {
		select {
		case <-done:
		case <-drain.C:
			// Closing the read ends ends the readers.
			outR.Close()
			errR.Close()
			for ; n < 2; n++ {
				<-done
			}
			return outBuf.Bytes(), errBuf.Bytes(), err
		}
	}
	outR.Close()
	errR.Close()
	return outBuf.Bytes(), errBuf.Bytes(), err
}

// Process returns the command for a long-lived remote process (the
// agent): `ssh -T` over the master, stdio for the caller to connect,
// through the login shell in the directory with the environment. It
// ends with ctx, on the remote too (cancel.go: the remote process group
// gets SIGTERM).
func (c *Conn) Process(ctx context.Context, cmd Command) (*exec.Cmd, error) {
	if len(cmd.Argv) == 0 {
		return nil, errors.New("remote: no command")
	}
	token := newToken()
	line, err := loginShell(c.dir(cmd.Dir), cmd.Env, notePID(token)+"exec "+quoteArgs(cmd.Argv))
	if err != nil {
		return nil, err
	}
	x := c.command(ctx, append(c.sshArgs(true), "-T"), line)
	c.endOnCancel(x, token)
	return x, nil
}

// Terminal returns the command for a remote terminal (`ssh -tt`, the
// caller gives it a pty): cmd.Argv through the login shell, or the login
// shell itself when Argv is empty.
func (c *Conn) Terminal(ctx context.Context, cmd Command) (*exec.Cmd, error) {
	script := `exec "${SHELL:-/bin/sh}" -l`
	if len(cmd.Argv) > 0 {
		script = "exec " + quoteArgs(cmd.Argv)
	}
	line, err := loginShell(c.dir(cmd.Dir), cmd.Env, script)
	if err != nil {
		return nil, err
	}
	return c.command(ctx, append(c.sshArgs(true), "-tt"), line), nil
}
