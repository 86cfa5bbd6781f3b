package workspace

import "time"

// DraftSaves is the bookkeeping of one composer's draft saves (issue 14):
// the draft version on disk, the one timer pending (never one per key;
// numbered, so an older tick is stale), the one write running (a change
// during it is saved when it ends), the failure not yet overcome, the
// drafts of other threads whose save failed (kept in memory, tried again
// every SaveRetry, and what the thread shows when it is opened again), and
// a quit that a failed save stopped (the next quit goes through).
//
// It does no I/O and starts no timer: the UI tells it what happened (a
// change, a tick, a save's end) and does what it answers — arm a Timer,
// save now, show the Notes. Sched is when the changes are due. The UI
// goroutine owns it; its zero value works.
type DraftSaves struct {
	Sched Autosave

	onDisk  uint64 // the composer's draft version on disk
	seen    uint64 // the version Changed last saw
	armed   bool   // a tick is pending
	seq     int    // the pending tick's number
	writing bool   // a save of the composer's draft runs
	retry   bool   // the last write failed: the draft is not on disk
	failed  error  // the last write's error, until one succeeds
	saveNo  uint64 // numbers the saves, so an older one never overwrites a newer
	unsaved map[string]Draft
	// quitBlocked: a quit stopped because the draft could not be saved.
	quitBlocked bool
}

// Timer is a tick for the UI to send after After: Seq names it (DraftSaves.Due).
type Timer struct {
	Seq   int
	After time.Duration
}

// Note is a line the UI shows (a toast); Err marks a problem.
type Note struct {
	Text string
	Err  bool
}

// Retry is a draft of another thread to write again, with its save's number.
type Retry struct {
	No    uint64
	Draft Draft
}

// Due is what a tick asks: write the composer's draft now (Save), write
// the other threads' failed drafts again (Retries), or wait (Timer).
type Due struct {
	Save    bool
	Retries []Retry
	Timer   *Timer
}

// SaveEnd is how a save ended, as the UI's command reports it.
type SaveEnd struct {
	ThreadID string
	Composer bool // the composer's own save (else a Retry)
	Draft    Draft
	Result   DraftSaved
	Err      error
	// Cost is what serializing the composer's draft took, in the save's
	// command (0: not known): the schedule spaces the saves of a huge
	// draft by it.
	Cost time.Duration
	// QuitStopped: the save of a quit, which its failure stopped.
	QuitStopped bool
}

// ConflictNote says where another chipchat's version of the draft went.
const ConflictNote = "another chipchat changed this draft; your other version is in the stash"

// NotSavedNote is what a failed save says: the cause first (the screen may
// cut the end), then that nothing is lost.
func NotSavedNote(err error) string {
	return "draft not saved yet: " + ErrorWords(err) + " — it stays in the composer and is saved when the store writes again"
}

// Pending, Writing and QuitBlocked say whether a tick is pending, a write
// runs and a quit was stopped; Seq is the pending tick's number; Unsaved
// how many threads' drafts wait to be written again.
func (s *DraftSaves) Pending() bool     { return s.armed }
func (s *DraftSaves) Writing() bool     { return s.writing }
func (s *DraftSaves) QuitBlocked() bool { return s.quitBlocked }
func (s *DraftSaves) Seq() int          { return s.seq }
func (s *DraftSaves) Unsaved() int      { return len(s.unsaved) }

// OnDisk notes that the composer's draft version is the one on disk (a
// thread opened with it).
func (s *DraftSaves) OnDisk(version uint64) { s.onDisk = version }

// Loaded is a thread opening: a draft of it whose save failed, which it
// shows in place of the stored one (and which is saved again).
func (s *DraftSaves) Loaded(threadID string) (Draft, bool) {
	u, ok := s.unsaved[threadID]
	s.retry = ok // a retry was for the thread left (its draft is in unsaved)
	return u, ok
}

// Dirty reports whether the composer's draft at version holds changes not
// on disk.
func (s *DraftSaves) Dirty(version uint64) bool { return version != s.onDisk || s.retry }

