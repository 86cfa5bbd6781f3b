//go:build !unix

package agent

import (
	"os"
	"os/exec"
)

func acpSetGroup(*exec.Cmd) {}

// acpSignalGroup kills the process (there are no process groups here).
func acpSignalGroup(cmd *exec.Cmd, _ bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// acpExitOf is how a terminal's process ended.
func acpExitOf(ps *os.ProcessState, err error) TerminalExit {
	code := -1
	if ps != nil {
		code = ps.ExitCode()
	}
	return TerminalExit{ExitCode: &code}
}
