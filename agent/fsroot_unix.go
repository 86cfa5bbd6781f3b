//go:build unix

package agent

import (
	"errors"
	"os"
	"syscall"
)

// acpNonBlock opens without waiting: a FIFO with no writer opens at once
// (and is then refused by its mode) instead of blocking the request, and
// a terminal device never becomes chipchat's controlling terminal.
const acpNonBlock = syscall.O_NONBLOCK | syscall.O_NOCTTY

// acpIsSocketErr reports an open(2) failure that means a socket (or
// another file that cannot be opened as one): ENXIO, EOPNOTSUPP.
func acpIsSocketErr(err error) bool {
	return errors.Is(err, syscall.ENXIO) || errors.Is(err, syscall.EOPNOTSUPP)
}

// acpLinks is the file's hard-link count.
func acpLinks(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// acpIsLoopErr reports ELOOP: a symlink loop, or a symlink put on the path
// while os.Root walked it.
func acpIsLoopErr(err error) bool { return errors.Is(err, syscall.ELOOP) }
