package acpagents

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"

	acp "github.com/coder/acp-go-sdk"
)

// terminals backs the terminal/* methods with plain processes (output to a
// buffer, no pty), for checking how an agent uses a client's terminals.
type terminals struct {
	dir  string
	mu   sync.Mutex
	next int
	m    map[string]*term
}

type term struct {
	cmd   *exec.Cmd
	out   *limitBuffer
	done  chan struct{}
	state *os.ProcessState
}

// limitBuffer keeps the last limit bytes written (all when limit <= 0).
type limitBuffer struct {
	mu        sync.Mutex
	b         []byte
	limit     int
	truncated bool
}

func (l *limitBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	if l.limit > 0 && len(l.b) > l.limit {
		l.b = append([]byte(nil), l.b[len(l.b)-l.limit:]...)
		l.truncated = true
	}
	return len(p), nil
}

func (l *limitBuffer) get() (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b), l.truncated
}

// EnableTerminals makes the client serve terminal/* by running commands in
// dir (or the cwd the agent names).
func (c *Client) EnableTerminals(dir string) {
	c.mu.Lock()
	c.terms = &terminals{dir: dir, m: map[string]*term{}}
	c.mu.Unlock()
}

func (c *Client) terminals() *terminals {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.terms
}

func (c *Client) recordCall(kind string, req any) {
	b, _ := json.Marshal(req)
	c.add(Event{Kind: kind, JSON: string(b)})
}

func (ts *terminals) get(id string) (*term, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.m[id]
	if t == nil {
		return nil, acp.NewInvalidParams(map[string]any{"terminalId": id, "error": "no such terminal"})
	}
	return t, nil
}

func exitStatus(st *os.ProcessState) *acp.TerminalExitStatus {
	if st == nil {
		return nil
	}
	es := &acp.TerminalExitStatus{}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		es.Signal = acp.Ptr(ws.Signal().String())
	} else {
		es.ExitCode = acp.Ptr(st.ExitCode())
	}
	return es
}

// CreateTerminal implements acp.Client.
func (c *Client) CreateTerminal(_ context.Context, r acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	ts := c.terminals()
	if ts == nil {
		return acp.CreateTerminalResponse{}, errNoTerminal
	}
	c.recordCall("terminal/create", r)
	cmd := exec.Command(r.Command, r.Args...)
	cmd.Dir = ts.dir
	if r.Cwd != nil && *r.Cwd != "" {
		cmd.Dir = *r.Cwd
	}
	cmd.Env = append(cmd.Environ(), envList(r.Env)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &limitBuffer{}
	if r.OutputByteLimit != nil {
		out.limit = *r.OutputByteLimit
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return acp.CreateTerminalResponse{}, acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	t := &term{cmd: cmd, out: out, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		t.state = cmd.ProcessState
		close(t.done)
	}()
	ts.mu.Lock()
	ts.next++
	id := fmt.Sprintf("term-%d", ts.next)
	ts.m[id] = t
	ts.mu.Unlock()
	return acp.CreateTerminalResponse{TerminalId: id}, nil
}

func envList(vs []acp.EnvVariable) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Name+"="+v.Value)
	}
	return out
}

// TerminalOutput implements acp.Client.
func (c *Client) TerminalOutput(_ context.Context, r acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	ts := c.terminals()
	if ts == nil {
		return acp.TerminalOutputResponse{}, errNoTerminal
	}
	c.recordCall("terminal/output", r)
	t, err := ts.get(r.TerminalId)
	if err != nil {
		return acp.TerminalOutputResponse{}, err
	}
	out, trunc := t.out.get()
	resp := acp.TerminalOutputResponse{Output: out, Truncated: trunc}
	select {
	case <-t.done:
		resp.ExitStatus = exitStatus(t.state)
	default:
	}
	return resp, nil
}

// WaitForTerminalExit implements acp.Client.
func (c *Client) WaitForTerminalExit(ctx context.Context, r acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	ts := c.terminals()
	if ts == nil {
		return acp.WaitForTerminalExitResponse{}, errNoTerminal
	}
	c.recordCall("terminal/wait_for_exit", r)
	t, err := ts.get(r.TerminalId)
	if err != nil {
		return acp.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		return acp.WaitForTerminalExitResponse{}, ctx.Err()
	}
	es := exitStatus(t.state)
	return acp.WaitForTerminalExitResponse{ExitCode: es.ExitCode, Signal: es.Signal}, nil
}

// KillTerminal implements acp.Client.
func (c *Client) KillTerminal(_ context.Context, r acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	ts := c.terminals()
	if ts == nil {
		return acp.KillTerminalResponse{}, errNoTerminal
	}
	c.recordCall("terminal/kill", r)
	t, err := ts.get(r.TerminalId)
	if err != nil {
		return acp.KillTerminalResponse{}, err
	}
	_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	return acp.KillTerminalResponse{}, nil
}

// ReleaseTerminal implements acp.Client.
func (c *Client) ReleaseTerminal(_ context.Context, r acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	ts := c.terminals()
	if ts == nil {
		return acp.ReleaseTerminalResponse{}, errNoTerminal
	}
	c.recordCall("terminal/release", r)
	t, err := ts.get(r.TerminalId)
	if err != nil {
		return acp.ReleaseTerminalResponse{}, err
	}
	select {
	case <-t.done:
	default:
		_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	}
	ts.mu.Lock()
	delete(ts.m, r.TerminalId)
	ts.mu.Unlock()
	return acp.ReleaseTerminalResponse{}, nil
}

// stopTerminals kills every terminal still running.
func (c *Client) stopTerminals() {
	ts := c.terminals()
	if ts == nil {
		return
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for id, t := range ts.m {
		select {
		case <-t.done:
		default:
			_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
			<-t.done
		}
		delete(ts.m, id)
	}
}
