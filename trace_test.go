package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CHIPCHAT_MEMPROFILE: the heap profile is written when the run ends (a
// gzipped pprof profile), and a path that cannot be written is one error
// naming the variable, before the app starts.
func TestMemProfileWrittenAtStop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.heap")
	stop, err := startMemProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	keep := bytes.Repeat([]byte("x"), 4<<20) // an allocation the profile samples
	stop()
	_ = keep[len(keep)-1]
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("the profile is not a gzipped pprof profile: % x", b[:min(len(b), 8)])
	}
	_, err = startMemProfile(filepath.Join(t.TempDir(), "no", "such", "dir", "run.heap"))
	if err == nil || !strings.HasPrefix(err.Error(), "CHIPCHAT_MEMPROFILE: ") {
		t.Fatalf("an unwritable path: %v", err)
	}
}
