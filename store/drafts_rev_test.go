package store

import (
	"testing"
)

// Two processes (two Stores on one data dir) save one thread's draft: a
// save over a revision the saver has not seen keeps the other version in
// the stash, and a later conflict of the same pair updates that entry.
func TestSaveDraftOverKeepsTheOtherVersion(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	p, _ := a.Project("/p")
	th, _ := a.CreateThread(p.ID)

	ra, err := a.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: "alpha"}, 0, 0)
	if err != nil || ra.Rev == 0 || ra.Other != nil {
		t.Fatalf("first save: %+v %v", ra, err)
	}
	// A saves again over its own revision: no conflict.
	ra2, err := a.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: "alpha two"}, ra.Rev, 0)
	if err != nil || ra2.Other != nil || ra2.Rev == ra.Rev {
		t.Fatalf("second save: %+v %v", ra2, err)
	}
	// B never saw A's revision: A's text goes to the stash.
	rb, err := b.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: "beta"}, 0, 0)
	if err != nil || rb.Other == nil || rb.Other.Markdown != "alpha two" || rb.Other.ProjectID != p.ID {
		t.Fatalf("conflicting save: %+v %v", rb, err)
	}
	d, ok, _ := a.LoadDraft(th.ID)
	if !ok || d.Markdown != "beta" || d.Rev != rb.Rev {
		t.Fatalf("stored draft %+v", d)
	}
	// A types on: B's version goes to the stash (a new entry: A made none).
	ra3, err := a.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: "alpha three"}, ra2.Rev, 0)
	if err != nil || ra3.Other == nil || ra3.Other.Markdown != "beta" {
		t.Fatalf("A over B: %+v %v", ra3, err)
	}
	// B types on: its entry from before is updated, not a third one.
	rb2, err := b.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: "beta two"}, rb.Rev, rb.Other.ID)
	if err != nil || rb2.Other == nil || rb2.Other.ID != rb.Other.ID || rb2.Other.Markdown != "alpha three" {
		t.Fatalf("B over A again: %+v %v", rb2, err)
	}
	stash, _ := a.Stash(p.ID)
	if len(stash) != 2 {
		t.Fatalf("stash %+v", stash)
	}
	got := map[string]bool{}
	for _, e := range stash {
		got[e.Markdown] = true
	}
	if !got["alpha three"] || !got["beta"] {
		t.Fatalf("stash holds %v", got)
	}
	// The same text saved by another process is no conflict.
	if r, err := a.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: "beta two"}, ra3.Rev, 0); err != nil || r.Other != nil {
		t.Fatalf("same text: %+v %v", r, err)
	}
	// An empty draft deletes the row but keeps an unseen version.
	cur, _, _ := b.LoadDraft(th.ID)
	if _, err := b.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: "gamma"}, cur.Rev, 0); err != nil {
		t.Fatal(err)
	}
	r, err := a.SaveDraftOver(Draft{ThreadID: th.ID}, cur.Rev, 0)
	if err != nil || r.Rev != 0 || r.Other == nil || r.Other.Markdown != "gamma" {
		t.Fatalf("empty over unseen: %+v %v", r, err)
	}
	if _, ok, _ := a.LoadDraft(th.ID); ok {
		t.Fatal("the empty draft is still stored")
	}
	// A deleted stash entry is not updated: a new one is made.
	if err := a.DropStash(rb.Other.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: "delta"}, 0, 0); err != nil {
		t.Fatal(err)
	}
	r, err = a.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: "epsilon"}, 0, rb.Other.ID)
	if err != nil || r.Other == nil || r.Other.ID == rb.Other.ID || r.Other.Markdown != "delta" {
		t.Fatalf("into a dropped entry: %+v %v", r, err)
	}
}
