package workspace

import (
	"testing"
	"time"
)

// clock is an injected clock moved by the test.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestAutosaveDebounce(t *testing.T) {
	c := &clock{time.Unix(1_700_000_000, 0)}
	s := Autosave{Now: c.now}
	s.Changed(true)
	if w := s.Wait(); w != SaveQuiet {
		t.Fatalf("one change: due in %v, want %v", w, SaveQuiet)
	}
	c.advance(50 * time.Millisecond)
	s.Changed(true) // typed again before the pause: the pause starts over
	if w := s.Wait(); w != SaveQuiet {
		t.Fatalf("a second change: due in %v, want %v", w, SaveQuiet)
	}
	c.advance(SaveQuiet)
	if w := s.Wait(); w > 0 {
		t.Fatalf("after the pause: due in %v", w)
	}
}

// Keys faster than the debounce never let it fire: the ceiling does, at
// SaveCeiling after the first change not on disk.
func TestAutosaveCeiling(t *testing.T) {
	c := &clock{time.Unix(1_700_000_000, 0)}
	s := Autosave{Now: c.now}
	start := c.t
	for range 20 {
		s.Changed(true)
		if s.Wait() <= 0 {
			break
		}
		c.advance(30 * time.Millisecond)
	}
	if got := c.t.Sub(start); got < SaveCeiling || got >= SaveCeiling+30*time.Millisecond {
		t.Fatalf("due after %v of typing, want the %v ceiling", got, SaveCeiling)
	}
	s.Saving(time.Millisecond)
	c.advance(time.Millisecond)
	s.Changed(true)
	if w := s.Wait(); w != SaveQuiet {
		t.Fatalf("after a save: due in %v, want %v", w, SaveQuiet)
	}
}

// A draft that takes long to serialize is saved no sooner than five times
// that after the last save.
func TestAutosaveCostlyDraftIsSavedLessOften(t *testing.T) {
	c := &clock{time.Unix(1_700_000_000, 0)}
	s := Autosave{Now: c.now}
	s.Changed(true)
	s.Saving(60 * time.Millisecond)
	s.Changed(true)
	if w := s.Wait(); w != 300*time.Millisecond {
		t.Fatalf("due in %v, want 5×60 ms", w)
	}
}

// A change noted again (changed false) keeps its times; a failed save is
// due at once; Clear leaves nothing pending.
func TestAutosaveRetryAndClear(t *testing.T) {
	c := &clock{time.Unix(1_700_000_000, 0)}
	s := Autosave{Now: c.now}
	s.Changed(true)
	c.advance(40 * time.Millisecond)
	s.Changed(false)
	if w := s.Wait(); w != SaveQuiet-40*time.Millisecond {
		t.Fatalf("noted again: due in %v", w)
	}
	s.Failed()
	if w := s.Wait(); w > 0 {
		t.Fatalf("after a failure: due in %v", w)
	}
	s.Clear()
	c.advance(time.Second)
	s.Changed(false)
	if w := s.Wait(); w != SaveQuiet {
		t.Fatalf("after Clear, a new change: due in %v", w)
	}
}
