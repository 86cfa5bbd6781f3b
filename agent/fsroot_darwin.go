package agent

import (
	"bytes"
	"errors"
	"os"
	"syscall"
	"unsafe"
)

// acpFdPath is where the open file f is now, as the kernel names it
// (fcntl F_GETPATH): symlinks resolved.
func acpFdPath(f *os.File) (string, error) {
	const fGetPath = 50 // F_GETPATH, <sys/fcntl.h>
	rc, err := f.SyscallConn()
	if err != nil {
		return "", err
	}
	var buf [1024]byte // MAXPATHLEN
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, fGetPath, uintptr(unsafe.Pointer(&buf[0])))
	}); err != nil {
		return "", err
	}
	if errno != 0 {
		return "", errno
	}
	n := bytes.IndexByte(buf[:], 0)
	if n <= 0 {
		return "", errors.New("no path")
	}
	return string(buf[:n]), nil
}
