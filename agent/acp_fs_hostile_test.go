//go:build unix

package agent

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/hostileagent"
	"github.com/chipchat/chipchat/message"
)

// These tests run internal/hostileagent, an ACP agent that attacks its
// client, as a re-exec of the test binary, so chipchat's real stdio,
// JSON-RPC and fs handling are what is attacked. Each checks what the
// agent got, what the user sees (events) and what reached the disk.

// TestHostileACPHelperProcess is the hostile agent; it does nothing in a
// normal run.
func TestHostileACPHelperProcess(t *testing.T) { runAsAgent(hostileagent.Env, hostileagent.Main) }

type hostileHarness struct {
	t       *testing.T
	a       *ACP
	base    string // holds proj and outside
	proj    string // the session's directory
	outside string // a directory beside it
}

func newHostile(t *testing.T, opts ACPOptions) *hostileHarness {
	t.Helper()
	base := t.TempDir()
	h := &hostileHarness{t: t, base: base, proj: filepath.Join(base, "proj"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{h.proj, h.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	opts.Env = append(opts.Env, hostileagent.Env+"=1")
	h.a = newSelfACP(t, "TestHostileACPHelperProcess", opts)
	return h
}

// run sends ops as one turn and returns the agent's results and the
// turn's events.
func (h *hostileHarness) run(ops ...hostileagent.Op) ([]hostileagent.Result, []Event) {
	h.t.Helper()
	return h.runOn("hostile", nil, ops...)
}

// runOn sends ops as one turn of thread; each event is handed to seen
// (when set) as it is emitted.
func (h *hostileHarness) runOn(thread string, seen func(Event), ops ...hostileagent.Op) ([]hostileagent.Result, []Event) {
	h.t.Helper()
	b, err := json.Marshal(ops)
	if err != nil {
		h.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var evs []Event
	emit := func(e Event) {
		evs = append(evs, e)
		if seen != nil {
			seen(e)
		}
	}
	if err := h.a.Run(ctx, Turn{ThreadID: thread, Prompt: string(b), Dir: h.proj}, emit); err != nil {
		h.t.Fatalf("turn: %v (events %v)", err, evs)
	}
	text := acpText(evs)
	var res []hostileagent.Result
	if err := json.Unmarshal([]byte(text), &res); err != nil || len(res) != len(ops) {
		h.t.Fatalf("the agent answered %q (%v)", text, err)
	}
	return res, evs
}

func (h *hostileHarness) path(rel string) string { return filepath.Join(h.proj, rel) }

// notices are the turn's notices.
func notices(evs []Event) []string {
	var out []string
	for _, e := range evs {
		if n, ok := e.(Notice); ok {
			out = append(out, n.Text)
		}
	}
	return out
}

func writesShown(evs []Event) []message.Tool {
	var out []message.Tool
	for _, e := range evs {
		if c, ok := e.(ToolCall); ok && strings.HasPrefix(c.Tool.CallID, "chipchat-write-") {
			out = append(out, c.Tool)
		}
	}
	return out
}

func mustWrite(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestHostileFIFORefusedAtOnce(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	if err := syscall.Mkfifo(h.path("pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// No writer ever opens the FIFO: a blocking open would hang the turn
	// until the test's timeout.
	res, evs := h.run(
		hostileagent.Op{Op: "read", Path: h.path("pipe")},
		hostileagent.Op{Op: "write", Path: h.path("pipe"), Content: "x"},
	)
	for i, r := range res {
		if !strings.Contains(r.Err, "pipe is a named pipe (FIFO), not a regular file") {
			t.Errorf("op %d on the FIFO: %+v", i, r)
		}
	}
	if fi, err := os.Lstat(h.path("pipe")); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi, err)
	}
	if n := notices(evs); len(n) != 2 || !strings.Contains(n[0], "refused the agent's read: pipe is a named pipe") {
		t.Errorf("notices = %q", n)
	}
}

func TestHostileSocketRefused(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Close(fd)
	// A socket path must be short; bind in the project through a relative
	// name.
	wd, _ := os.Getwd()
	if err := os.Chdir(h.proj); err != nil {
		t.Fatal(err)
	}
	err = syscall.Bind(fd, &syscall.SockaddrUnix{Name: "sock"})
	os.Chdir(wd)
	if err != nil {
		t.Skipf("bind: %v", err)
	}
	res, _ := h.run(hostileagent.Op{Op: "read", Path: h.path("sock")})
	if !strings.Contains(res[0].Err, "not a regular file") {
		t.Errorf("read of a socket: %+v", res[0])
	}
}

func TestHostileNonUTF8Refused(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	mustWrite(t, h.path("notes.bin"), []byte("text first\n\xff\xfe\x00binary"))
	mustWrite(t, h.path("ok.txt"), []byte("héllo <b> & \u2028\n"))
	res, evs := h.run(
		hostileagent.Op{Op: "read", Path: h.path("notes.bin")},
		hostileagent.Op{Op: "read", Path: h.path("ok.txt")},
	)
	if res[0].Err != "notes.bin is not UTF-8 text; chipchat reads text files only" {
		t.Errorf("read of a binary file: %+v", res[0])
	}
	if res[1].Err != "" || res[1].Head != "héllo <b> & \u2028\n" {
		t.Errorf("read of a text file: %+v", res[1])
	}
	if n := notices(evs); len(n) != 1 || n[0] != "chipchat refused the agent's read: notes.bin is not UTF-8 text; chipchat reads text files only" {
		t.Errorf("notices = %q", n)
	}
}

// allocated is the bytes allocated by f.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

func TestHostileLargeReadRefusedWithBoundedMemory(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	// 60 MB of random bytes, and 60 MB of text.
	rnd := make([]byte, 60<<20)
	rand.Read(rnd)
	mustWrite(t, h.path("random.bin"), rnd)
	line := []byte(strings.Repeat("x", 99) + "\n")
	text := make([]byte, 0, 60<<20)
	for len(text) < 60<<20 {
		text = append(text, line...)
	}
	mustWrite(t, h.path("big.log"), text)
	rnd, text = nil, nil
	h.run(hostileagent.Op{Op: "read", Path: h.path("missing")}) // the agent is up

	var res []hostileagent.Result
	var evs []Event
	// Whole: refused from the file's size, nothing read.
	whole := allocated(func() {
		res, evs = h.run(hostileagent.Op{Op: "read", Path: h.path("random.bin")}, hostileagent.Op{Op: "read", Path: h.path("big.log")})
	})
	for i, name := range []string{"random.bin", "big.log"} {
		if !strings.HasPrefix(res[i].Err, name+" is 60 MiB; chipchat sends the agent at most 9.9 MiB of text per read") {
			t.Errorf("whole read of %s: %+v", name, res[i])
		}
	}
	if n := notices(evs); len(n) != 2 {
		t.Errorf("notices = %q", n)
	}
	if whole > 4<<20 {
		t.Errorf("refusing two 60 MB reads allocated %d bytes", whole)
	}
	// From line 2 on: read until the limit is passed, then refused.
	part := allocated(func() {
		res, _ = h.run(hostileagent.Op{Op: "read", Path: h.path("big.log"), Line: ptr(2)})
	})
	if !strings.Contains(res[0].Err, "the lines asked for of big.log come to more than 9.9 MiB once encoded") {
		t.Errorf("read of big.log from line 2: %+v", res[0])
	}
	t.Logf("allocated: %d bytes refusing two whole reads, %d refusing the read from line 2", whole, part)
	if part > 40<<20 {
		t.Errorf("refusing the read from line 2 allocated %d bytes, for a 60 MB file", part)
	}
	// A part that fits is read, even far into the file.
	res, _ = h.run(hostileagent.Op{Op: "read", Path: h.path("big.log"), Line: ptr(600000), Limit: ptr(3)})
	if res[0].Err != "" || res[0].Len != 300 {
		t.Errorf("three lines of big.log: %+v", res[0])
	}
	// The random file, read in part, is refused as binary.
	res, _ = h.run(hostileagent.Op{Op: "read", Path: h.path("random.bin"), Line: ptr(1), Limit: ptr(1)})
	if !strings.Contains(res[0].Err, "not UTF-8 text") {
		t.Errorf("one line of random.bin: %+v", res[0])
	}
}

func ptr[T any](v T) *T { return &v }

func TestHostileGitAndDataDirWritesRefused(t *testing.T) {
	data := filepath.Join(t.TempDir(), "chipchat-data")
	t.Setenv("CHIPCHAT_HOME", data)
	extra := filepath.Join(t.TempDir(), "extra") // a --data-dir (ACPOptions.Protect)
	h := newHostile(t, ACPOptions{Protect: []string{extra}})
	// The data directories added as roots by mistake.
	h.a.opts.Roots = []string{data, h.outside, filepath.Dir(extra)}
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, h.path(".git/config"), []byte("[core]\n"))
	mustWrite(t, h.path("sub/.git/HEAD"), []byte("ref: refs/heads/main\n"))
	if err := os.Symlink(".git", h.path("gitlink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git/config", h.path("config-link")); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{h.path(".git/hooks/pre-commit"), "is inside .git"},
		{h.path(".git/config"), "is inside .git"},
		{h.path(".GIT/config"), "is inside .git"},
		{h.path("sub/.Git/hooks/post-checkout"), "is inside .git"},
		{h.path("gitlink/hooks/pre-commit"), "leads into .git (through a symlink)"},
		{h.path("gitlink/newdir/x"), "leads into .git (through a symlink)"},
		{h.path("config-link"), "leads into .git (through a symlink)"},
		{filepath.Join(data, "chipchat.db"), "inside chipchat's own directory"},
		{filepath.Join(extra, "x.txt"), "inside chipchat's own directory"},
	}
	var ops []hostileagent.Op
	for _, c := range cases {
		ops = append(ops, hostileagent.Op{Op: "write", Path: c.path, Content: "#!/bin/sh\ntouch /tmp/pwned\n"})
	}
	ops = append(ops, hostileagent.Op{Op: "write", Path: h.path("src/ok.txt"), Content: "fine\n"})
	res, evs := h.run(ops...)
	for i, c := range cases {
		if !strings.Contains(res[i].Err, c.want) {
			t.Errorf("write %s: %+v, want %q", c.path, res[i], c.want)
		}
	}
	if res[len(cases)].Err != "" {
		t.Errorf("an ordinary write failed: %+v", res[len(cases)])
	}
	for _, p := range []string{h.path(".git/hooks"), h.path(".git/newdir"), h.path("sub/.git/hooks"), filepath.Join(data, "chipchat.db"), extra} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	if b, _ := os.ReadFile(h.path(".git/config")); string(b) != "[core]\n" {
		t.Errorf(".git/config = %q", b)
	}
	if w := writesShown(evs); len(w) != 1 || w[0].Title != "Write src/ok.txt" {
		t.Errorf("write items = %+v", w)
	}
	if n := notices(evs); len(n) != len(cases) || !strings.Contains(n[0], "refused the agent's write: .git/hooks/pre-commit is inside .git") {
		t.Errorf("notices = %q", n)
	}
}

func TestHostilePathsRefused(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	mustWrite(t, filepath.Join(h.outside, "secret.txt"), []byte("secret\n"))
	mustWrite(t, h.path("in/file.txt"), []byte("inside\n"))
	if err := os.Symlink("../outside", h.path("rel-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(h.outside, h.path("abs-out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in/file.txt", h.path("in-link")); err != nil {
		t.Fatal(err)
	}
	res, evs := h.run(
		hostileagent.Op{Op: "read", Path: h.path("../outside/secret.txt")},
		hostileagent.Op{Op: "read", Path: "../outside/secret.txt"},
		hostileagent.Op{Op: "read", Path: h.path("rel-out/secret.txt")},
		hostileagent.Op{Op: "read", Path: h.path("abs-out/secret.txt")},
		hostileagent.Op{Op: "read", Path: h.path("in/file.txt\x00.png")},
		hostileagent.Op{Op: "write", Path: h.path("rel-out/new.txt"), Content: "x"},
		hostileagent.Op{Op: "write", Path: h.path("abs-out/new.txt"), Content: "x"},
		hostileagent.Op{Op: "read", Path: h.path("in-link")},
		hostileagent.Op{Op: "write", Path: h.path("in-link"), Content: "via link\n"},
		hostileagent.Op{Op: "read", Path: h.path("in/../in/file.txt")},
	)
	for i, want := range []string{"is outside the project directory", "is not absolute", "leads outside the project directory",
		"leads outside the project directory", "holds a NUL byte", "leads outside the project directory", "leads outside the project directory"} {
		if !strings.Contains(res[i].Err, want) {
			t.Errorf("op %d: %+v, want %q", i, res[i], want)
		}
	}
	if res[7].Head != "inside\n" {
		t.Errorf("read through a symlink inside the project: %+v", res[7])
	}
	if res[8].Err != "" || res[9].Head != "via link\n" {
		t.Errorf("write through a symlink inside the project: %+v, then %+v", res[8], res[9])
	}
	if fi, err := os.Lstat(h.path("in-link")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the write replaced the symlink instead of writing the file")
	}
	if ents, _ := os.ReadDir(h.outside); len(ents) != 1 {
		t.Errorf("outside holds %v", ents)
	}
	if w := writesShown(evs); len(w) != 1 || w[0].Title != "Write in-link" || *w[0].Content[0].OldText != "inside\n" {
		t.Errorf("write items = %+v", w)
	}
}

// TestHostileRootReplaced: the project directory itself swapped for a
// symlink after the agent's first request does not move the boundary.
func TestHostileRootReplaced(t *testing.T) {
	h := newHostile(t, ACPOptions{})
	mustWrite(t, h.path("a.txt"), []byte("project\n"))
	mustWrite(t, filepath.Join(h.outside, "a.txt"), []byte("outside\n"))
	if res, _ := h.run(hostileagent.Op{Op: "read", Path: h.path("a.txt")}); res[0].Head != "project\n" {
		t.Fatalf("first read: %+v", res[0])
	}
	if err := os.Rename(h.proj, h.proj+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(h.outside, h.proj); err != nil {
		t.Fatal(err)
	}
	res, _ := h.run(hostileagent.Op{Op: "read", Path: h.path("a.txt")}, hostileagent.Op{Op: "write", Path: h.path("b.txt"), Content: "x"})
	for i, r := range res {
		if !strings.Contains(r.Err, "was replaced by another directory or a symlink") {
			t.Errorf("op %d after the swap: %+v", i, r)
		}
	}
	if _, err := os.Lstat(filepath.Join(h.outside, "b.txt")); err == nil {
		t.Error("the write went outside")
	}
}
