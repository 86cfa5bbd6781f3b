package composer

import (
	"slices"
	"strings"

	"github.com/chipchat/chipchat/contextref"
)

// Snapshot is the draft's content at one version, frozen: what autosave
// writes. Taking one costs a copy of the line pointers and of the records
// (lines are never mutated in place and chip table entries are never
// reused, so both are shared, not copied); serializing it (Markdown) is
// linear in the draft and safe on any goroutine while the draft goes on
// changing, so the UI goroutine never serializes the whole draft to save it.
type Snapshot struct {
	lines   []*line
	chips   []Chip
	records []contextref.Record
	caret   Pos
	version uint64
}

// Snapshot freezes the draft's content, records and caret as they are now.
func (d *Draft) Snapshot() Snapshot {
	lines := make([]*line, len(d.lines))
	copy(lines, d.lines)
	return Snapshot{
		lines:   lines,
		chips:   d.chips[:len(d.chips):len(d.chips)], // appends go elsewhere
		records: d.records0(),                        // replaced, never modified, when they change
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

// Markdown is the snapshot's canonical Markdown (Draft.Markdown at its
// version). Linear in the draft.
func (s Snapshot) Markdown() string { return markdownOf(s.lines, s.chips) }

// markdownOf writes lines as canonical Markdown: prose as typed and each
// chip as its reference link.
func markdownOf(lines []*line, chips []Chip) string {
	n := len(lines)
	for _, l := range lines {
		n += len(l.atoms)
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, a := range l.atoms {
			switch {
			case a < 0:
				writeLink(&b, chips[-a-1])
			case a < 0x80:
				b.WriteByte(byte(a))
			default:
				b.WriteRune(a)
			}
		}
	}
	return b.String()
}
