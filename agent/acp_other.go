//go:build !unix

package agent

import "os/exec"

func acpSetGroup(*exec.Cmd) {}

// acpSignalGroup kills the process (there are no process groups here).
func acpSignalGroup(cmd *exec.Cmd, _ bool) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