// arm takes the timer unless one is pending or a write runs (its end arms
// it).
func (s *DraftSaves) arm(d time.Duration) *Timer {
	if s.armed || s.writing {
		return nil
	}
	s.armed = true
	s.seq++
	return &Timer{Seq: s.seq, After: max(d, 0)}
}

// Changed notes the composer's draft at version; changed reports whether
// it changed since the last call. A draft not on disk gets a timer for
// when it is due (nil: one is pending, or a write runs).
func (s *DraftSaves) Changed(version uint64) (changed bool, t *Timer) {
	changed = version != s.seen
	if changed {
		s.seen = version
	}
	if !s.Dirty(version) {
		return changed, nil
	}
	s.Sched.Changed(changed)
	return changed, s.arm(s.Sched.Wait())
}

// Tick is the tick seq firing over the composer's draft at version of
// thread current; sending says a send that is storing that draft owns it
// (it clears it once stored: the save waits for it). ok false: a stale tick.
func (s *DraftSaves) Tick(seq int, current string, version uint64, sending bool) (d Due, ok bool) {
	if seq != s.seq || !s.armed {
		return Due{}, false
	}
	s.armed = false
	for id, u := range s.unsaved {
		if id != current {
			s.saveNo++
			d.Retries = append(d.Retries, Retry{No: s.saveNo, Draft: u})
		}
	}
	if !s.Dirty(version) {
		s.Sched.Clear()
		return d, true
	}
	s.Sched.Changed(false)
	switch w := s.Sched.Wait(); {
	case w > 0:
		d.Timer = s.arm(w)
	case sending:
		d.Timer = s.arm(20 * time.Millisecond)
	default:
		d.Save = true
	}
	return d, true
}

// Save notes a write of the composer's draft at version starting, whose
// serialization took cost; no is the save's number (Workspace.SaveDraft).
func (s *DraftSaves) Save(version uint64, cost time.Duration) (no uint64) {
	s.Sched.Saving(cost)
	s.onDisk, s.seen = version, version
	s.retry = false
	if s.armed { // the pending tick is for what this save writes
		s.armed = false
		s.seq++
	}
	s.writing = true
	s.saveNo++
	return s.saveNo
}

// Ended is a save's end, the composer's draft of thread current at
// version: on failure the draft is kept (in the composer, or here for
// another thread) and tried again; a conflict says where the other version
// went; changes made meanwhile get a timer.
func (s *DraftSaves) Ended(e SaveEnd, current string, version uint64) (notes []Note, t *Timer) {
	here := e.ThreadID == current
	if e.Composer {
		s.writing = false
		if e.Cost > 0 {
			s.Sched.Serialized(e.Cost)
		}
	}
	if here && !e.Composer {
		// A retry of a draft the composer holds again (the thread was
		// opened meanwhile): the composer's own saves own it now.
		return nil, nil
	}
	if e.QuitStopped {
		s.quitBlocked = true
		notes = append(notes, Note{"not quitting: the draft is not saved (" + ErrorWords(e.Err) + ") — quit again to leave without it", true})
	}
	switch {
	case e.Err != nil:
		// Kept until a save of it works, whatever the composer shows next
		// (a thread switch replaces it right after this save).
		if s.unsaved == nil {
			s.unsaved = map[string]Draft{}
		}
		s.unsaved[e.ThreadID] = e.Draft
		if here {
			s.retry = true
			s.Sched.Failed() // due at the retry
		}
		first := s.failed == nil
		s.failed = e.Err
		if (first || here) && !e.QuitStopped {
			notes = append(notes, Note{NotSavedNote(e.Err), true})
		}
		if !s.armed {
			s.armed = true
			s.seq++
			t = &Timer{Seq: s.seq, After: SaveRetry}
		}
		return notes, t
	case !e.Result.Skipped:
		delete(s.unsaved, e.ThreadID)
		if s.failed != nil && len(s.unsaved) == 0 && !s.retry {
			s.failed = nil
			notes = append(notes, Note{"draft saved: the store writes again", false})
		}
		if e.Result.Conflict {
			notes = append(notes, Note{ConflictNote, true})
		}
	}
	if here && s.Dirty(version) {
		s.Sched.Changed(false)
		t = s.arm(s.Sched.Wait())
	}
	return notes, t
}
