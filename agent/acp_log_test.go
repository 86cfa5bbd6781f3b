package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestACPLogPath(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	if got, want := ACPLogPath(), filepath.Join(state, "chipchat", "chipchat.log"); got != want {
		t.Errorf("ACPLogPath() = %q, want %q", got, want)
	}
	home := t.TempDir()
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", home)
	if got, want := ACPLogPath(), filepath.Join(home, ".local", "state", "chipchat", "chipchat.log"); got != want {
		t.Errorf("ACPLogPath() without XDG_STATE_HOME = %q, want %q", got, want)
	}
}

func TestACPLogRotatesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "chipchat.log")
	f := &acpLogFile{path: path, max: 100}
	line := strings.Repeat("a", 39) + "\n" // 40 bytes
	for i := 0; i < 7; i++ {
		f.Write([]byte(line))
	}
	// 40+40 fit, the third starts chipchat.log anew: 7 writes leave one
	// record in the file and two in .1 (the older ones are gone).
	cur, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	prev, err := os.ReadFile(path + ".1")
	if err != nil {
		t.Fatal(err)
	}
	if len(cur) != 40 || len(prev) != 80 {
		t.Errorf("chipchat.log has %d bytes, .1 %d; want 40 and 80", len(cur), len(prev))
	}
	for _, p := range []string{path, path + ".1"} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v", p, fi.Mode(), err)
		}
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("log directory mode %v, %v", fi.Mode(), err)
	}
	// A new writer appends to what is there and counts it.
	g := &acpLogFile{path: path, max: 100}
	g.Write([]byte(line))
	g.Write([]byte(line))
	if cur, _ := os.ReadFile(path); len(cur) != 40 {
		t.Errorf("after reopening, chipchat.log has %d bytes, want 40 (rotated at 120)", len(cur))
	}
}

func TestACPLoggerKeepsTheLastError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chipchat.log")
	tail := &acpLogTail{}
	log := newACPLogger(path, tail, "agent", "fake", "pid", 42)
	log.Error("failed to parse incoming message", "raw", strings.Repeat("x", 10_000))
	log.Info("connection closed", "cause", "peer connection closed")
	if got := tail.line(); !strings.Contains(got, "failed to parse incoming message") || strings.Contains(got, "pid=") || len(got) > 3000 {
		t.Errorf("kept line = %q (%d bytes)", got[:min(len(got), 100)], len(got))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, "pid=42") || !strings.Contains(s, "connection closed") || len(s) > 4000 {
		t.Errorf("log file (%d bytes):\n%.300s", len(s), s)
	}
}

// Once chipchat has stopped an agent (Close), the SDK's late records
// ("connection closed", logged after its Done) never reach the file: the
// log's directory may be gone by then, or being removed.
func TestACPLogWritesNothingAfterTheProcessEnded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chipchat.log")
	tail := &acpLogTail{}
	log := newACPLogger(path, tail, "agent", "fake", "pid", 43)
	log.Warn("before the end")
	tail.end()
	log.Info("connection closed", "cause", "peer connection closed")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, "before the end") || strings.Contains(s, "connection closed") {
		t.Errorf("log file:\n%s", s)
	}
	if got := tail.line(); !strings.Contains(got, "before the end") {
		t.Errorf("kept line = %q", got)
	}
}
