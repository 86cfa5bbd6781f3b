package ui

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/internal/testenv"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/workspace"
)

// fakeTimers is the autosave's injected clock: time moves only when the
// test says, and a tick is handed to Update when its time has come.
type fakeTimers struct {
	now     time.Time
	pending []fakeTick
	asked   []time.Duration
}

type fakeTick struct {
	at  time.Time
	msg tea.Msg
}

func installFakeTimers(h *harness) *fakeTimers {
	ft := &fakeTimers{now: time.Unix(1_700_000_000, 0)}
	h.app.drafts.book.Sched.Now = func() time.Time { return ft.now }
	h.app.drafts.tick = func(d time.Duration, msg tea.Msg) tea.Cmd {
		ft.asked = append(ft.asked, d)
		ft.pending = append(ft.pending, fakeTick{ft.now.Add(d), msg})
		return nil
	}
	return ft
}

// advance moves the clock by d, firing due ticks in order and waiting for
// the saves they start (a write takes no fake time).
func (ft *fakeTimers) advance(h *harness, d time.Duration) {
	h.t.Helper()
	end := ft.now.Add(d)
	for {
		sort.SliceStable(ft.pending, func(i, j int) bool { return ft.pending[i].at.Before(ft.pending[j].at) })
		if len(ft.pending) == 0 || ft.pending[0].at.After(end) {
			break
		}
		p := ft.pending[0]
		ft.pending = ft.pending[1:]
		if p.at.After(ft.now) {
			ft.now = p.at
		}
		h.update(p.msg)
		h.pumpUntil("the draft write", func() bool { return !h.app.drafts.book.Writing() })
	}
	ft.now = end
}

func countSaved(h *harness) int {
	n := 0
	for _, m := range h.seen {
		if _, ok := m.(draftSavedMsg); ok {
			n++
		}
	}
	return n
}

// Typing at 30 ms per key for 3 s: every key is on disk at most 300 ms
// after it was typed (the debounce alone never saves while keys come
// faster than it), with about one save per ceiling, not one per key.
func TestAutosaveCeilingWhileTypingFast(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	ft := installFakeTimers(h)
	threadID := h.app.thread.ID
	var typed []time.Time
	text := strings.Repeat("steady typing ", 8)[:100]
	for i, r := range text {
		h.typeText(string(r))
		typed = append(typed, ft.now)
		ft.advance(h, 30*time.Millisecond)
		// Every key typed 300 ms ago or more is on disk.
		d, _ := e.draft(threadID)
		for k := range i + 1 {
			if ft.now.Sub(typed[k]) >= 300*time.Millisecond && len(d.Markdown) < k+1 {
				t.Fatalf("key %d typed %v ago is not on disk (disk has %d chars)", k, ft.now.Sub(typed[k]), len(d.Markdown))
			}
		}
	}
	ft.advance(h, time.Second)
	if d, _ := e.draft(threadID); d.Markdown != text {
		t.Fatalf("disk has %q, want %q", d.Markdown, text)
	}
	saves := countSaved(h)
	if saves < 10 || saves > 25 {
		t.Fatalf("%d saves for 100 keys over 3 s, want about one per %v", saves, workspace.SaveCeiling)
	}
	for _, d := range ft.asked {
		if d > workspace.SaveCeiling {
			t.Fatalf("a save timer of %v, over the ceiling", d)
		}
	}
}

// One key and a pause: saved after the quiet time, once.
func TestAutosaveDebounce(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	ft := installFakeTimers(h)
	h.typeText("x")
	ft.advance(h, workspace.SaveQuiet-time.Millisecond)
	if _, ok := e.draft(h.app.thread.ID); ok {
		t.Fatal("saved before the pause was over")
	}
	ft.advance(h, 2*time.Millisecond)
	if d, ok := e.draft(h.app.thread.ID); !ok || d.Markdown != "x" {
		t.Fatalf("not saved after the pause: %+v", d)
	}
	ft.advance(h, time.Second)
	if n := countSaved(h); n != 1 {
		t.Fatalf("%d saves, want 1", n)
	}
	if len(ft.pending) != 0 {
		t.Fatalf("timers still pending with nothing to save: %v", ft.pending)
	}
}

