//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
)

// fileLocks: flock tells whether a lease is held.
const fileLocks = true

// lockFile takes an exclusive flock on f without waiting: false when
// another open file (in any process, this one included) holds it.
func lockFile(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
