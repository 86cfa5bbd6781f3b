//go:build unix

package agent

import (
	"os/exec"
	"syscall"
)

// execSetGroup starts cmd in a process group of its own.
func execSetGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// execKillGroup sends SIGKILL to cmd's whole process group.
func execKillGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// execSignal names the signal that ended the process, if one did.
func execSignal(ee *exec.ExitError) string {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
