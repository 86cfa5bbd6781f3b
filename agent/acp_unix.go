//go:build unix

package agent

import (
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
