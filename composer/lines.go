package composer

import (
	"crypto/sha256"
	"iter"
	"slices"
	"strings"
	"sync"
)

// lineList is the draft's lines, kept in chunks of at most chunkMax line
// pointers, so that freezing it for a snapshot (autosave, several times a
// second while the user types) costs a copy of the chunk pointers — about
// one per chunkMax lines — instead of one per line, and an edit costs a
// copy of the chunk it touches at most. A chunk made before the last
// freeze is shared with that snapshot and never written again: an edit
// to it copies it first (copy on write, told by the chunk's generation).
// Lines themselves are never mutated in place (an edit makes new ones).
type lineList struct {
	chunks []*lineChunk
	starts []int // starts[k]: the index of chunks[k]'s first line
	n      int
	gen    uint64 // chunks of an older generation are shared
}

type lineChunk struct {
	lines []*line
	gen   uint64
	// key is the SHA-256 of the chunk's text (its lines' Markdown joined
	// by newlines), computed once, by a save, on a frozen chunk only (a
	// chunk is written in place only before it is frozen).
	key func() [32]byte
}

func newLineChunk(lines []*line, gen uint64) *lineChunk {
	c := &lineChunk{lines: lines, gen: gen}
	c.key = sync.OnceValue(func() [32]byte { return sha256.Sum256([]byte(c.text())) })
	return c
}

// text is the chunk's lines' Markdown joined by newlines.
func (c *lineChunk) text() string {
	n := len(c.lines)
	for _, l := range c.lines {
		n += len(l.md)
	}
	var b strings.Builder
	b.Grow(n)
	for i, l := range c.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.md)
	}
	return b.String()
}

const (
	chunkMax = 256
	// chunkMin: an edit that leaves a chunk shorter merges it with a
	// neighbour, so deletions cannot leave a trail of tiny chunks.
	chunkMin = 64
)

// newLineList holds lines (taken, not copied).
func newLineList(lines ...*line) lineList {
	var l lineList
	l.Replace(0, 0, lines...)
	return l
}

// Len is the number of lines.
func (l *lineList) Len() int { return l.n }

// At is line i (0 ≤ i < Len).
func (l *lineList) At(i int) *line {
	k := l.chunkOf(i)
	return l.chunks[k].lines[i-l.starts[k]]
}

// chunkOf is the chunk holding line i; i == Len is the last chunk.
func (l *lineList) chunkOf(i int) int {
	k, found := slices.BinarySearch(l.starts, i)
	if !found {
		k--
	}
	return max(k, 0)
}

// All yields the lines in order with their indices.
func (l *lineList) All() iter.Seq2[int, *line] {
	return func(yield func(int, *line) bool) {
		i := 0
		for _, c := range l.chunks {
			for _, ln := range c.lines {
				if !yield(i, ln) {
					return
				}
				i++
			}
		}
	}
}

// Freeze returns the list as it is now, to read while l goes on
// changing: l's chunks become shared (copied before l writes them).
func (l *lineList) Freeze() lineList {
	// starts is shared: reindex makes a new one, nothing writes it.
	f := lineList{chunks: slices.Clone(l.chunks), starts: l.starts, n: l.n, gen: l.gen}
	l.gen++
	return f
}

// Replace replaces lines a..b-1 with repl (0 ≤ a ≤ b ≤ Len). It costs the
// chunks it touches, the lines it inserts and a pass over the chunk
// starts, never a pass over the lines.
func (l *lineList) Replace(a, b int, repl ...*line) {
	if a < 0 || b < a || b > l.n {
		panic("composer: lineList.Replace out of range")
	}
	if len(l.chunks) == 0 {
		l.chunks = chunked(repl, l.gen)
		l.reindex()
		return
	}
	ka := l.chunkOf(a)
	kb := ka
	if b > a {
		kb = l.chunkOf(b - 1)
	}
	if c := l.chunks[ka]; ka == kb && len(repl) == b-a && c.gen == l.gen {
		copy(c.lines[a-l.starts[ka]:], repl) // in place: the chunk is not shared
		return
	}
	first, last := ka, kb
	size := (a - l.starts[ka]) + len(repl) + (l.starts[kb] + len(l.chunks[kb].lines) - b)
	if size < chunkMin && last+1 < len(l.chunks) {
		last++
		size += len(l.chunks[last].lines)
	}
	if size < chunkMin && first > 0 {
		first--
		size += len(l.chunks[first].lines)
	}
	mid := make([]*line, 0, size)
	for k := first; k < ka; k++ {
		mid = append(mid, l.chunks[k].lines...)
	}
	mid = append(mid, l.chunks[ka].lines[:a-l.starts[ka]]...)
	mid = append(mid, repl...)
	mid = append(mid, l.chunks[kb].lines[b-l.starts[kb]:]...)
	for k := kb + 1; k <= last; k++ {
		mid = append(mid, l.chunks[k].lines...)
	}
	l.chunks = slices.Replace(l.chunks, first, last+1, chunked(mid, l.gen)...)
	l.reindex()
}

// chunked cuts lines into chunks of about equal size, at most chunkMax.
func chunked(lines []*line, gen uint64) []*lineChunk {
	if len(lines) == 0 {
		return nil
	}
	parts := (len(lines) + chunkMax - 1) / chunkMax
	out := make([]*lineChunk, 0, parts)
	for p := range parts {
		lo, hi := p*len(lines)/parts, (p+1)*len(lines)/parts
		out = append(out, newLineChunk(slices.Clip(lines[lo:hi]), gen))
	}
	return out
}

// reindex recomputes the chunk starts and the length (a new slice: a
// frozen list keeps its own).
func (l *lineList) reindex() {
	starts := make([]int, len(l.chunks))
	n := 0
	for k, c := range l.chunks {
		starts[k] = n
		n += len(c.lines)
	}
	l.starts, l.n = starts, n
}
