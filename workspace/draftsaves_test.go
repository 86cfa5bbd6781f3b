package workspace

import (
	"errors"
	"testing"
	"time"
)

// Typing arms one timer (not one per key); a tick that is not the pending
// one is stale; a due draft is saved once, and a change during the write
// is timed when the write ends.
func TestDraftSavesOneTimerOneWrite(t *testing.T) {
	now := time.Unix(1000, 0)
	var s DraftSaves
	s.Sched.Now = func() time.Time { return now }
	changed, tm := s.Changed(1)
	if !changed || tm == nil || tm.After != SaveQuiet {
		t.Fatalf("first change: changed %v timer %+v, want one after SaveQuiet", changed, tm)
	}
	if _, again := s.Changed(2); again != nil {
		t.Fatalf("a second timer while one is pending: %+v", again)
	}
	if _, ok := s.Tick(tm.Seq-1, "t", 2, false); ok {
		t.Fatal("a stale tick was taken")
	}
	now = now.Add(SaveQuiet)
	d, ok := s.Tick(tm.Seq, "t", 2, false)
	if !ok || !d.Save || d.Timer != nil {
		t.Fatalf("due tick: %+v %v, want a save", d, ok)
	}
	no := s.Save(2, time.Millisecond)
	if !s.Writing() || s.Dirty(2) {
		t.Fatal("after Save: writing, and version 2 is on its way to disk")
	}
	if _, tm := s.Changed(3); tm != nil {
		t.Fatal("a timer while the write runs (its end arms one)")
	}
	notes, tm := s.Ended(SaveEnd{ThreadID: "t", Composer: true}, "t", 3)
	if len(notes) != 0 || tm == nil || s.Writing() {
		t.Fatalf("the write's end with version 3 typed meanwhile: notes %v timer %+v", notes, tm)
	}
	if no != 1 {
		t.Fatalf("save number %d, want 1", no)
	}
}

// A send storing the draft owns it: a due tick waits instead of saving.
func TestDraftSavesWaitForTheSend(t *testing.T) {
	var s DraftSaves
	_, tm := s.Changed(1)
	s.Sched.Now = func() time.Time { return time.Now().Add(time.Hour) }
	d, ok := s.Tick(tm.Seq, "t", 1, true)
	if !ok || d.Save || d.Timer == nil {
		t.Fatalf("tick during a send: %+v, want a wait", d)
	}
}

// A failed save loses nothing: the draft is kept (another thread's in
// memory, given back when it opens and written again at the next tick),
// the failure says why once, and a later success says the store writes
// again.
func TestDraftSavesFailureKeepsTheDraft(t *testing.T) {
	var s DraftSaves
	bad := errors.New("disk full")
	notes, tm := s.Ended(SaveEnd{ThreadID: "a", Composer: true, Draft: Draft{ThreadID: "a", Markdown: "kept"}, Err: bad}, "b", 0)
	if len(notes) != 1 || !notes[0].Err || tm == nil || tm.After != SaveRetry || s.Unsaved() != 1 {
		t.Fatalf("failure: notes %v timer %+v unsaved %d", notes, tm, s.Unsaved())
	}
	d, ok := s.Tick(tm.Seq, "b", 0, false)
	if !ok || len(d.Retries) != 1 || d.Retries[0].Draft.Markdown != "kept" {
		t.Fatalf("the retry tick: %+v", d)
	}
	notes, _ = s.Ended(SaveEnd{ThreadID: "a", Draft: d.Retries[0].Draft}, "b", 0)
	if s.Unsaved() != 0 || len(notes) != 1 || notes[0].Err {
		t.Fatalf("the retry's success: notes %v unsaved %d", notes, s.Unsaved())
	}
	s.Ended(SaveEnd{ThreadID: "c", Composer: true, Draft: Draft{ThreadID: "c", Markdown: "c's"}, Err: bad}, "d", 0)
	if u, ok := s.Loaded("c"); !ok || u.Markdown != "c's" || !s.Dirty(0) {
		t.Fatalf("opening c again: %+v %v, want its unsaved draft, not on disk", u, ok)
	}
}

// A conflict says where the other version went; a quit whose save failed
// is stopped once.
func TestDraftSavesConflictAndQuit(t *testing.T) {
	var s DraftSaves
	notes, _ := s.Ended(SaveEnd{ThreadID: "t", Composer: true, Result: DraftSaved{Conflict: true}}, "t", 0)
	if len(notes) != 1 || notes[0].Text != ConflictNote {
		t.Fatalf("conflict: %v", notes)
	}
	notes, _ = s.Ended(SaveEnd{ThreadID: "t", Composer: true, Err: errors.New("x"), QuitStopped: true}, "t", 0)
	if !s.QuitBlocked() || len(notes) != 1 {
		t.Fatalf("stopped quit: blocked %v notes %v", s.QuitBlocked(), notes)
	}
}
