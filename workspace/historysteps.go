package workspace

// HistorySteps is the stepping through the project's prompt history
// (issue 15): up shows the previous prompt, down the next, and down from
// the newest goes back to the draft the user had typed; a search's choice
// steps to its entry. It holds the entries as last read (newest first;
// while stepping, the ones stepped through stay), the entry shown, and the
// number of the latest recall, so a late import of an older one is dropped.
// The draft typed and what the composer shows are the UI's. No I/O; the
// UI goroutine owns it; its zero value works.
type HistorySteps struct {
	entries []HistoryEntry
	pos     int  // the entry shown
	on      bool // stepping
	seq     int  // the latest recall
}

// Step is what an up or a down asks of the composer.
type Step int

const (
	NoStep Step = iota // not a step: the key is the editor's
	Stay               // at the oldest: nothing changes
	Show               // show the entry Shown
	Back               // back to the draft typed before the stepping
)

// Entries is the history as last read, newest first.
func (h *HistorySteps) Entries() []HistoryEntry { return h.entries }

// Read takes the history as read again (kept for after the stepping).
func (h *HistorySteps) Read(es []HistoryEntry) {
	if !h.on {
		h.entries = es
	}
}

// Stepping reports whether a stepping is under way.
func (h *HistorySteps) Stepping() bool { return h.on }

// Stop ends the stepping (the draft was edited or sent).
func (h *HistorySteps) Stop() { h.on = false }

// Up steps to the older entry; start reports that the stepping began
// with it (the UI keeps the draft typed).
func (h *HistorySteps) Up() (s Step, start bool) {
	next := 0
	if h.on {
		next = h.pos + 1
	}
	if next >= len(h.entries) {
		if h.on {
			return Stay, false
		}
		return NoStep, false
	}
	start, h.on = !h.on, true
	h.pos = next
	h.seq++
	return Show, start
}

// Down steps to the newer entry, or from the newest back to the draft
// typed; NoStep when not stepping.
func (h *HistorySteps) Down() Step {
	if !h.on {
		return NoStep
	}
	h.seq++
	if h.pos == 0 {
		h.on = false
		return Back
	}
	h.pos--
	return Show
}

// Choose steps to entry i of Entries (the history search's choice).
func (h *HistorySteps) Choose(i int) {
	h.on, h.pos = true, i
	h.seq++
}

// Shown is the entry shown and the number of its recall.
func (h *HistorySteps) Shown() (HistoryEntry, int) { return h.entries[h.pos], h.seq }

// Latest reports whether recall seq is the latest and the stepping goes
// on (its import may replace what is shown).
func (h *HistorySteps) Latest(seq int) bool { return seq == h.seq && h.on }
