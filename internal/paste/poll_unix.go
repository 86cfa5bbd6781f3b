//go:build unix

package paste

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// waitReadable reports whether a read of f would not block (bytes, or the
// end) within d.
func waitReadable(f *os.File, d time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(f.Fd()), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(d/time.Millisecond))
		if err == unix.EINTR {
			continue
		}
		return err == nil && n > 0 && fds[0].Revents&(unix.POLLIN|unix.POLLHUP) != 0
	}
}
