//go:build unix

package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"
)

// collect gathers emitted deltas with their arrival times.
type collect struct {
	mu     sync.Mutex
	chunks []string
	at     []time.Time
}

func (c *collect) emit(d string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.chunks = append(c.chunks, d)
	c.at = append(c.at, time.Now())
}

func (c *collect) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.chunks, "")
}

func TestExecCatsThePrompt(t *testing.T) {
	prompt := "héllo [File: a; ref=f]\n\n<t3_context version=\"1\">\n</t3_context>"
	var c collect
	err := Exec{Command: "cat"}.stream(context.Background(), Turn{Prompt: prompt}, c.emit)
	if err != nil || c.text() != prompt {
		t.Fatalf("err %v, got %q", err, c.text())
	}
	if (Exec{Command: "cat"}).Name() != "exec:cat" {
		t.Fatal("name")
	}
}

func TestExecStreamsAsItArrives(t *testing.T) {
	var c collect
	start := time.Now()
	err := Exec{Command: "printf one; sleep 0.3; printf two; sleep 0.3; printf three"}.stream(context.Background(), Turn{}, c.emit)
	end := time.Now()
	if err != nil || c.text() != "onetwothree" {
		t.Fatalf("err %v, got %q", err, c.text())
	}
	if len(c.chunks) < 3 {
		t.Fatalf("chunks %q", c.chunks)
	}
	// "one" arrives while the command still has two sleeps to go.
	if c.chunks[0] != "one" || end.Sub(c.at[0]) < 400*time.Millisecond {
		t.Fatalf("first chunk %q came %v after start, %v before the end", c.chunks[0], c.at[0].Sub(start), end.Sub(c.at[0]))
	}
}

func TestExecRunsInTheTurnDirWithAttachments(t *testing.T) {
	dir := t.TempDir()
	src := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("blob-a", "alpha\n")
	b := write("blob-b", "\x89PNG")
	c2 := write("blob-c", "second alpha\n")
	snap := write("blob-m", "package main\n")
	atts := []Attachment{
		{ContextID: "ctx_a", Name: "notes.txt", MimeType: "text/plain", Path: a},
		{ContextID: "ctx_b", Name: "../../shot.png", MimeType: "image/png", Path: b},
		{ContextID: "ctx_c", Name: "notes.txt", MimeType: "text/plain", Path: c2},
		{ContextID: "ctx_g", Name: "gone.txt", Path: ""},
		{ContextID: "ctx_d", Name: "...", AttachmentID: "att_1", Path: a},
		{ContextID: "ctx_m", Kind: KindMention, Name: "cmd/tool/main.go", Path: snap},
	}
	script := `pwd; cd "$CHIPCHAT_ATTACHMENTS" && find . -type f | sort; cat ctx_a/notes.txt ctx_c/notes.txt; echo x >> ctx_a/notes.txt; echo "$CHIPCHAT_ATTACHMENTS" >&2; echo "$CHIPCHAT_ATTACHMENTS"`
	var c collect
	if err := (Exec{Command: script}).stream(context.Background(), Turn{Dir: dir, Attachments: atts}, c.emit); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(c.text()), "\n")
	wantDir, _ := filepath.EvalSymlinks(dir)
	if got, _ := filepath.EvalSymlinks(lines[0]); got != wantDir {
		t.Fatalf("ran in %q, want %q", lines[0], dir)
	}
	// One folder per context id: two notes.txt never collide; names are
	// the originals (made harmless), a mention's is its file's base name.
	if got := strings.Join(lines[1:6], ","); got != "./ctx_a/notes.txt,./ctx_b/_.._shot.png,./ctx_c/notes.txt,./ctx_d/att_1,./ctx_m/main.go" {
		t.Fatalf("files %q", got)
	}
	if lines[6] != "alpha" || lines[7] != "second alpha" {
		t.Fatalf("content %q", lines[6:8])
	}
	tmp := lines[8]
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Fatalf("attachment dir %s still there: %v", tmp, err)
	}
	if data, _ := os.ReadFile(a); string(data) != "alpha\n" {
		t.Fatalf("the command wrote through to the store: %q", data)
	}
}

