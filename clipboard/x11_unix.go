//go:build unix

package clipboard

import (
	"os/exec"
	"syscall"
)

// detachedCommand runs exe in a session of its own, so the terminal's
// hangup and job control do not reach it; stdout and stderr are /dev/null.
func detachedCommand(exe string, args ...string) *exec.Cmd {
	cmd := exec.Command(exe, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return cmd
}
