//go:build !unix

package agent

import "os/exec"

func execSetGroup(*exec.Cmd) {}

// execKillGroup kills the process (there are no process groups here).
func execKillGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func execSignal(*exec.ExitError) string { return "" }
