package terminal

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"
)

// FrameInterval is the shortest time between two UpdatedMsg of one
// terminal: screen updates are coalesced to at most 60 frames a second.
const FrameInterval = time.Second / 60

// UpdatedMsg says that terminal ID has new output to draw.
type UpdatedMsg struct{ ID string }

// ExitedMsg says that terminal ID's process exited with Code (-1 when it
// was killed by a signal: Terminal.ExitNote names it).
type ExitedMsg struct {
	ID   string
	Code int
}

// Terminal is one shell running in a pty, with its emulator. The reading
// goroutine writes the output into the Screen under the mutex; the UI reads
// the Screen through Lock/Unlock or View helpers.
type Terminal struct {
	ID    string
	Label string
	// Env is added to the environment of the program Start runs
	// ("KEY=value"); set it before Start.
	Env []string
	// Spawn makes the program's command (a remote project's runs it
	// there, through ssh -tt); nil runs it here. Set it before Start.
	Spawn Spawn
	// NoRestart keeps a key pressed after the program exited from
	// starting it again (a command run for someone else, such as an
	// agent's terminal); set it before adding the terminal to a Pane.
	NoRestart bool

	mu     sync.Mutex
	screen *Screen

	ptmx     *os.File
	cmd      *exec.Cmd
	pgid     int
	running  bool
	exited   bool
	code     int
	reported bool
	gen      int
	exitSig  string        // the signal that ended the program, when one did
	exitNote string        // how it ended as a user reads it: "exited 3", "killed (SIGKILL)"
	done     chan struct{} // closed when the current run's program exited

	dirty     chan struct{}
	lastFrame time.Time
	wmu       sync.Mutex // serializes writes to the pty
	closed    bool
}

// NewTerminal makes a terminal with an empty screen (no process yet).
// scrollback ≤ 0 means the default of 10,000 lines.
func NewTerminal(id, label string, cols, rows, scrollback int) *Terminal {
	if scrollback <= 0 {
		scrollback = 10000
	}
	return &Terminal{ID: id, Label: label, screen: NewScreen(cols, rows, scrollback), dirty: make(chan struct{}, 1)}
}

// DefaultShell returns $SHELL, else /bin/sh.
func DefaultShell() string {
	if sh := os.Getenv("SHELL"); sh != "" {
		return sh
	}
	return "/bin/sh"
}

// Spawn makes the command a terminal runs: argv (empty: the user's shell
// where it runs) in dir with env added to the environment there. The
// terminal gives it a pty; when the command's Env is nil it gets this
// process's environment and env.
type Spawn func(dir string, argv, env []string) (*exec.Cmd, error)

// Start runs shell (with args) in a new pty session in dir, through Spawn
// when set. The process is the leader of its own session and process
// group.
func (t *Terminal) Start(dir string, argv ...string) error {
	env := append([]string{"TERM=xterm-256color", "COLORTERM=truecolor", "CHIPCHAT_TERMINAL=" + t.ID}, t.Env...)
	var cmd *exec.Cmd
	if t.Spawn != nil {
		var err error
		if cmd, err = t.Spawn(dir, argv, env); err != nil {
			return err
		}
		if cmd.Env == nil {
			cmd.Env = append(os.Environ(), env...)
		}
	} else {
		if len(argv) == 0 {
			argv = []string{DefaultShell()}
		}
		cmd = exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
	}
	t.mu.Lock()
	cols, rows := t.screen.Size()
	t.mu.Unlock()
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	if err != nil {
		return err
	}
	t.mu.Lock()
	if t.exited {
		t.screen.Write([]byte("\r\n"))
	}
	t.ptmx, t.cmd, t.pgid = ptmx, cmd, cmd.Process.Pid
	t.running, t.exited, t.reported, t.exitSig = true, false, false, ""
	t.gen++
	gen := t.gen
	done := make(chan struct{})
	t.done = done
	t.mu.Unlock()
	go t.readLoop(ptmx, cmd, gen, done)
	return nil
}

// Done is closed when the program of the last Start has exited (nil
// before Start). It may be read from any goroutine.
func (t *Terminal) Done() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.done
}

// ExitSignal is the name of the signal that ended the program ("killed"),
// "" when it exited by itself or still runs.
func (t *Terminal) ExitSignal() string { t.mu.Lock(); defer t.mu.Unlock(); return t.exitSig }

func (t *Terminal) readLoop(ptmx *os.File, cmd *exec.Cmd, gen int, done chan struct{}) {
	buf := make([]byte, 64*1024)
	for {
		n, err := ptmx.Read(buf)
		if n > 0 {
			t.ingest(buf[:n])
		}
		if err != nil {
			break
		}
	}
	werr := cmd.Wait()
	code, sig := 0, ""
	note := ""
	if werr != nil {
		var ee *exec.ExitError
		if errors.As(werr, &ee) {
			code = ee.ExitCode()
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				sig = ws.Signal().String()
				note = signalNote(ws.Signal())
			}
		} else {
			code = -1
		}
	}
	if note == "" {
		note = "exited " + strconv.Itoa(code)
	}
	t.mu.Lock()
	if t.gen == gen {
		t.running, t.exited, t.code, t.exitSig, t.exitNote = false, true, code, sig, note
		t.screen.Write([]byte("\r\n\x1b[0m[process " + note + "]"))
	}
	t.mu.Unlock()
	ptmx.Close()
	close(done)
	t.signal()
}

