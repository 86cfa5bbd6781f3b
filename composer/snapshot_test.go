package composer

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

// A snapshot keeps the draft as it was: the Markdown, records and caret of
// its version, whatever the draft does next (typing, deleting a chip and
// with it its record, a new chip, undo, clear).
func TestSnapshotIsFrozen(t *testing.T) {
	d := NewDraft()
	d.InsertText("héllo ")
	d.InsertChip(termRec("t1"), "")
	d.InsertText(" wörld\nsecond line ")
	d.InsertCitation(&contextref.Citation{Version: 1, Text: "a quote", ThreadID: "th", MessageID: "m", End: 7})
	wantMD, wantRecs, wantCaret, wantV := d.Markdown(), d.Records(), d.Caret(), d.Version()
	s := d.Snapshot()

	d.InsertText("more")
	d.SetCaret(Pos{0, 7}, false)
	d.DeleteBackward() // the chip, and its record with it
	d.InsertChip(fileRec("f2"), "")
	d.Undo()
	d.Clear()

	if got := s.Markdown(); got != wantMD {
		t.Fatalf("snapshot Markdown = %q, want %q", got, wantMD)
	}
	if !reflect.DeepEqual(s.Records(), wantRecs) || len(wantRecs) != 1 {
		t.Fatalf("snapshot records = %v, want %v", s.Records(), wantRecs)
	}
	if s.Caret() != wantCaret || s.Version() != wantV {
		t.Fatalf("snapshot caret %v version %d, want %v %d", s.Caret(), s.Version(), wantCaret, wantV)
	}
	if d.Markdown() != "" {
		t.Fatalf("the draft itself was cleared: %q", d.Markdown())
	}
}

// Serializing a snapshot on another goroutine while the draft is edited is
// safe (run with -race) and writes the snapshot's version.
func TestSnapshotSerializesOffTheEditingGoroutine(t *testing.T) {
	d := NewDraft()
	for i := range 200 {
		d.InsertText(fmt.Sprintf("line %d ", i))
		if i%20 == 0 {
			d.InsertChip(termRec(fmt.Sprint("t", i)), "")
		}
		d.InsertText("\n")
	}
	var wg sync.WaitGroup
	for range 20 {
		want := d.Markdown()
		s := d.Snapshot()
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := s.Markdown(); got != want {
				t.Errorf("snapshot serialized %d bytes, want %d", len(got), len(want))
			}
		}()
		for j := range 50 {
			d.SetCaret(Pos{j, 2}, false)
			d.TypeRune('x')
			d.InsertChip(termRec(fmt.Sprint("n", j)), "")
			d.DeleteBackward()
		}
	}
	wg.Wait()
	if !strings.Contains(d.Markdown(), "lix") {
		t.Fatal("the edits did not land")
	}
}

// BenchmarkAutosaveSnapshot is autosave's two halves at growing drafts
// (80-column lines, a chip every 10): snapshot is what the UI goroutine
// pays per save, markdown what the save's command pays off it.
func BenchmarkAutosaveSnapshot(b *testing.B) {
	for _, n := range []int{100, 10000, 100000} {
		d := benchDraft(n).Draft()
		b.Run(fmt.Sprintf("snapshot/lines=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = d.Snapshot()
			}
		})
		b.Run(fmt.Sprintf("markdown/lines=%d", n), func(b *testing.B) {
			s := d.Snapshot()
			b.ReportAllocs()
			for b.Loop() {
				_ = s.Markdown()
			}
		})
	}
}
