package composer

import (
	"iter"
	"slices"
	"strings"

	"github.com/chipchat/chipchat/contextref"
)

// Snapshot is the draft's content at one version, frozen: what autosave
// writes. Taking one costs a copy of the chunk pointers of its lines
// (lineList: about one per 256 lines; lines are never
// mutated in place and carry their Markdown, so they are shared, not
// copied; the records are a cached list, replaced when they change);
// serializing it (Markdown) joins the lines' Markdown — a copy, no
// encoding — and is safe on any goroutine while the draft goes on
// changing, so the UI goroutine never serializes the whole draft to save
// it.
type Snapshot struct {
	lines   lineList // frozen
	records []contextref.Record
	caret   Pos
	version uint64
}

// Snapshot freezes the draft's content, records and caret as they are now.
func (d *Draft) Snapshot() Snapshot {
	return Snapshot{
		lines:   d.lines.Freeze(),
		records: d.records0(), // replaced, never modified, when they change
		caret:   d.caret,
		version: d.version,
	}
}

// Version is the draft's Version when the snapshot was taken.
func (s Snapshot) Version() uint64 { return s.version }

// Caret is the caret when the snapshot was taken.
func (s Snapshot) Caret() Pos { return s.caret }

// Records are the draft's Records when the snapshot was taken.
func (s Snapshot) Records() []contextref.Record { return slices.Clone(s.records) }

// Pieces are the snapshot's Markdown in pieces, in order, each with the
// SHA-256 of its text: joined by newlines they are Markdown. A save
// writes only the pieces the store lacks (an edit changes the piece it is
// in); a piece's key is computed once per piece, its text on demand.
func (s Snapshot) Pieces() iter.Seq2[[32]byte, func() string] {
	return func(yield func([32]byte, func() string) bool) {
		for _, c := range s.lines.chunks {
			if !yield(c.key(), c.text) {
				return
			}
		}
	}
}

// Markdown is the snapshot's canonical Markdown (Draft.Markdown at its
// version). Linear in the draft.
func (s Snapshot) Markdown() string { return markdownOf(&s.lines) }

// newLine makes a line of atoms with its Markdown.
func (d *Draft) newLine(atoms []rune) *line {
	var b strings.Builder
	b.Grow(len(atoms))
	for _, a := range atoms {
		switch {
		case a < 0:
			writeLink(&b, d.chips[-a-1])
		case a < 0x80:
			b.WriteByte(byte(a))
		default:
			b.WriteRune(a)
		}
	}
	return &line{atoms: atoms, md: b.String()}
}

// markdownOf is lines' canonical Markdown: their own, joined by newlines.
// A copy, linear in the draft; no encoding.
func markdownOf(lines *lineList) string {
	n := lines.Len()
	for _, l := range lines.All() {
		n += len(l.md)
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range lines.All() {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.md)
	}
	return b.String()
}
