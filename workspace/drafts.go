package workspace

import (
	"sync"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/store"
)

// Caret is a draft's caret: a line and a column in runes.
type Caret struct{ Line, Col int }

// Draft is a thread's unsent draft: canonical Markdown, its records, the
// caret, and the revision it was loaded at (Rev).
type Draft struct {
	ThreadID string
	Markdown string
	Records  []contextref.Record
	Caret    Caret
	Rev      int64
}

func draft(d store.Draft) Draft {
	return Draft{ThreadID: d.ThreadID, Markdown: d.Markdown, Records: d.Records, Caret: Caret(d.Caret), Rev: d.Rev}
}

// DraftSaved is a save's outcome: Skipped, a newer save of the thread was
// written first; Conflict, another chipchat had saved the draft since this
// process last saw it, and its version went to the stash.
type DraftSaved struct {
	Skipped  bool
	Conflict bool
}

// drafts is per thread the revision this process last loaded or wrote,
// the stash entry of its last conflict, and the number of the last save
// written. Its mutex also makes the saves of one workspace run one at a
// time.
type drafts struct {
	mu    sync.Mutex
	rev   map[string]int64
	stash map[string]int64
	last  map[string]uint64
}

func (r *drafts) init() {
	r.rev, r.stash, r.last = map[string]int64{}, map[string]int64{}, map[string]uint64{}
}

// DraftLoaded notes the revision of the draft thread threadID opened with
// (d nil: none saved), so the next save is over it. No I/O.
func (w *Workspace) DraftLoaded(threadID string, d *Draft) {
	var rev int64
	if d != nil {
		rev = d.Rev
	}
	w.drafts.mu.Lock()
	w.drafts.rev[threadID] = rev
	w.drafts.mu.Unlock()
}

// SaveDraft writes d over the revision this process knows (store.
// SaveDraftOver), unless a save with a higher number no of the thread was
// written first. A save over a revision this process has not seen keeps
// the other version in the stash (DraftSaved.Conflict).
func (w *Workspace) SaveDraft(no uint64, d Draft) func() (DraftSaved, error) {
	st, r := w.o.Store, &w.drafts
	sd := store.Draft{ThreadID: d.ThreadID, Markdown: d.Markdown, Records: d.Records, Caret: store.Caret(d.Caret)}
	return func() (DraftSaved, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if no < r.last[d.ThreadID] {
			return DraftSaved{Skipped: true}, nil
		}
		res, err := st.SaveDraftOver(sd, r.rev[d.ThreadID], r.stash[d.ThreadID])
		if err != nil {
			return DraftSaved{}, err
		}
		r.last[d.ThreadID], r.rev[d.ThreadID] = no, res.Rev
		if res.Other != nil {
			r.stash[d.ThreadID] = res.Other.ID
		}
		return DraftSaved{Conflict: res.Other != nil}, nil
	}
}

// ClearSentDraft clears thread's stored draft when it is the sent
// markdown (a message sent from a thread the user has left since).
func (w *Workspace) ClearSentDraft(threadID, markdown string) func() error {
	st := w.o.Store
	return func() error { return st.ClearSentDraft(threadID, markdown) }
}
