//go:build linux

package remote

import (
	"os"
	"syscall"
	"testing"
)

// fileID is what changes when a file is written or replaced: its inode
// and its change time.
func fileID(t *testing.T, path string) [3]int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return [3]int64{int64(st.Ino), st.Ctim.Sec, st.Ctim.Nsec}
}