func TestExecNonZeroExitShowsStderrTail(t *testing.T) {
	var c collect
	err := Exec{Command: `echo partial; for i in $(seq 1 50); do echo "problem $i" >&2; done; exit 3`}.stream(context.Background(), Turn{}, c.emit)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "exec: command exited with status 3:\n") || !strings.HasSuffix(msg, "problem 50") ||
		!strings.Contains(msg, "\nproblem 31\n") || strings.Contains(msg, "problem 30\n") {
		t.Fatalf("error %q", msg)
	}
	if c.text() != "partial\n" {
		t.Fatalf("stdout %q", c.text())
	}
	// One huge line: at most ~2 KB of it, cut on a rune boundary.
	err = Exec{Command: `i=0; while [ $i -lt 3000 ]; do printf 'é' >&2; i=$((i+1)); done; echo ' END' >&2; exit 1`}.stream(context.Background(), Turn{}, func(string) {})
	if err == nil || !strings.HasSuffix(err.Error(), "é END") || len(err.Error()) > 2100 || !utf8.ValidString(err.Error()) {
		t.Fatalf("long line: %d bytes, %q…", len(err.Error()), err.Error()[:60])
	}
	// Not found: the shell's complaint is shown.
	err = Exec{Command: "chipchat-no-such-command-xyz"}.stream(context.Background(), Turn{}, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "status 127") || !strings.Contains(err.Error(), "chipchat-no-such-command-xyz") {
		t.Fatalf("not found: %v", err)
	}
	// A signal.
	err = Exec{Command: "kill -TERM $$"}.stream(context.Background(), Turn{}, func(string) {})
	if err == nil || !strings.Contains(err.Error(), "killed by signal terminated") {
		t.Fatalf("signal: %v", err)
	}
}

// groupAlive reports whether a non-zombie process of group pgid exists.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	// Orphans may linger as zombies until init reaps them; they are dead.
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 2 && fields[2] == strconv.Itoa(pgid) && fields[0] != "Z" {
			return true
		}
	}
	return false
}

func TestExecCancelKillsTheProcessGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pgidc := make(chan int, 1)
	done := make(chan error, 1)
	var once sync.Once
	go func() {
		// A grandchild in the background and a child in the foreground.
		done <- Exec{Command: `sleep 60 & echo $$; sleep 60; echo never`}.stream(ctx, Turn{Prompt: "x"}, func(d string) {
			once.Do(func() {
				n, _ := strconv.Atoi(strings.TrimSpace(d))
				pgidc <- n
			})
		})
	}()
	var pgid int
	select {
	case pgid = <-pgidc:
	case <-time.After(5 * time.Second):
		t.Fatal("no pid")
	}
	if pgid <= 1 || !groupAlive(pgid) {
		t.Fatalf("group %d not running", pgid)
	}
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stream did not return after cancel")
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("cancel took %v", d)
	}
	deadline := time.Now().Add(2 * time.Second)
	for groupAlive(pgid) {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d survived the cancel", pgid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Already cancelled: nothing runs.
	var ran bool
	if err := (Exec{Command: "echo hi"}).stream(ctx, Turn{}, func(string) { ran = true }); !errors.Is(err, context.Canceled) || ran {
		t.Fatalf("pre-cancelled: %v %v", err, ran)
	}
}

func TestExecLeftoversDoNotHoldTheTurn(t *testing.T) {
	var c collect
	start := time.Now()
	// The background sleep keeps stdout open; the turn still ends when the
	// command does, and the sleep is killed with its group.
	err := Exec{Command: `sleep 60 & echo $$; echo done`}.stream(context.Background(), Turn{}, c.emit)
	if err != nil || time.Since(start) > 3*time.Second {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
	lines := strings.Split(strings.TrimSpace(c.text()), "\n")
	if len(lines) != 2 || lines[1] != "done" {
		t.Fatalf("out %q", c.text())
	}
	pgid, _ := strconv.Atoi(lines[0])
	deadline := time.Now().Add(2 * time.Second)
	for groupAlive(pgid) {
		if time.Now().After(deadline) {
			t.Fatal("background process survived the turn")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestExecIgnoresUnreadStdin(t *testing.T) {
	err := Exec{Command: "echo ok"}.stream(context.Background(), Turn{Prompt: strings.Repeat("x", 4<<20)}, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if err := (Exec{Command: "  "}).stream(context.Background(), Turn{}, func(string) {}); err == nil {
		t.Fatal("blank command")
	}
}

func TestExecStreamKeepsRunesWhole(t *testing.T) {
	text := "héllo wörld — 日本語 🎉"
	var got []string
	execStreamUTF8(iotest.OneByteReader(strings.NewReader(text)), func(d string) { got = append(got, d) })
	if strings.Join(got, "") != text {
		t.Fatalf("%q", got)
	}
	for _, d := range got {
		if !utf8.ValidString(d) {
			t.Fatalf("split rune in %q", d)
		}
	}
	// Invalid bytes pass through rather than being held forever.
	got = nil
	execStreamUTF8(iotest.OneByteReader(strings.NewReader("a\xffb\xe2")), func(d string) { got = append(got, d) })
	if strings.Join(got, "") != "a\xffb\xe2" {
		t.Fatalf("%q", got)
	}
}
