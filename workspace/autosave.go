package workspace

import "time"

// When a changed draft goes to disk (issue 14): within 300 ms of the change
// however fast the user types. The save waits for a pause of SaveQuiet
// after the last change (a debounce), but never longer than SaveCeiling
// after the first change that is not on disk yet (the ceiling), so steady
// typing is saved every SaveCeiling. A draft whose serialization costs more
// than a sixth of the time between saves is saved less often. A failed save
// is tried again every SaveRetry.
const (
	SaveQuiet   = 80 * time.Millisecond
	SaveCeiling = 200 * time.Millisecond
	SaveRetry   = time.Second
)

// Autosave is the schedule of one composer's draft saves: when the changes
// not on disk are due. Its zero value works, on time.Now unless Now is
// set. It does no I/O and starts no timer (the UI arms one for Wait); the
// UI goroutine owns it.
type Autosave struct {
	Now func() time.Time

	first time.Time     // the first change not on disk; zero: none
	last  time.Time     // the last change
	saved time.Time     // when the last save started
	cost  time.Duration // what its serialization took
}

// Clock is the schedule's now.
func (s *Autosave) Clock() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Changed notes that the draft holds changes not on disk; changed says it
// changed just now (else it is a change noted before, or a retry).
func (s *Autosave) Changed(changed bool) {
	now := s.Clock()
	if changed || s.first.IsZero() {
		s.last = now
	}
	if s.first.IsZero() {
		s.first = now
	}
}

// Clear notes that nothing waits to be saved.
func (s *Autosave) Clear() { s.first = time.Time{} }

// Due is when the pending changes must be written: SaveQuiet after the
// last one, or SaveCeiling after the first, whichever comes first — but a
// huge draft (serializing 16 MiB takes about 60 ms) no sooner than five
// times its serialization after the last save, so saving never takes more
// than a sixth of the UI's time.
func (s *Autosave) Due() time.Time {
	t := s.last.Add(SaveQuiet)
	if c := s.first.Add(SaveCeiling); c.Before(t) {
		t = c
	}
	if g := s.saved.Add(5 * s.cost); g.After(t) {
		t = g
	}
	return t
}

// Wait is how long until Due (≤ 0: now).
func (s *Autosave) Wait() time.Duration { return s.Due().Sub(s.Clock()) }

// Saving notes a save starting now whose serialization took cost: the
// changes are on their way to disk.
func (s *Autosave) Saving(cost time.Duration) {
	s.cost, s.saved = cost, s.Clock()
	s.first = time.Time{}
}

// Serialized notes what the last save's serialization cost when it is
// known only after the save started (it ran off the UI goroutine, in the
// save's command): it spaces the next saves as Saving's cost does.
func (s *Autosave) Serialized(cost time.Duration) { s.cost = max(s.cost, cost) }

// Failed notes that the save failed: the draft is due again at once (the
// UI retries after SaveRetry).
func (s *Autosave) Failed() { s.first = s.Clock().Add(-SaveCeiling) }
