package main

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/store"
)

// storedDraft reads the project's most recent thread's draft and the
// project's stash from the data dir (no chipchat running on it).
func storedDraft(t *testing.T, data, proj string) (string, []string) {
	t.Helper()
	st, err := store.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.Project(store.ProjectKey(proj))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := st.Threads(p.ID)
	if err != nil || len(ts) == 0 {
		t.Fatalf("threads %v %v", ts, err)
	}
	d, _, err := st.LoadDraft(ts[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	es, err := st.Stash(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	var stash []string
	for _, e := range es {
		stash = append(stash, e.Markdown)
	}
	return d.Markdown, stash
}

// Typing steadily at 30 ms per key, chipchat is killed with SIGKILL at a
// random moment: after a restart, everything typed up to 400 ms before the
// kill is in the draft. Five runs.
func TestEndToEndKillWhileTyping(t *testing.T) {
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	a := startChipchat(t, proj, home, data, "")
	prev := ""
	for run := range 5 {
		if run > 0 {
			a.run("respawn-pane", "-k", "-t", a.name, a.command)
			a.waitFor("enter send")
		}
		pid := a.pid()
		killAt := time.Now().Add(time.Duration(800+rand.IntN(1200)) * time.Millisecond)
		type key struct {
			at time.Time
			n  int // characters typed including this one
		}
		var sent []key
		letters := "abcdefghijklmnopqrstuvwxyz"
		typed := 0
		for time.Now().Before(killAt) {
			a.text(string(letters[(run*7+typed)%len(letters)]))
			typed++
			sent = append(sent, key{time.Now(), typed})
			time.Sleep(30 * time.Millisecond) // the typing pace, not a wait for work
		}
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		killed := time.Now()
		a.waitFor("EXITED=137")
		draft, _ := storedDraft(t, data, proj)
		got := strings.TrimPrefix(draft, prev)
		if !strings.HasPrefix(draft, prev) {
			t.Fatalf("run %d: the draft lost what earlier runs kept: %q, had %q", run, draft, prev)
		}
		must := 0
		for _, k := range sent {
			if killed.Sub(k.at) >= 400*time.Millisecond {
				must = k.n
			}
		}
		t.Logf("run %d: typed %d keys, %d typed ≥ 400 ms before the kill, %d on disk", run, typed, must, len(got))
		if len(got) < must {
			t.Fatalf("run %d: %d of the %d keys typed ≥ 400 ms before the kill are on disk", run, len(got), must)
		}
		prev = draft
	}
	// The restarted app shows the draft.
	a.run("respawn-pane", "-k", "-t", a.name, a.command)
	a.waitFor(prev[len(prev)-10:])
	a.keys("C-q")
	a.waitFor("EXITED=0")
}

// Two chipchat processes on one data dir type different drafts into the
// same thread and quit: both texts survive, one as the draft, the other in
// the stash, and the process that found the other's version says so.
func TestEndToEndTwoProcessesOneDraft(t *testing.T) {
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	a := startChipchat(t, proj, home, data, "")
	a.text("alpha words")
	a.waitFor("alpha words")
	// The thread is stored with its first draft: then B opens it too.
	deadline := time.Now().Add(10 * time.Second)
	for !draftStored(t, data, proj, "alpha words") {
		if time.Now().After(deadline) {
			t.Fatal("A's draft never reached the store")
		}
		time.Sleep(20 * time.Millisecond)
	}
	b := startChipchat(t, proj, home, data, "")
	b.waitFor("alpha words")
	b.text(" then beta from the second window")
	b.waitFor("then beta from the second window")
	for !draftStored(t, data, proj, "then beta") {
		if time.Now().After(deadline) {
			t.Fatal("B's draft never reached the store")
		}
		time.Sleep(20 * time.Millisecond)
	}
	a.text(" and more from the first")
	a.waitFor("another chipchat changed this draft")
	a.keys("C-q")
	a.waitFor("EXITED=0")
	b.keys("C-q")
	b.waitFor("EXITED=0")
	draft, stash := storedDraft(t, data, proj)
	all := draft + "\n" + strings.Join(stash, "\n")
	for _, want := range []string{"alpha words and more from the first", "alpha words then beta from the second window"} {
		if !strings.Contains(all, want) {
			t.Fatalf("%q is lost: draft %q, stash %q", want, draft, stash)
		}
	}
}

// draftStored reports whether the project's thread has a draft holding
// text (it opens the store beside the running processes).
func draftStored(t *testing.T, data, proj, text string) bool {
	t.Helper()
	st, err := store.Open(data)
	if err != nil {
		return false
	}
	defer st.Close()
	p, err := st.Project(store.ProjectKey(proj))
	if err != nil {
		return false
	}
	ts, err := st.Threads(p.ID)
	if err != nil || len(ts) == 0 {
		return false
	}
	d, ok, err := st.LoadDraft(ts[0].ID)
	return err == nil && ok && strings.Contains(d.Markdown, text)
}

// A two-line message with a chip, copied and pasted back through tmux with
// bracketed paste — newlines as CR (paste-buffer -p, as terminals send
// them) and as LF (-r): the chip comes back as a chip both times.
func TestEndToEndMultiLineChipPaste(t *testing.T) {
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "main.go"), "package main\n")
	a := startChipchat(t, proj, home, data, "")
	a.run("set-option", "-g", "set-clipboard", "on")
	a.text("first line")
	a.keys("C-j")
	a.text("see ")
	a.text("@")
	a.waitFor("@ file")
	a.text("main")
	a.waitFor("main.go")
	a.keys("Enter")
	a.text("please")
	a.keys("M-a", "C-c")
	a.waitFor("copied")
	buf := a.run("show-buffer")
	if !strings.Contains(buf, "\n") || !strings.Contains(buf, "t3-context://v1/mention/") {
		t.Fatalf("tmux's buffer: %q", buf)
	}
	for _, mode := range [][]string{{"-p"}, {"-p", "-r"}} {
		a.keys("C-n")
		a.waitFor("new thread")
		a.run(append(append([]string{"paste-buffer"}, mode...), "-t", a.name)...)
		scr := a.waitFor("pasted with 1 chip record", "first line", "@ main.go", "please")
		if strings.Contains(scr, "t3-context://") {
			t.Fatalf("paste-buffer %v: the link stayed text:\n%s", mode, scr)
		}
	}
	a.keys("C-q")
	a.waitFor("EXITED=0")
}
