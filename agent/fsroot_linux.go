package agent

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// acpFdPath is where the open file f is now, as the kernel names it
// (/proc/self/fd): symlinks resolved, the path of the inode itself.
func acpFdPath(f *os.File) (string, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return "", err
	}
	var p string
	var rerr error
	if err := rc.Control(func(fd uintptr) {
		p, rerr = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10))
	}); err != nil {
		return "", err
	}
	if rerr != nil {
		return "", rerr
	}
	if !filepath.IsAbs(p) || strings.HasSuffix(p, " (deleted)") {
		return "", errors.New("no path")
	}
	return p, nil
}
