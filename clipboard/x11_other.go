//go:build !unix

package clipboard

import "os/exec"

// detachedCommand runs exe; stdout and stderr are the null device.
func detachedCommand(exe string, args ...string) *exec.Cmd {
	return exec.Command(exe, args...)
}