// ingest feeds output to the screen, answers queries and signals an update.
// It is the pane's ingest path (used by BenchmarkPaneIngest).
func (t *Terminal) ingest(p []byte) {
	t.mu.Lock()
	t.screen.Write(p)
	rep := t.screen.Replies()
	t.mu.Unlock()
	if len(rep) > 0 {
		t.Write(rep)
	}
	t.signal()
}

func (t *Terminal) signal() {
	select {
	case t.dirty <- struct{}{}:
	default:
	}
}

// Wait returns a command that waits for the next update (coalesced: at
// most one UpdatedMsg per FrameInterval) or for the exit of the process.
// Keep exactly one outstanding: issue it again after each message.
func (t *Terminal) Wait() tea.Cmd {
	return func() tea.Msg {
		<-t.dirty
		t.mu.Lock()
		if t.exited && !t.reported {
			t.reported = true
			code := t.code
			t.mu.Unlock()
			return ExitedMsg{ID: t.ID, Code: code}
		}
		closed := t.closed
		t.mu.Unlock()
		if closed {
			return nil
		}
		if d := FrameInterval - time.Since(t.lastFrame); d > 0 {
			time.Sleep(d)
		}
		t.lastFrame = time.Now()
		return UpdatedMsg{ID: t.ID}
	}
}

// Write sends bytes (keys, pastes, replies) to the process.
func (t *Terminal) Write(p []byte) error {
	t.mu.Lock()
	f := t.ptmx
	ok := t.running
	t.mu.Unlock()
	if f == nil || !ok {
		return errors.New("terminal: not running")
	}
	t.wmu.Lock()
	defer t.wmu.Unlock()
	_, err := f.Write(p)
	return err
}

// Resize changes the screen and the pty size (SIGWINCH to the program).
// The ioctl runs under mu: readLoop closes the pty only after it cleared
// running under mu, and Close only after it set closed, so the file is
// never closed while Setsize reads it.
func (t *Terminal) Resize(cols, rows int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.screen.Resize(cols, rows)
	if t.ptmx != nil && t.running && !t.closed {
		_ = pty.Setsize(t.ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	}
}

// Running reports whether the process is alive; Exited its exit status.
func (t *Terminal) Running() bool { t.mu.Lock(); defer t.mu.Unlock(); return t.running }

// Exited returns whether the process ended and its code.
func (t *Terminal) Exited() (bool, int) { t.mu.Lock(); defer t.mu.Unlock(); return t.exited, t.code }

// ExitNote is how the program ended, as a user reads it: "exited 3",
// "killed (SIGKILL)", "terminated (SIGTERM)"; "" while it runs or before
// it ran.
func (t *Terminal) ExitNote() string { t.mu.Lock(); defer t.mu.Unlock(); return t.exitNote }

// signalNames are the signals a program is commonly ended by, by name.
var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT", syscall.SIGILL: "SIGILL",
	syscall.SIGTRAP: "SIGTRAP", syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE",
	syscall.SIGKILL: "SIGKILL", syscall.SIGUSR1: "SIGUSR1", syscall.SIGSEGV: "SIGSEGV", syscall.SIGUSR2: "SIGUSR2",
	syscall.SIGPIPE: "SIGPIPE", syscall.SIGALRM: "SIGALRM", syscall.SIGTERM: "SIGTERM",
}

// signalNote is "killed (SIGKILL)": the signal's description and its
// name ("signal 42" for one without a name).
func signalNote(sig syscall.Signal) string {
	name, ok := signalNames[sig]
	if !ok {
		return "signal " + strconv.Itoa(int(sig))
	}
	return sig.String() + " (" + name + ")"
}

// Pgid returns the process group of the shell (0 before Start).
func (t *Terminal) Pgid() int { t.mu.Lock(); defer t.mu.Unlock(); return t.pgid }

// Do runs f with the screen locked. f must not keep s.
func (t *Terminal) Do(f func(s *Screen)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f(t.screen)
}

// Close ends the process group (SIGHUP, then SIGKILL after a short grace)
// and every other process still in the pty's session, and closes the pty.
func (t *Terminal) Close() {
	t.mu.Lock()
	t.closed = true
	pgid, f, running := t.pgid, t.ptmx, t.running
	t.mu.Unlock()
	if pgid > 0 {
		killSession(pgid, running)
	}
	if f != nil {
		f.Close()
	}
	t.signal()
}

// CloseTerminals closes ts, one after the other. Close may wait out the
// grace before SIGKILL: the app calls it off the UI goroutine.
func CloseTerminals(ts ...*Terminal) {
	for _, t := range ts {
		t.Close()
	}
}

// Closing is a command that closes ts (CloseTerminals) and sends nothing.
func Closing(ts ...*Terminal) tea.Cmd {
	return func() tea.Msg { CloseTerminals(ts...); return nil }
}

func killSession(sid int, running bool) {
	_ = syscall.Kill(-sid, syscall.SIGHUP)
	_ = syscall.Kill(-sid, syscall.SIGCONT)
	deadline := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(deadline) {
		if syscall.Kill(-sid, 0) == syscall.ESRCH && len(sessionMembers(sid)) == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = syscall.Kill(-sid, syscall.SIGKILL)
	for _, pid := range sessionMembers(sid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
