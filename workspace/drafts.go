package workspace

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
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
// written, and the fingerprint of what it wrote or loaded at that revision
// (sum, or loaded: the draft loaded, fingerprinted by the next save, off
// the UI goroutine).
// Its mutex also makes the saves of one workspace run one at a time.
type drafts struct {
	mu     sync.Mutex
	rev    map[string]int64
	stash  map[string]int64
	last   map[string]uint64
	sum    map[string][sha256.Size]byte
	loaded map[string]Draft
}

func (r *drafts) init() {
	r.rev, r.stash, r.last = map[string]int64{}, map[string]int64{}, map[string]uint64{}
	r.sum, r.loaded = map[string][sha256.Size]byte{}, map[string]Draft{}
}

// onDisk reports whether d is what this process last loaded or wrote for
// its thread; sum is d's fingerprint. Callers hold mu.
func (r *drafts) onDisk(d Draft) (sum [sha256.Size]byte, same bool) {
	sum = fingerprint(d)
	if l, ok := r.loaded[d.ThreadID]; ok {
		r.sum[d.ThreadID] = fingerprint(l)
		delete(r.loaded, d.ThreadID)
	}
	old, ok := r.sum[d.ThreadID]
	return sum, ok && old == sum
}

// fingerprint is a digest of a draft's text, records and caret. Linear in
// the draft; never called on the UI goroutine.
func fingerprint(d Draft) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(d.Markdown)))
	h.Write(n[:])
	h.Write([]byte(d.Markdown))
	binary.LittleEndian.PutUint64(n[:], uint64(d.Caret.Line))
	h.Write(n[:])
	binary.LittleEndian.PutUint64(n[:], uint64(d.Caret.Col))
	h.Write(n[:])
	if len(d.Records) > 0 {
		recs, err := json.Marshal(d.Records)
		if err != nil { // no fingerprint matches this one: the save writes
			recs = []byte(err.Error())
			h.Write([]byte{0xff})
		}
		h.Write(recs)
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
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
	w.drafts.loaded[threadID] = loaded
	delete(w.drafts.sum, threadID)
	w.drafts.mu.Unlock()
}

// SaveDraft writes d over the revision this process knows (store.
// SaveDraftOver), unless a save with a higher number no of the thread was
// written first, or d is what this process last loaded or wrote for the
// thread (DraftSaved.Unchanged: typing a character and deleting it writes
// nothing). A save over a revision this process has not seen keeps the
// other version in the stash (DraftSaved.Conflict). The returned function
// does the work, fingerprint included: call it off the UI goroutine.
func (w *Workspace) SaveDraft(no uint64, d Draft) func() (DraftSaved, error) {
	st, r := w.o.Store, &w.drafts
	sd := store.Draft{ThreadID: d.ThreadID, Markdown: d.Markdown, Records: d.Records, Caret: store.Caret(d.Caret)}
	return func() (DraftSaved, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if no < r.last[d.ThreadID] {
			return DraftSaved{Skipped: true}, nil
		}
		sum, same := r.onDisk(d)
		if same { // and nothing else wrote it since (a send clears it, another chipchat saves)
			if rev, err := st.DraftRev(d.ThreadID); err == nil && rev == r.rev[d.ThreadID] {
				r.last[d.ThreadID] = no
				return DraftSaved{Unchanged: true}, nil
			}
		}
		res, err := st.SaveDraftOver(sd, r.rev[d.ThreadID], r.stash[d.ThreadID])
		if err != nil {
			delete(r.sum, d.ThreadID)
			return DraftSaved{}, err
		}
		r.last[d.ThreadID], r.rev[d.ThreadID], r.sum[d.ThreadID] = no, res.Rev, sum
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
