//go:build unix

package agent

import (
	"os"
	"os/exec"
	"syscall"
)

// acpSetGroup starts cmd in a process group of its own, so the agent
// and everything it spawns can be signalled together.
func acpSetGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// acpSignalGroup sends SIGTERM (SIGKILL when hard) to cmd's process group.
func acpSignalGroup(cmd *exec.Cmd, hard bool) {
	if cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if hard {
		sig = syscall.SIGKILL
	}
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
		_ = cmd.Process.Signal(sig)
	}
}

// acpExitOf is how a terminal's process ended.
func acpExitOf(ps *os.ProcessState, err error) TerminalExit {
	if ps == nil {
		code := -1
		return TerminalExit{ExitCode: &code}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return TerminalExit{Signal: acpSignalName(ws.Signal())}
	}
	code := ps.ExitCode()
	return TerminalExit{ExitCode: &code}
}

// acpSignalName is the signal's conventional name ("SIGKILL").
func acpSignalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	}
	return s.String()
}