// Another process saved the thread's draft since this one loaded it: this
// save keeps the other version in the stash and says so.
func TestAutosaveConflictGoesToStash(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	ft := installFakeTimers(h)
	threadID := h.app.thread.ID
	other, err := store.Open(e.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.SaveDraftOver(store.Draft{ThreadID: threadID, Markdown: "the other process's words"}, 0, 0); err != nil {
		t.Fatal(err)
	}
	h.typeText("mine")
	ft.advance(h, time.Second)
	if d, _ := e.draft(threadID); d.Markdown != "mine" {
		t.Fatalf("draft %q", d.Markdown)
	}
	if !strings.Contains(h.plain(), "another chipchat changed this draft") {
		t.Fatalf("no toast:\n%s", h.plain())
	}
	stash, _ := e.st.Stash(e.project.ID)
	if len(stash) != 1 || stash[0].Markdown != "the other process's words" {
		t.Fatalf("stash %+v", stash)
	}
	// Saving on over its own revision is no conflict.
	h.typeText(" too")
	ft.advance(h, time.Second)
	if stash, _ := e.st.Stash(e.project.ID); len(stash) != 1 {
		t.Fatalf("stash grew: %+v", stash)
	}
}

// A store that cannot write (a full disk) loses nothing: the draft stays in
// the composer, a toast says it is not saved yet, and it is saved once the
// store writes again.
// newFullDiskEnv is a testEnv whose store is on a small tmpfs (root only:
// elsewhere the test skips, and fails in CI — testenv.Missing), and fill, which fills that disk and returns the file
// to remove to free it.
func newFullDiskEnv(t *testing.T) (*testEnv, func() string) {
	t.Helper()
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt).CombinedOutput(); err != nil {
		testenv.Missing(t, fmt.Sprintf("cannot mount a 2 MiB tmpfs (run the tests as root: mount -t tmpfs): %v %s", err, strings.TrimSpace(string(out))))
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
	e := newTestEnv(t)
	st, err := store.Open(filepath.Join(mnt, "data"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e.st = st
	if e.as, err = assets.Open(filepath.Join(mnt, "data", "assets"), 0); err != nil {
		t.Fatal(err)
	}
	if e.project, err = st.Project(store.ProjectKey(e.dir)); err != nil {
		t.Fatal(err)
	}
	fill := func() string {
		filler := filepath.Join(mnt, "filler")
		f, err := os.Create(filler)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for {
			if _, err := f.Write(make([]byte, 64<<10)); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				return filler
			}
		}
	}
	return e, fill
}

// bigDraft puts text too large for a full disk's last pages in the
// composer.
func bigDraft(h *harness) string {
	big := strings.Repeat("words that need new pages on disk ", 20000)
	h.app.ed.Draft().InsertText(big)
	h.app.ed.SetDraft(h.app.ed.Draft())
	h.exec(h.app.afterComposer())
	return big
}

func TestAutosaveFailureKeepsDraftAndRetries(t *testing.T) {
	e, fill := newFullDiskEnv(t)
	h := e.open("")
	ft := installFakeTimers(h)
	threadID := h.app.thread.ID
	filler := fill()
	big := bigDraft(h)
	ft.advance(h, time.Second)
	if !strings.Contains(h.plain(), "draft not saved yet") || !strings.Contains(h.plain(), "disk is full") {
		t.Fatalf("no toast about the failed save:\n%s", h.plain())
	}
	if h.app.ed.Draft().Markdown() != big {
		t.Fatal("the composer lost the draft")
	}
	// Typing goes on while the store fails.
	h.typeText("!")
	ft.advance(h, 3*time.Second)
	if _, ok := e.draft(threadID); ok {
		t.Fatal("a draft on a full disk?")
	}
	os.Remove(filler)
	ft.advance(h, 2*workspace.SaveRetry)
	if d, ok := e.draft(threadID); !ok || d.Markdown != big+"!" {
		t.Fatalf("not saved once the store wrote again (ok=%v, %d bytes)", ok, len(d.Markdown))
	}
	if !strings.Contains(h.plain(), "draft saved") {
		t.Fatalf("no toast saying it is saved:\n%s", h.plain())
	}
}

// Switching threads while the store cannot write: the draft of the thread
// left is kept in memory, saved once the store writes again, and shown
// when that thread is opened again.
func TestAutosaveFailedSaveSurvivesThreadSwitch(t *testing.T) {
	e, fill := newFullDiskEnv(t)
	other := e.newThread("other")
	h := e.open(e.newThread("first").ID)
	ft := installFakeTimers(h)
	first := h.app.thread.ID
	filler := fill()
	big := bigDraft(h)
	h.exec(h.app.nav.switchTo(other.ID))
	h.pumpUntil("the other thread", func() bool { return h.app.thread.ID == other.ID })
	h.pumpUntil("the failed save", func() bool { return h.app.drafts.book.Unsaved() == 1 })
	if _, ok := e.draft(first); ok {
		t.Fatal("a draft on a full disk?")
	}
	// Back to the first thread while the disk is still full: the draft is
	// there.
	h.exec(h.app.nav.switchTo(first))
	h.pumpUntil("the first thread", func() bool { return h.app.thread.ID == first })
	if got := h.app.ed.Draft().Markdown(); got != big {
		t.Fatalf("the first thread's draft is lost (%d bytes)", len(got))
	}
	// Away again, then the disk frees up: the retry saves it.
	h.exec(h.app.nav.switchTo(other.ID))
	h.pumpUntil("the other thread", func() bool { return h.app.thread.ID == other.ID })
	h.pumpUntil("the failed save", func() bool { return h.app.drafts.book.Unsaved() == 1 })
	os.Remove(filler)
	ft.advance(h, workspace.SaveRetry)
	h.pumpUntil("the retry", func() bool { return h.app.drafts.book.Unsaved() == 0 })
	if d, ok := e.draft(first); !ok || d.Markdown != big {
		t.Fatalf("the first thread's draft was not saved once the disk had room (ok=%v)", ok)
	}
}

// Quitting while the draft cannot be saved does not quit at once: a toast
// says so, the draft stays; the next quit goes through.
func TestQuitWithUnsavableDraftStopsOnce(t *testing.T) {
	e, fill := newFullDiskEnv(t)
	h := e.open("")
	installFakeTimers(h)
	filler := fill()
	big := bigDraft(h)
	h.press("ctrl+q")
	h.pumpUntil("the stopped quit", func() bool { return strings.Contains(h.app.Toast(), "not quitting") })
	if h.quit {
		t.Fatal("quit with the draft unsaved")
	}
	if !strings.Contains(h.app.Toast(), "disk is full") || h.app.ed.Draft().Markdown() != big {
		t.Fatalf("toast %q; draft kept: %v", h.app.Toast(), h.app.ed.Draft().Markdown() == big)
	}
	// Room again: the second quit saves and quits.
	os.Remove(filler)
	h.press("ctrl+q")
	h.pumpUntil("quit", h.sawQuit)
	if d, ok := e.draft(h.app.thread.ID); !ok || d.Markdown != big {
		t.Fatal("the draft was not saved by the second quit")
	}
}

// BenchmarkAutosaveSerialize is the work one save does on the UI
// goroutine: the draft's canonical Markdown and records. It runs once per
// save (at most one per workspace.SaveQuiet while typing), never per key.
func BenchmarkAutosaveSerialize(b *testing.B) {
	for _, size := range []int{10 << 10, 1 << 20, 16 << 20} {
		d := composer.NewDraft()
		line := strings.Repeat("x", 99) + "\n"
		d.InsertText(strings.Repeat(line, size/len(line)))
		b.Run(assets.HumanSize(int64(size)), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				_ = d.Markdown()
				_ = d.Records()
				_ = d.Caret()
			}
		})
	}
}
