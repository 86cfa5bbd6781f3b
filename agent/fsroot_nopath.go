//go:build !linux && !darwin

package agent

import (
	"errors"
	"os"
)

// acpFdPath: this system gives no path for an open file; writes whose path
// crosses a symlink are refused instead (acpFS.checkDir).
func acpFdPath(*os.File) (string, error) {
	return "", errors.New("no path for an open file on this system")
}
