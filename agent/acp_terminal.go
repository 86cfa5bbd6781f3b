package agent

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/message"
)

// TerminalHost runs the commands an ACP agent asks for with terminal/create
// (the ui backs it with chipchat's pty panes: one tab per terminal, named
// after its tool call). ExecTerminals is the in-process default.
type TerminalHost interface {
	Start(spec TerminalSpec) (Terminal, error)
}

// TerminalSpec is one terminal/create request.
type TerminalSpec struct {
	ID string // the terminal id the agent (and a tool item's terminal content) uses
	// Name is the title of the unfinished tool call it most likely runs
	// for, else the command line. It is a guess: the tool item whose
	// content names ID (a ToolUpdate with terminal content) is the sure
	// link, and a UI renames the tab after it.
	Name      string
	SessionID string
	Command   string
	Args      []string
	Env       []string // added to chipchat's environment ("KEY=value")
	Dir       string
	// OutputLimit is how many bytes of output to keep: older output is
	// dropped from the front, at a character boundary, and the output
	// reported truncated (TerminalBuffer does this).
	OutputLimit int
}

// TerminalExit is how a terminal's command ended: its exit code, or the
// signal that killed it.
type TerminalExit struct {
	ExitCode *int
	Signal   string
}

// Terminal is one running (or finished) command. Its methods may be called
// from several goroutines.
type Terminal interface {
	// Output is the output kept so far, whether older output was dropped,
	// and the exit status once the command has ended (else nil).
	Output() (output string, truncated bool, exit *TerminalExit)
	// Wait waits for the command to end, or for ctx.
	Wait(ctx context.Context) (TerminalExit, error)
	// Kill ends the command; the terminal stays readable.
	Kill() error
	// Release kills the command if it still runs and frees the terminal.
	Release() error
}

// ACPDefaultTerminalOutput is the output kept when the agent sets no
// outputByteLimit.
const ACPDefaultTerminalOutput = 1 << 20

// TerminalBuffer keeps the last limit bytes written to it, dropping older
// output at a character boundary. It is safe for concurrent use.
type TerminalBuffer struct {
	limit     int
	mu        sync.Mutex
	buf       []byte
	truncated bool
}

// NewTerminalBuffer returns a buffer keeping limit bytes (0 or less:
// ACPDefaultTerminalOutput).
func NewTerminalBuffer(limit int) *TerminalBuffer {
	if limit <= 0 {
		limit = ACPDefaultTerminalOutput
	}
	return &TerminalBuffer{limit: limit}
}

// Write appends p (it never fails).
func (b *TerminalBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	// Compact only when twice over, so that writing costs amortized O(len(p)).
	if len(b.buf) > 2*b.limit {
		cut := acpCharCut(b.buf, len(b.buf)-b.limit)
		b.buf = append(b.buf[:0], b.buf[cut:]...)
		b.truncated = true
	}
	return len(p), nil
}

// Output is the kept output (at most limit bytes, starting at a character)
// and whether anything was dropped.
func (b *TerminalBuffer) Output() (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf) <= b.limit {
		return string(b.buf), b.truncated
	}
	return string(b.buf[acpCharCut(b.buf, len(b.buf)-b.limit):]), true
}

// acpCharCut moves cut forward to the start of a character.
func acpCharCut(b []byte, cut int) int {
	for i := 0; i < utf8.UTFMax && cut < len(b) && !utf8.RuneStart(b[cut]); i++ {
		cut++
	}
	return cut
}

// ExecTerminals runs terminal commands as plain child processes (no pty),
// output and errors interleaved in one buffer.
type ExecTerminals struct{}

// Start starts spec's command. A command without args that looks like a
// shell line ("ls -la | wc") runs through sh -c, as agents send both forms.
func (ExecTerminals) Start(spec TerminalSpec) (Terminal, error) {
	var cmd *exec.Cmd
	if len(spec.Args) == 0 && strings.ContainsAny(spec.Command, " \t|&;<>()$`\"'*?~\n") {
		cmd = exec.Command("sh", "-c", spec.Command)
	} else {
		cmd = exec.Command(spec.Command, spec.Args...)
	}
	cmd.Dir = spec.Dir
	cmd.Env = append(os.Environ(), spec.Env...)
	out := NewTerminalBuffer(spec.OutputLimit)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 2 * time.Second
	acpSetGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t := &execTerminal{cmd: cmd, out: out, done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		t.exit = acpExitOf(cmd.ProcessState, err)
		close(t.done)
	}()
	return t, nil
}

type execTerminal struct {
	cmd  *exec.Cmd
	out  *TerminalBuffer
	done chan struct{}
	exit TerminalExit // valid after done
}

func (t *execTerminal) Output() (string, bool, *TerminalExit) {
	s, tr := t.out.Output()
	select {
	case <-t.done:
		e := t.exit
		return s, tr, &e
	default:
		return s, tr, nil
	}
}

func (t *execTerminal) Wait(ctx context.Context) (TerminalExit, error) {
	select {
	case <-t.done:
		return t.exit, nil
	case <-ctx.Done():
		return TerminalExit{}, ctx.Err()
	}
}

