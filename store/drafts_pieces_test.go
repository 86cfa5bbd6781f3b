package store

import (
	"crypto/sha256"
	"errors"
	"strings"
	"testing"
)

// pieced is a PiecedDraft of texts, counting the Text calls in asked.
func pieced(threadID string, asked *[]int, texts ...string) PiecedDraft {
	d := PiecedDraft{ThreadID: threadID, Markdown: func() string { return strings.Join(texts, "\n") }}
	for _, t := range texts {
		d.Keys = append(d.Keys, sha256.Sum256([]byte(t)))
	}
	d.Text = func(i int) string {
		*asked = append(*asked, i)
		return texts[i]
	}
	return d
}

func pieceRows(t *testing.T, s *Store, threadID string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM draft_pieces WHERE thread_id = ?`, threadID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A draft saved in pieces reads back whole; the next save writes only
// the piece that changed and drops the one it replaced; a save of the
// whole text (a retry) takes the pieces' place.
func TestPiecedDraftWritesOnlyTheChangedPiece(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	var asked []int
	r1, err := s.SavePiecedDraftOver(pieced(th.ID, &asked, "one\ntwo", "three", "four"), 0, 0)
	if err != nil || r1.Rev == 0 {
		t.Fatalf("first save: %+v %v", r1, err)
	}
	if len(asked) != 3 {
		t.Fatalf("the first save asked for pieces %v, want all three", asked)
	}
	d, ok, err := s.LoadDraft(th.ID)
	if err != nil || !ok || d.Markdown != "one\ntwo\nthree\nfour" || d.Rev != r1.Rev {
		t.Fatalf("loaded %+v %v %v", d, ok, err)
	}
	asked = nil
	r2, err := s.SavePiecedDraftOver(pieced(th.ID, &asked, "one\ntwo", "three and more", "four"), r1.Rev, 0)
	if err != nil || r2.Other != nil {
		t.Fatalf("second save: %+v %v", r2, err)
	}
	if len(asked) != 1 || asked[0] != 1 {
		t.Fatalf("the second save asked for pieces %v, want only 1", asked)
	}
	if n := pieceRows(t, s, th.ID); n != 3 {
		t.Fatalf("%d pieces stored, want 3 (the replaced one dropped)", n)
	}
	if d, _, _ := s.LoadDraft(th.ID); d.Markdown != "one\ntwo\nthree and more\nfour" {
		t.Fatalf("loaded %q", d.Markdown)
	}
	// A piece twice is stored once.
	asked = nil
	r3, err := s.SavePiecedDraftOver(pieced(th.ID, &asked, "four", "one\ntwo", "four"), r2.Rev, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d, _, _ := s.LoadDraft(th.ID); d.Markdown != "four\none\ntwo\nfour" || len(asked) != 0 || pieceRows(t, s, th.ID) != 2 {
		t.Fatalf("loaded %q, asked %v, %d rows", d.Markdown, asked, pieceRows(t, s, th.ID))
	}
	r4, err := s.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: "whole"}, r3.Rev, 0)
	if err != nil || r4.Other != nil {
		t.Fatalf("whole save: %+v %v", r4, err)
	}
	if d, _, _ := s.LoadDraft(th.ID); d.Markdown != "whole" || pieceRows(t, s, th.ID) != 0 {
		t.Fatalf("after the whole save: %q, %d pieces", d.Markdown, pieceRows(t, s, th.ID))
	}
	// An empty draft in pieces deletes it.
	if _, err := s.SavePiecedDraftOver(pieced(th.ID, &asked, ""), r4.Rev, 0); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.LoadDraft(th.ID); ok {
		t.Fatal("an empty draft is still stored")
	}
}

// Another process's draft in pieces is not lost to a save over it: it
// goes to the stash whole; the same text is no conflict; a sent draft
// in pieces is cleared; deleting the thread drops its pieces.
func TestPiecedDraftAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	p, _ := a.Project("/p")
	th, _ := a.CreateThread(p.ID)
	var asked []int
	ra, err := a.SavePiecedDraftOver(pieced(th.ID, &asked, "alpha", "beta"), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.SavePiecedDraftOver(pieced(th.ID, &asked, "gamma"), 0, 0)
	if err != nil || rb.Other == nil || rb.Other.Markdown != "alpha\nbeta" {
		t.Fatalf("B over A: %+v %v", rb, err)
	}
	// A's next save: B's version (whole, pieced differently) to the stash.
	ra2, err := a.SaveDraftOver(Draft{ThreadID: th.ID, Markdown: "alpha\nbeta\ndelta"}, ra.Rev, 0)
	if err != nil || ra2.Other == nil || ra2.Other.Markdown != "gamma" {
		t.Fatalf("A over B: %+v %v", ra2, err)
	}
	// The same text in other pieces is no conflict.
	if r, err := b.SavePiecedDraftOver(pieced(th.ID, &asked, "alpha\nbeta", "delta"), rb.Rev, 0); err != nil || r.Other != nil {
		t.Fatalf("same text: %+v %v", r, err)
	}
	if err := a.ClearSentDraft(th.ID, "alpha\nbeta"); err != nil {
		t.Fatal(err)
	}
	if d, ok, _ := a.LoadDraft(th.ID); !ok || d.Markdown != "alpha\nbeta\ndelta" {
		t.Fatalf("a draft that is not the sent text was cleared: %+v %v", d, ok)
	}
	if err := a.ClearSentDraft(th.ID, "alpha\nbeta\ndelta"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := a.LoadDraft(th.ID); ok || pieceRows(t, a, th.ID) != 0 {
		t.Fatalf("the sent draft is still stored (%d pieces)", pieceRows(t, a, th.ID))
	}
	if _, err := a.SavePiecedDraftOver(pieced(th.ID, &asked, "x", "y"), 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteThread(th.ID); err != nil {
		t.Fatal(err)
	}
	if n := pieceRows(t, a, th.ID); n != 0 {
		t.Fatalf("%d pieces left after deleting the thread", n)
	}
}

// A listed piece that is missing is an error, never a shorter draft.
func TestPiecedDraftMissingPieceIsAnError(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	var asked []int
	if _, err := s.SavePiecedDraftOver(pieced(th.ID, &asked, "kept", "lost"), 0, 0); err != nil {
		t.Fatal(err)
	}
	k := sha256.Sum256([]byte("lost"))
	if _, err := s.db.Exec(`DELETE FROM draft_pieces WHERE key = ?`, k[:]); err != nil {
		t.Fatal(err)
	}
	if d, _, err := s.LoadDraft(th.ID); err == nil || !strings.Contains(err.Error(), "piece 1 of the draft is missing") {
		t.Fatalf("loaded %q, %v", d.Markdown, err)
	}
	if _, err := s.SavePiecedDraftOver(PiecedDraft{ThreadID: th.ID}, 0, 0); err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("a draft with no pieces: %v", err)
	}
}
