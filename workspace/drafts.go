package workspace

import (
	"iter"
	"reflect"
	"slices"
	"sync"
	"time"

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
// process last saw it, and its version went to the stash; Unchanged, the
// draft is what this process last loaded or wrote (text, records and
// caret), so nothing was written.
type DraftSaved struct {
	Skipped   bool
	Conflict  bool
	Unchanged bool
}

// drafts is per thread the revision this process last loaded or wrote,
// the stash entry of its last conflict, the number of the last save
// written, and the draft it wrote or loaded at that revision (written: the
// strings are shared with the save, not copied). Its mutex also makes the
// saves of one workspace run one at a time.
type drafts struct {
	mu      sync.Mutex
	rev     map[string]int64
	stash   map[string]int64
	last    map[string]uint64
	written map[string]Draft
	// keys: the piece keys of the draft written, when it was written in
	// pieces (SaveText); its written entry then has no Markdown.
	keys map[string][][store.PieceKeySize]byte
}

func (r *drafts) init() {
	r.rev, r.stash, r.last = map[string]int64{}, map[string]int64{}, map[string]uint64{}
	r.written = map[string]Draft{}
	r.keys = map[string][][store.PieceKeySize]byte{}
}

// piecesOnDisk is onDisk for a draft in pieces: the same pieces, records
// and caret as last written; after a load or a whole save, the same text
// (made once, then the pieces are known).
func (r *drafts) piecesOnDisk(d Draft, pd store.PiecedDraft) bool {
	w, ok := r.written[d.ThreadID]
	if !ok || w.Caret != d.Caret || len(w.Records) != len(d.Records) || (len(d.Records) > 0 && !reflect.DeepEqual(w.Records, d.Records)) {
		return false
	}
	if keys, ok := r.keys[d.ThreadID]; ok {
		return slices.Equal(keys, pd.Keys)
	}
	return w.Markdown == pd.Markdown()
}

// onDisk reports whether d is what this process last loaded or wrote for
// its thread: the same text, records and caret. A typed key changes the
// length, so the text is compared only when the lengths are equal (a key
// typed and deleted). Callers hold mu; never on the UI goroutine.
func (r *drafts) onDisk(d Draft) bool {
	if _, pieced := r.keys[d.ThreadID]; pieced {
		return false // written in pieces: its text is not kept here to compare
	}
	w, ok := r.written[d.ThreadID]
	return ok && len(w.Markdown) == len(d.Markdown) && w.Caret == d.Caret &&
		len(w.Records) == len(d.Records) && w.Markdown == d.Markdown && (len(d.Records) == 0 || reflect.DeepEqual(w.Records, d.Records))
}

// DraftLoaded notes the revision of the draft thread threadID opened with
// (d nil: none saved), so the next save is over it. No I/O.
func (w *Workspace) DraftLoaded(threadID string, d *Draft) {
	var rev int64
	loaded := Draft{ThreadID: threadID}
	if d != nil {
		rev, loaded = d.Rev, *d
		loaded.ThreadID = threadID
	}
	w.drafts.mu.Lock()
	w.drafts.rev[threadID] = rev
	w.drafts.written[threadID] = loaded
	delete(w.drafts.keys, threadID)
	w.drafts.mu.Unlock()
}

// SaveDraft writes d over the revision this process knows (store.
// SaveDraftOver), unless a save with a higher number no of the thread was
// written first, or d is what this process last loaded or wrote for the
// thread (DraftSaved.Unchanged: typing a character and deleting it writes
// nothing). A save over a revision this process has not seen keeps the
// other version in the stash (DraftSaved.Conflict). The returned function
// does the work, the comparison included: call it off the UI goroutine.
func (w *Workspace) SaveDraft(no uint64, d Draft) func() (DraftSaved, error) {
	st, r := w.o.Store, &w.drafts
	sd := store.Draft{ThreadID: d.ThreadID, Markdown: d.Markdown, Records: d.Records, Caret: store.Caret(d.Caret)}
	return func() (DraftSaved, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if no < r.last[d.ThreadID] {
			return DraftSaved{Skipped: true}, nil
		}
		if r.onDisk(d) { // and nothing else wrote it since (a send clears it, another chipchat saves)
			if rev, err := st.DraftRev(d.ThreadID); err == nil && rev == r.rev[d.ThreadID] {
				r.last[d.ThreadID] = no
				return DraftSaved{Unchanged: true}, nil
			}
		}
		res, err := st.SaveDraftOver(sd, r.rev[d.ThreadID], r.stash[d.ThreadID])
		if err != nil {
			delete(r.written, d.ThreadID)
			delete(r.keys, d.ThreadID)
			return DraftSaved{}, err
		}
		r.last[d.ThreadID], r.rev[d.ThreadID], r.written[d.ThreadID] = no, res.Rev, d
		delete(r.keys, d.ThreadID)
		if res.Other != nil {
			r.stash[d.ThreadID] = res.Other.ID
		}
		return DraftSaved{Conflict: res.Other != nil}, nil
	}
}

// DraftText is a frozen draft (composer.Snapshot), serialized by the save.
// Pieces are its Markdown in pieces (joined by newlines), each with the
// SHA-256 of its text, the text made on demand.
type DraftText interface {
	Markdown() string
	Records() []contextref.Record
	Pieces() iter.Seq2[[store.PieceKeySize]byte, func() string]
}

// SaveText is SaveDraft of text in pieces (store.SavePiecedDraftOver), in
// the returned function (off the UI goroutine): only the pieces the store
// lacks are serialized and written, so a save after a key typed in a
// 10,000-line draft writes the piece the key is in. The whole text is
// made only when another chipchat wrote the draft since, or the save
// failed (kept for the retry). The SaveEnd carries the cost of listing the
// pieces for the schedule (DraftSaves.Ended).
func (w *Workspace) SaveText(no uint64, threadID string, text DraftText, caret Caret) func() SaveEnd {
	st, r := w.o.Store, &w.drafts
	return func() SaveEnd {
		start := time.Now()
		pd := store.PiecedDraft{ThreadID: threadID, Markdown: text.Markdown, Records: text.Records(), Caret: store.Caret(caret)}
		var texts []func() string
		for k, t := range text.Pieces() {
			pd.Keys = append(pd.Keys, k)
			texts = append(texts, t)
		}
		pd.Text = func(i int) string { return texts[i]() }
		cost := time.Since(start)
		d := Draft{ThreadID: threadID, Records: pd.Records, Caret: caret}
		res, err := func() (DraftSaved, error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			if no < r.last[threadID] {
				return DraftSaved{Skipped: true}, nil
			}
			if r.piecesOnDisk(d, pd) {
				if rev, err := st.DraftRev(threadID); err == nil && rev == r.rev[threadID] {
					r.last[threadID] = no
					return DraftSaved{Unchanged: true}, nil
				}
			}
			sr, err := st.SavePiecedDraftOver(pd, r.rev[threadID], r.stash[threadID])
			if err != nil {
				delete(r.written, threadID)
				delete(r.keys, threadID)
				return DraftSaved{}, err
			}
			r.last[threadID], r.rev[threadID], r.written[threadID], r.keys[threadID] = no, sr.Rev, d, pd.Keys
			if sr.Other != nil {
				r.stash[threadID] = sr.Other.ID
			}
			return DraftSaved{Conflict: sr.Other != nil}, nil
		}()
		if err != nil {
			d.Markdown = text.Markdown() // what the retry writes
		}
		return SaveEnd{ThreadID: threadID, Composer: true, Draft: d, Result: res, Err: err, Cost: cost}
	}
}

// ClearSentDraft clears thread's stored draft when it is the sent
// markdown (a message sent from a thread the user has left since).
func (w *Workspace) ClearSentDraft(threadID, markdown string) func() error {
	st := w.o.Store
	return func() error { return st.ClearSentDraft(threadID, markdown) }
}