func (t *execTerminal) Kill() error {
	select {
	case <-t.done:
	default:
		acpSignalGroup(t.cmd, true)
	}
	return nil
}

func (t *execTerminal) Release() error { return t.Kill() }

// --- the client's terminal/* methods ---

type acpTerminals struct {
	host TerminalHost
	mu   sync.Mutex
	n    int
	byID map[string]*acpTerminal
}

type acpTerminal struct {
	sid string
	t   Terminal
}

func (ts *acpTerminals) get(sid acp.SessionId, id string) (Terminal, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.byID[id]
	if t == nil || t.sid != string(sid) {
		return nil, &acp.RequestError{Code: -32002, Message: "Resource not found: no terminal " + id}
	}
	return t.t, nil
}

func (ts *acpTerminals) releaseAll() {
	ts.mu.Lock()
	all := ts.byID
	ts.byID = map[string]*acpTerminal{}
	ts.mu.Unlock()
	for _, t := range all {
		_ = t.t.Release()
	}
}

// runningTool is the title of the tool call a new terminal most likely runs
// for: the latest unfinished execute call, else the latest unfinished one.
func (t *acpTurn) runningTool() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	best := ""
	for i := len(t.order) - 1; i >= 0; i-- {
		tool := t.tools[t.order[i]]
		if tool == nil || tool.Status == message.ToolCompleted || tool.Status == message.ToolFailed {
			continue
		}
		if tool.Kind == "execute" {
			return tool.Title
		}
		if best == "" {
			best = tool.Title
		}
	}
	return best
}

func (c *acpClient) CreateTerminal(_ context.Context, r acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	roots := c.roots(r.SessionId)
	dir := ""
	if len(roots) > 0 {
		dir = roots[0]
	}
	if r.Cwd != nil && *r.Cwd != "" {
		real, err := acpResolve(roots, *r.Cwd)
		if err != nil {
			return acp.CreateTerminalResponse{}, err
		}
		dir = real
	}
	ts := c.a.terms
	ts.mu.Lock()
	ts.n++
	id := fmt.Sprintf("term-%d", ts.n)
	ts.mu.Unlock()
	spec := TerminalSpec{ID: id, SessionID: string(r.SessionId), Command: r.Command, Args: r.Args, Dir: dir, OutputLimit: ACPDefaultTerminalOutput}
	if r.OutputByteLimit != nil && *r.OutputByteLimit > 0 {
		spec.OutputLimit = *r.OutputByteLimit
	}
	for _, e := range r.Env {
		spec.Env = append(spec.Env, e.Name+"="+e.Value)
	}
	if t := c.turn(r.SessionId); t != nil {
		spec.Name = t.runningTool()
	}
	if spec.Name == "" {
		spec.Name = strings.TrimSpace(r.Command + " " + strings.Join(r.Args, " "))
	}
	term, err := ts.host.Start(spec)
	if err != nil {
		return acp.CreateTerminalResponse{}, &acp.RequestError{Code: -32603, Message: "could not run " + r.Command + ": " + err.Error()}
	}
	ts.mu.Lock()
	ts.byID[id] = &acpTerminal{sid: string(r.SessionId), t: term}
	ts.mu.Unlock()
	return acp.CreateTerminalResponse{TerminalId: id}, nil
}

func acpExitStatus(e TerminalExit) *acp.TerminalExitStatus {
	s := &acp.TerminalExitStatus{ExitCode: e.ExitCode}
	if e.Signal != "" {
		sig := e.Signal
		s.Signal = &sig
	}
	return s
}

func (c *acpClient) TerminalOutput(_ context.Context, r acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	t, err := c.a.terms.get(r.SessionId, r.TerminalId)
	if err != nil {
		return acp.TerminalOutputResponse{}, err
	}
	out, truncated, exit := t.Output()
	resp := acp.TerminalOutputResponse{Output: out, Truncated: truncated}
	if exit != nil {
		resp.ExitStatus = acpExitStatus(*exit)
	}
	return resp, nil
}

func (c *acpClient) WaitForTerminalExit(ctx context.Context, r acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	t, err := c.a.terms.get(r.SessionId, r.TerminalId)
	if err != nil {
		return acp.WaitForTerminalExitResponse{}, err
	}
	e, err := t.Wait(ctx)
	if err != nil {
		return acp.WaitForTerminalExitResponse{}, err
	}
	s := acpExitStatus(e)
	return acp.WaitForTerminalExitResponse{ExitCode: s.ExitCode, Signal: s.Signal}, nil
}

func (c *acpClient) KillTerminal(_ context.Context, r acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	t, err := c.a.terms.get(r.SessionId, r.TerminalId)
	if err != nil {
		return acp.KillTerminalResponse{}, err
	}
	return acp.KillTerminalResponse{}, t.Kill()
}

func (c *acpClient) ReleaseTerminal(_ context.Context, r acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	ts := c.a.terms
	t, err := ts.get(r.SessionId, r.TerminalId)
	if err != nil {
		return acp.ReleaseTerminalResponse{}, err
	}
	ts.mu.Lock()
	delete(ts.byID, r.TerminalId)
	ts.mu.Unlock()
	return acp.ReleaseTerminalResponse{}, t.Release()
}
