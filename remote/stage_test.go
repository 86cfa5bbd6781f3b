package remote

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (f *fakeClock) now() time.Time { return f.t }

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestStageUploadsOnceAndVerifies(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s, c := newConn(t, Options{Now: clock.now})
	ctx := context.Background()
	data := bytes.Repeat([]byte("binary\x00\xff"), 200000) // 1.6 MB
	st, err := c.Stage(ctx, "../dir/shot.bin", bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("stage: %v\n%s", err, s.Log())
	}
	want := filepath.Join(s.Home, ".cache/chipchat/att", sum(data), "shot.bin")
	if st.Path != want || st.SHA256 != sum(data) || st.Uploaded != int64(len(data)) {
		t.Fatalf("staged %+v, want path %s, %d bytes uploaded", st, want, len(data))
	}
	got, err := os.ReadFile(want)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("remote copy: %d bytes, %v", len(got), err)
	}
	id := fileID(t, want)
	logins := s.Logins()

	clock.t = clock.t.Add(time.Minute)
	again, err := c.Stage(ctx, "shot.bin", bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if again.Path != want || again.Uploaded != 0 {
		t.Fatalf("second stage %+v: want the same path, nothing uploaded", again)
	}
	if fileID(t, want) != id {
		t.Fatal("the second stage wrote the remote file again")
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(want), ".*")); len(left) != 0 {
		t.Fatalf("part files left: %v", left)
	}
	if n := s.Logins(); n != logins || n != 1 {
		t.Fatalf("%d logins, want the master's one", n)
	}
	fi, err := os.Stat(filepath.Dir(want))
	if err != nil || !fi.ModTime().Equal(clock.t) {
		t.Fatalf("use time %v, want the clock's %v (%v)", fi.ModTime(), clock.t, err)
	}
}

// TestStageKeepsTheBudget stages a, b, uses a again, then stages c with
// room for two: b, the least recently used, goes.
func TestStageKeepsTheBudget(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s, c := newConn(t, Options{Now: clock.now, CacheBytes: 2500})
	ctx := context.Background()
	files := map[string][]byte{"a": bytes.Repeat([]byte("a"), 1000), "b": bytes.Repeat([]byte("b"), 1000), "c": bytes.Repeat([]byte("c"), 1000)}
	stage := func(name string) {
		t.Helper()
		clock.t = clock.t.Add(time.Minute)
		if _, err := c.Stage(ctx, name, bytes.NewReader(files[name]), int64(len(files[name]))); err != nil {
			t.Fatalf("stage %s: %v", name, err)
		}
	}
	stage("a")
	stage("b")
	stage("a")
	stage("c")
	att := filepath.Join(s.Home, ".cache/chipchat/att")
	for name, kept := range map[string]bool{"a": true, "b": false, "c": true} {
		_, err := os.Stat(filepath.Join(att, sum(files[name]), name))
		if (err == nil) != kept {
			t.Errorf("%s: kept = %v, want %v", name, err == nil, kept)
		}
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{"a.png": "a.png", "../../etc/passwd": "passwd", ".hidden": "hidden", "": "file", "/": "file", "x\x1b[2Jy": "x[2Jy", `c:\dir\f.txt`: "f.txt", "..": "file"} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// The master ending between two stagings (a dropped network, ssh -O
// exit) loses the sftp session with it; the next Stage opens another
// over a new master instead of failing.
func TestStageAfterTheMasterEnded(t *testing.T) {
	s, c := newConn(t, Options{})
	ctx := context.Background()
	if _, err := c.Stage(ctx, "a.txt", bytes.NewReader([]byte("one")), 3); err != nil {
		t.Fatalf("stage: %v\n%s", err, s.Log())
	}
	if out, err := c.command(ctx, append(c.sshArgs(true), "-O", "exit"), "").CombinedOutput(); err != nil {
		t.Fatalf("ssh -O exit: %v: %s", err, out)
	}
	st, err := c.Stage(ctx, "b.txt", bytes.NewReader([]byte("two")), 3)
	if err != nil {
		t.Fatalf("stage after the master ended: %v", err)
	}
	if got, err := os.ReadFile(st.Path); err != nil || string(got) != "two" {
		t.Fatalf("remote copy %q, %v", got, err)
	}
}

// A program is staged executable under bin/, once: staged again it sends
// nothing (its sha256 checked there); a copy changed on the remote is
// staged anew; attachments' eviction never takes it; staging another
// program removes those unused for 30 days, not the ones used since.
func TestStageProgram(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s, c := newConn(t, Options{Now: clock.now, CacheBytes: 1})
	ctx := context.Background()
	prog := []byte("#!/bin/sh\necho staged program\n")
	st, err := c.StageProgram(ctx, "chipchat", bytes.NewReader(prog), int64(len(prog)))
	if err != nil {
		t.Fatalf("stage: %v\n%s", err, s.Log())
	}
	want := filepath.Join(s.Home, ".cache/chipchat/bin", sum(prog), "chipchat")
	if st.Path != want || st.Uploaded != int64(len(prog)) {
		t.Fatalf("staged %+v, want %s", st, want)
	}
	if out, err := c.Run(ctx, []string{want}, nil); err != nil || !bytes.Contains(out, []byte("staged program")) {
		t.Fatalf("running it: %q %v", out, err)
	}
	if again, err := c.StageProgram(ctx, "chipchat", bytes.NewReader(prog), int64(len(prog))); err != nil || again.Uploaded != 0 {
		t.Fatalf("again: %+v %v", again, err)
	}
	if err := os.WriteFile(want, []byte("#!/bin/sh\necho tampered!!!!!!!!!!!!\n"), 0o755); err != nil { // the same size
		t.Fatal(err)
	}
	if fixed, err := c.StageProgram(ctx, "chipchat", bytes.NewReader(prog), int64(len(prog))); err != nil || fixed.Uploaded != int64(len(prog)) {
		t.Fatalf("after a change there: %+v %v", fixed, err)
	}
	if got, _ := os.ReadFile(want); !bytes.Equal(got, prog) {
		t.Fatalf("the program there is %q", got)
	}
	att := []byte("an attachment over the 1-byte budget")
	if _, err := c.Stage(ctx, "a.txt", bytes.NewReader(att), int64(len(att))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(want); err != nil {
		t.Fatalf("attachment eviction took the program: %v", err)
	}

	clock.t = clock.t.Add(20 * 24 * time.Hour)
	used := []byte("#!/bin/sh\necho used lately\n")
	if _, err := c.StageProgram(ctx, "chipchat", bytes.NewReader(used), int64(len(used))); err != nil {
		t.Fatal(err)
	}
	clock.t = clock.t.Add(11 * 24 * time.Hour) // the first unused for 31 days, the second for 11
	newer := []byte("#!/bin/sh\necho newer\n")
	if _, err := c.StageProgram(ctx, "chipchat", bytes.NewReader(newer), int64(len(newer))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(want); err == nil {
		t.Error("the program unused for 31 days is still there")
	}
	for _, b := range [][]byte{used, newer} {
		if _, err := os.Stat(filepath.Join(s.Home, ".cache/chipchat/bin", sum(b), "chipchat")); err != nil {
			t.Errorf("%q: %v", b, err)
		}
	}
}
