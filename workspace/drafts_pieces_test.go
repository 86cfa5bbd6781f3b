package workspace

import (
	"crypto/sha256"
	"iter"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

// pieces is a DraftText of texts, counting the pieces serialized.
type pieces struct {
	texts []string
	made  *int
}

func (p pieces) Markdown() string             { return strings.Join(p.texts, "\n") }
func (p pieces) Records() []contextref.Record { return nil }
func (p pieces) Pieces() iter.Seq2[[32]byte, func() string] {
	return func(yield func([32]byte, func() string) bool) {
		for _, t := range p.texts {
			if !yield(sha256.Sum256([]byte(t)), func() string { *p.made++; return t }) {
				return
			}
		}
	}
}

// A draft saved in pieces: the next save serializes only the piece that
// changed, the same pieces again write nothing, and a whole save after it
// (a retry, here of an empty draft) is written, never taken for what is
// on disk.
func TestSaveTextWritesThePiecesThatChanged(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	th := w.NewThread()
	w.DraftLoaded(th.ID, nil)
	made, no := 0, uint64(0)
	save := func(texts ...string) SaveEnd {
		t.Helper()
		no++
		end := w.SaveText(no, th.ID, pieces{texts, &made}, Caret{})()
		if end.Err != nil {
			t.Fatal(end.Err)
		}
		return end
	}
	stored := func() string {
		t.Helper()
		d, _, err := e.st.LoadDraft(th.ID)
		if err != nil {
			t.Fatal(err)
		}
		return d.Markdown
	}
	save("one", "two", "three")
	if made < 3 || stored() != "one\ntwo\nthree" {
		t.Fatalf("first save: %d pieces made, stored %q", made, stored())
	}
	made = 0
	save("one", "two and a half", "three")
	if made != 1 || stored() != "one\ntwo and a half\nthree" {
		t.Fatalf("second save: %d pieces made (want 1), stored %q", made, stored())
	}
	made = 0
	if end := save("one", "two and a half", "three"); !end.Result.Unchanged || made != 0 {
		t.Fatalf("the same pieces again: %+v, %d made", end.Result, made)
	}
	no++
	if res := must(t, w.SaveDraft(no, Draft{ThreadID: th.ID})); res.Unchanged {
		t.Fatal("an empty draft saved whole after one in pieces was taken for what is on disk")
	}
	if d, ok, _ := e.st.LoadDraft(th.ID); ok {
		t.Fatalf("the cleared draft is still stored: %q", d.Markdown)
	}
}
