package message

import (
	"iter"
	"strings"
	"unsafe"
)

// TextPiece is the size of the pieces a long TextBuf is kept in.
const TextPiece = 64 << 10

// piece is one piece of a long text: written once, front to back, never
// moved.
type piece = [TextPiece]byte

// TextBuf is the text of an item that grows while a turn runs (a kind
// whose spec Grows): appended to in place and never copied. Up to
// TextPiece bytes it is one buffer that doubles; past that it is kept in
// pieces of TextPiece bytes, so a 50 MB reply holds 50 MB (and under one
// piece more), and growing never has the text twice in memory as a
// buffer that moves does. The bytes a view covers are never written
// again: every Text it returned stays as it was.
type TextBuf struct {
	small  []byte   // the text while it fits one piece
	pieces []*piece // past that: its pieces, the last one filled to n
	n      int
}

// Append adds s to the end.
func (b *TextBuf) Append(s string) {
	if b.pieces == nil {
		if b.n+len(s) <= TextPiece {
			if need := b.n + len(s); need > cap(b.small) {
				nb := make([]byte, b.n, min(TextPiece, max(need, 2*cap(b.small), 64)))
				copy(nb, b.small)
				b.small = nb
			}
			b.small = append(b.small, s...)
			b.n = len(b.small)
			return
		}
		// Past one piece: the text so far becomes the first piece.
		p := new(piece)
		copy(p[:], b.small)
		b.pieces, b.small = []*piece{p}, nil
	}
	for s != "" {
		at := b.n % TextPiece
		if at == 0 && b.n/TextPiece == len(b.pieces) {
			b.pieces = append(b.pieces, new(piece))
		}
		k := copy(b.pieces[b.n/TextPiece][at:], s)
		s = s[k:]
		b.n += k
	}
}

// Len is the text's length in bytes.
func (b *TextBuf) Len() int { return b.n }

// Cap is the bytes the text holds (its length and the room to grow).
func (b *TextBuf) Cap() int {
	if b.pieces == nil {
		return cap(b.small)
	}
	return len(b.pieces) * TextPiece
}

// Text is the text so far: a view that never changes, however the
// TextBuf grows.
func (b *TextBuf) Text() Text {
	if b.pieces == nil {
		return TextOf(unsafe.String(unsafe.SliceData(b.small), len(b.small)))
	}
	return Text{pieces: b.pieces[:len(b.pieces):len(b.pieces)], n: b.n}
}

// String is the text so far in one string: a view while it fits one
// piece, else a copy.
func (b *TextBuf) String() string { return b.Text().String() }

// Text is a text as a view that never changes: one string, or the pieces
// of a long TextBuf. Reading it costs no copy, except a Slice or String
// that spans pieces.
type Text struct {
	s      string   // the text, when pieces is nil
	pieces []*piece // its pieces, the last filled to n
	n      int
}

// TextOf is s as a Text.
func TextOf(s string) Text { return Text{s: s, n: len(s)} }

// Len is the text's length in bytes.
func (t Text) Len() int { return t.n }

// Same reports whether t and u are the same view (the same string, or
// the same pieces to the same length): a cheap test that a text did not
// change, false for equal texts held apart.
func (t Text) Same(u Text) bool {
	if t.n != u.n {
		return false
	}
	if t.pieces == nil || u.pieces == nil {
		return t.pieces == nil && u.pieces == nil && t.s == u.s
	}
	return t.pieces[0] == u.pieces[0]
}

// piece is the bytes of piece k as far as t covers it.
func (t Text) piece(k int) string {
	end := min(TextPiece, t.n-k*TextPiece)
	return unsafe.String(&t.pieces[k][0], end)
}

// Slice is the text's bytes lo to hi (0 ≤ lo ≤ hi ≤ Len): a view when
// they lie in one piece, else a copy.
func (t Text) Slice(lo, hi int) string {
	if t.pieces == nil {
		return t.s[lo:hi]
	}
	if lo < 0 || hi < lo || hi > t.n {
		panic("message: Text.Slice out of range")
	}
	if lo == hi {
		return ""
	}
	k := lo / TextPiece
	if (hi-1)/TextPiece == k {
		return t.piece(k)[lo-k*TextPiece : hi-k*TextPiece]
	}
	var b strings.Builder
	b.Grow(hi - lo)
	for p := lo; p < hi; {
		k := p / TextPiece
		s := t.piece(k)[p-k*TextPiece:]
		s = s[:min(len(s), hi-p)]
		b.WriteString(s)
		p += len(s)
	}
	return b.String()
}

// PieceEnd is where the piece holding byte lo ends: Len for a text in
// one string. Slice(lo, PieceEnd(lo)) is a view, never a copy.
func (t Text) PieceEnd(lo int) int {
	if t.pieces == nil {
		return t.n
	}
	return min(t.n, (lo/TextPiece+1)*TextPiece)
}

// From is the text from lo on (Slice(lo, Len())).
func (t Text) From(lo int) string { return t.Slice(lo, t.n) }

// String is the whole text: the string itself, or a copy of the pieces
// (a long text joined: read it with Pieces or Slice where you can).
func (t Text) String() string { return t.Slice(0, t.n) }

// At is byte i of the text.
func (t Text) At(i int) byte {
	if t.pieces == nil {
		return t.s[i]
	}
	if i < 0 || i >= t.n {
		panic("message: Text.At out of range")
	}
	return t.pieces[i/TextPiece][i%TextPiece]
}

// IndexByte is the index of the first c at or after from, before to
// (absolute), or -1.
func (t Text) IndexByte(from, to int, c byte) int {
	for p := from; p < to; {
		k := p / TextPiece
		var s string
		base := p
		if t.pieces == nil {
			s = t.s[p:to]
		} else {
			s = t.piece(k)[p-k*TextPiece:]
			s = s[:min(len(s), to-p)]
		}
		if i := strings.IndexByte(s, c); i >= 0 {
			return base + i
		}
		p += len(s)
	}
	return -1
}

// Pieces yields the text from lo on, piece by piece, each a view (a
// text in one string: that string).
func (t Text) Pieces(lo int) iter.Seq[string] {
	return func(yield func(string) bool) {
		if t.pieces == nil {
			if lo < len(t.s) {
				yield(t.s[lo:])
			}
			return
		}
		for p := lo; p < t.n; {
			k := p / TextPiece
			s := t.piece(k)[p-k*TextPiece:]
			if !yield(s) {
				return
			}
			p += len(s)
		}
	}
}
