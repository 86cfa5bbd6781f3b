package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/remote"
	"github.com/chipchat/chipchat/terminal"
)

// helperCommand is the internal subcommand that serves an agent's client
// fs and terminals on a remote (agent.ServeHelper, agent.HelperExec).
const helperCommand = "remote-helper"

// runHelper is `chipchat remote-helper` (the protocol on stdio) and
// `chipchat remote-helper exec …` (a terminal's command).
func runHelper(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "exec" {
		err := agent.HelperExec(args[1:])
		fmt.Fprintf(stderr, "chipchat %s: %v\n", helperCommand, err)
		return 127
	}
	if len(args) > 0 {
		fmt.Fprintf(stderr, "chipchat %s: unexpected argument %s\n", helperCommand, quoteArg(args[0]))
		return 2
	}
	if err := agent.ServeHelper(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "chipchat %s: %v\n", helperCommand, err)
		return 1
	}
	return 0
}

// remoteHelper is chipchat staged on a remote project to run its helper:
// when the remote's `uname -sm` is this binary's OS and architecture, the
// binary is staged there once (content-addressed, remote.StageProgram)
// and its path kept; otherwise, or when staging fails, why not.
type remoteHelper struct {
	self  func() (string, error)                    // this binary (os.Executable)
	uname func(ctx context.Context) (string, error) // the remote's uname -sm
	conn  *remote.Conn

	mu       sync.Mutex
	path     string // staged, once it is
	refused  error  // a platform that is not ours: final
	uploaded int64  // bytes sent staging it, for tests
}

func newRemoteHelper(conn *remote.Conn) *remoteHelper {
	return &remoteHelper{self: os.Executable, uname: conn.Uname, conn: conn}
}

// staged is the helper's path on the remote, staging it on first use; a
// failed staging is tried again next time, a platform mismatch is not.
func (h *remoteHelper) staged(ctx context.Context) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.path != "" || h.refused != nil {
		return h.path, h.refused
	}
	out, err := h.uname(ctx)
	if err != nil {
		return "", fmt.Errorf("asking the remote's system: %w", err)
	}
	p, err := remote.ParseUname(out)
	if err != nil {
		h.refused = err
		return "", err
	}
	if mine := (remote.Platform{OS: runtime.GOOS, Arch: runtime.GOARCH}); p != mine {
		h.refused = fmt.Errorf("the remote is %s, chipchat here is %s", p, mine)
		return "", h.refused
	}
	self, err := h.self()
	if err != nil {
		return "", err
	}
	f, err := os.Open(self)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	st, err := h.conn.StageProgram(ctx, "chipchat", f, fi.Size())
	if err != nil {
		return "", fmt.Errorf("staging chipchat there: %w", err)
	}
	h.path, h.uploaded = st.Path, h.uploaded+st.Uploaded
	return h.path, nil
}

var _ agent.HostHelper = remoteHost{}

// Helper is chipchat's helper on the remote (agent.HostHelper): the
// staged binary's `remote-helper` over the master (ssh -T), in the
// project directory.
func (h remoteHost) Helper(ctx context.Context) (*exec.Cmd, error) {
	p, err := h.helper.staged(ctx)
	if err != nil {
		return nil, err
	}
	return h.conn.Process(context.Background(), remote.Command{Argv: []string{p, helperCommand}, Dir: h.Dir()})
}

// remoteTerms runs a remote agent's terminals as tabs of the terminal
// pane, each `ssh -tt` over the master running the staged helper's
// `remote-helper exec`, which finds the directory inside the project
// through os.Root and then runs the command there. Reading, waiting,
// killing (the local ssh: the remote side hangs up) and releasing are
// agentTerms'.
type remoteTerms struct {
	agentTerms
	rp *remoteProject
}

var _ agent.TerminalHost = remoteTerms{}

func (h remoteTerms) Start(spec agent.TerminalSpec) (agent.Terminal, error) {
	p, err := h.rp.helper.staged(context.Background())
	if err != nil {
		return nil, err
	}
	argv := []string{p, helperCommand, "exec", "--root", h.rp.Dir(), "--cwd", spec.Dir, "--", spec.Command}
	cmd, err := h.rp.conn.Terminal(context.Background(), remote.Command{Argv: append(argv, spec.Args...), Dir: h.rp.Dir(), Env: spec.Env})
	if err != nil {
		return nil, err
	}
	t, err := h.tabs.Start(terminal.AgentCommand{ID: spec.ID, Name: spec.Name, Command: cmd.Path, Args: cmd.Args[1:]})
	if err != nil {
		return nil, err
	}
	return &agentTerm{tabs: h.tabs, t: t, limit: spec.OutputLimit}, nil
}
