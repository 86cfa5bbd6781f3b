package main

import (
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
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
// random moment: after a restart, every character that the screen showed
// at least 300 ms (the autosave budget) before the kill is in the draft.
// The clock starts when a character is first seen on the screen (the
// composer's caret line is read as fast as tmux answers while typing), not
// when it was sent, so tmux's delivery delay is not the app's. Five kills
// in a row, each run on a line of its own after the draft it found.
func TestEndToEndKillWhileTyping(t *testing.T) {
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	a := startChipchat(t, proj, home, data, "")
	const budget = 300 * time.Millisecond
	prev := ""
	for run := range 5 {
		want := prev // what the draft must start with
		if run > 0 {
			a.run("respawn-pane", "-k", "-t", a.name, a.command)
			last := prev[strings.LastIndex(prev, "\n")+1:]
			a.waitUntil("the restored draft's last line "+last, func(scr string) bool { return composerLine(scr) == last })
			a.keys("C-j")
			a.waitUntil("an empty caret line", func(scr string) bool { return composerLine(scr) == "" })
			want += "\n" // shown now, at least 800 ms before the kill
		}
		var letters strings.Builder
		for i := range 200 {
			letters.WriteByte(byte('a' + (run*7+i)%26))
		}
		text := letters.String()
		pid := a.pid()
		killAt := time.Now().Add(time.Duration(800+rand.IntN(1200)) * time.Millisecond)
		stop := make(chan struct{})
		seenc := a.watchCaretLine(text, stop)
		var sent []time.Time
		pace := time.NewTicker(30 * time.Millisecond) // the typing pace, not a wait for work
		for len(sent) < len(text) && time.Now().Before(killAt) {
			a.text(text[len(sent) : len(sent)+1])
			sent = append(sent, time.Now())
			<-pace.C
		}
		pace.Stop()
		killed := time.Now()
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		close(stop)
		w := <-seenc
		if w.err != nil {
			t.Fatalf("run %d: reading the screen: %v", run, w.err)
		}
		a.waitFor("EXITED=137")
		draft, _ := storedDraft(t, data, proj)
		if !strings.HasPrefix(draft, want) {
			t.Fatalf("run %d: the draft lost what earlier runs kept or the new line: %q, want it to start with %q", run, draft, want)
		}
		got := draft[len(want):]
		if len(got) > len(sent) || !strings.HasPrefix(text, got) {
			t.Fatalf("run %d: the draft holds %q after what it kept, not a prefix of the %d keys typed %q", run, got, len(sent), text[:len(sent)])
		}
		must := 0 // characters seen on the screen ≥ budget before the kill
		for i, at := range w.at {
			if killed.Sub(at) >= budget {
				must = i + 1
			}
		}
		var lag []time.Duration // from send-keys to first seen
		for i, at := range w.at {
			if i < len(sent) {
				lag = append(lag, at.Sub(sent[i]))
			}
		}
		slices.Sort(lag)
		unsaved := time.Duration(0) // how long before the kill the first character not on disk was seen
		if len(got) < len(w.at) {
			unsaved = killed.Sub(w.at[len(got)])
		}
		t.Logf("run %d: typed %d keys, %d seen on the screen (%d of them ≥ %v before the kill), %d on disk, the first one missing seen %v before the kill; send-to-screen median %v, max %v",
			run, len(sent), len(w.at), must, budget, len(got), unsaved.Round(time.Millisecond), quantile(lag, 0.5), quantile(lag, 1))
		if len(got) < must {
			t.Fatalf("run %d: %d of the %d characters seen ≥ %v before the kill are on disk", run, len(got), must, budget)
		}
		if must == 0 {
			t.Fatalf("run %d: no character was seen on the screen ≥ %v before the kill: the run tested nothing", run, budget)
		}
		prev = draft
	}
	// The restarted app shows the draft, every line of it.
	a.run("respawn-pane", "-k", "-t", a.name, a.command)
	a.waitFor(strings.Split(prev, "\n")...)
	a.keys("C-q")
	a.waitFor("EXITED=0")
}

// quantile is the q-quantile (0 to 1) of sorted durations; zero for none.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(q*float64(len(sorted)-1))]
}

// caretSightings is what watchCaretLine saw: at[i] is when the caret
// line first showed the first i+1 characters of the text.
type caretSightings struct {
	at  []time.Time
	err error
}

// watchCaretLine reads the screen every few milliseconds until stop is
// closed and records when the composer's caret line (the composer's last
// row, the caret being at the end) first showed each longer prefix of
// text; it sends what it saw on the returned channel. Each time is taken
// after capture-pane returns, so it is no earlier than the moment the
// character was drawn. It runs beside the test's goroutine: it reports an
// error instead of failing the test.
func (s *tmuxSession) watchCaretLine(text string, stop <-chan struct{}) <-chan caretSightings {
	out := make(chan caretSightings, 1)
	go func() {
		var r caretSightings
		poll := time.NewTicker(5 * time.Millisecond) // the reading pace
		defer poll.Stop()
		for {
			select {
			case <-stop:
				out <- r
				return
			case <-poll.C:
			}
			scr, err := exec.Command("tmux", "-L", s.socket, "capture-pane", "-p", "-t", s.name).Output()
			now := time.Now()
			if err != nil {
				r.err = err
				out <- r
				return
			}
			if line := composerLine(string(scr)); len(line) > len(r.at) && strings.HasPrefix(text, line) {
				for len(r.at) < len(line) {
					r.at = append(r.at, now)
				}
			}
		}
	}()
	return out
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
	waitDraft(t, data, proj, "A's draft", func(d store.Draft) bool { return strings.Contains(d.Markdown, "alpha words") })
	b := startChipchat(t, proj, home, data, "")
	b.waitFor("alpha words")
	b.text(" then beta from the second window")
	b.waitFor("then beta from the second window")
	waitDraft(t, data, proj, "B's draft", func(d store.Draft) bool { return strings.Contains(d.Markdown, "then beta") })
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

// liveDraft reads the draft of the project's most recent thread through a
// read-only store, beside the chipchat processes that write it; false
// while there is none (no database, project, thread or draft yet).
func liveDraft(data, proj string) (store.Draft, bool) {
	st, err := store.OpenReadOnly(data)
	if err != nil {
		return store.Draft{}, false
	}
	defer st.Close()
	p, err := st.ProjectByKey(store.ProjectKey(proj))
	if err != nil {
		return store.Draft{}, false
	}
	ts, err := st.Threads(p.ID)
	if err != nil || len(ts) == 0 {
		return store.Draft{}, false
	}
	d, ok, err := st.LoadDraft(ts[0].ID)
	return d, err == nil && ok
}

// waitDraft polls the store until the project's draft satisfies ok (what
// names it in the failure) and returns that draft.
func waitDraft(t *testing.T, data, proj, what string, ok func(store.Draft) bool) store.Draft {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		d, found := liveDraft(data, proj)
		if found && ok(d) {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never reached the store; it holds %+v", what, d)
		}
		time.Sleep(20 * time.Millisecond) // the polling pace
	}
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
	a.pickFile("main", "main.go")
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
