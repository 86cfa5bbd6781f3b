package composer

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// checkList compares l with the plain slice it must equal.
func checkList(t *testing.T, what string, l *lineList, want []*line) {
	t.Helper()
	if l.Len() != len(want) {
		t.Fatalf("%s: Len %d, want %d", what, l.Len(), len(want))
	}
	var got []*line
	for i, ln := range l.All() {
		if i != len(got) {
			t.Fatalf("%s: All yielded index %d at %d", what, i, len(got))
		}
		got = append(got, ln)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%s: All differs from the model", what)
	}
	for i, ln := range want {
		if l.At(i) != ln {
			t.Fatalf("%s: At(%d) differs from the model", what, i)
		}
	}
	for k, c := range l.chunks {
		if len(c.lines) == 0 || len(c.lines) > chunkMax {
			t.Fatalf("%s: chunk %d holds %d lines", what, k, len(c.lines))
		}
	}
}

// Random edits of every size against a plain slice; a frozen list never
// changes whatever the list does after, and edits keep chunks between
// 1 and chunkMax lines.
func TestLineListFollowsAPlainSlice(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	mk := func(n int) []*line {
		out := make([]*line, n)
		for i := range out {
			out[i] = &line{md: "x"}
		}
		return out
	}
	model := mk(1)
	l := newLineList(slices.Clone(model)...)
	type frozen struct {
		l    lineList
		want []*line
	}
	var ice []frozen
	for step := range 3000 {
		a := r.IntN(len(model) + 1)
		b := a + r.IntN(min(len(model)-a, 300)+1)
		if len(model) > 5000 { // keep the model small: cut more
			b = a + r.IntN(len(model)-a+1)
		}
		var repl []*line
		switch r.IntN(4) {
		case 0: // one line for one (typing)
			if b == a && a < len(model) {
				b = a + 1
			}
			repl = mk(b - a)
		case 1: // a paste
			repl = mk(r.IntN(600))
		default:
			repl = mk(r.IntN(3))
		}
		if len(model)-(b-a)+len(repl) == 0 {
			repl = mk(1) // a draft has a line
		}
		model = slices.Replace(slices.Clone(model), a, b, repl...)
		l.Replace(a, b, repl...)
		if step%7 == 0 {
			ice = append(ice, frozen{l.Freeze(), slices.Clone(model)})
		}
		if step%97 == 0 {
			checkList(t, "list", &l, model)
		}
	}
	checkList(t, "list", &l, model)
	for i, f := range ice {
		checkList(t, "frozen list "+string(rune('a'+i%26)), &f.l, f.want)
	}
	if len(l.chunks) > 2*len(model)/chunkMin+2 {
		t.Errorf("%d chunks for %d lines", len(l.chunks), len(model))
	}
}

// A snapshot of a 100,000-line draft allocates its chunk pointers, not its
// line pointers (autosave takes one several times a second on the UI
// goroutine; a copy of the line pointers was 800 KB each time).
func TestSnapshotCostsItsChunksNotItsLines(t *testing.T) {
	alloc := func(lines int) uint64 {
		d := NewDraft()
		d.InsertText(strings.Repeat("x\n", lines-1))
		d.SetCaret(Pos{}, false)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for range 100 {
			d.TypeRune('y') // the chunk it touches is copied once per snapshot
			_ = d.Snapshot()
		}
		runtime.ReadMemStats(&m1)
		return (m1.TotalAlloc - m0.TotalAlloc) / 100
	}
	const lines = 100_000
	big := alloc(lines)
	t.Logf("bytes allocated per key and snapshot at %d lines: %d (a copy of the line pointers: %d)", lines, big, lines*8)
	if big > lines*8/32 {
		t.Errorf("a snapshot at %d lines allocates %d bytes, more than 1/32 of a copy of its line pointers", lines, big)
	}
}
