package message

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// A growing text: every view it handed out stays as it was while it
// grows, it holds under one piece more than the text (a strings.Builder
// holds up to twice it, a buffer grown by an eighth 1.125× and a copy on
// each growth), and it reads back whole, by slices, bytes, searches and
// pieces.
func TestTextBufAppendsAndViewsNeverChange(t *testing.T) {
	var b TextBuf
	type seen struct {
		v Text
		s string
	}
	var views []seen
	var want strings.Builder
	rng := rand.New(rand.NewPCG(1, 2))
	chunk := strings.Repeat("0123456789abcdé\n", 4<<10) // 68 KB, a 2-byte character in each 16
	for i := 0; b.Len() < 3<<20; i++ {
		c := chunk[:rng.IntN(len(chunk))]
		if i%5 == 0 {
			c = chunk[:rng.IntN(200)] // small appends too
		}
		b.Append(c)
		want.WriteString(c)
		if b.Len() != want.Len() {
			t.Fatalf("after %d appends Len %d, want %d", i+1, b.Len(), want.Len())
		}
		if limit := b.Len() + TextPiece; b.Cap() > limit {
			t.Fatalf("holds %d bytes for a %d-byte text, over %d", b.Cap(), b.Len(), limit)
		}
		if i%7 == 0 {
			views = append(views, seen{b.Text(), want.String()})
		}
	}
	all := want.String()
	if b.String() != all {
		t.Fatal("the text read whole differs")
	}
	for _, v := range views {
		if v.v.Len() != len(v.s) || v.v.String() != v.s {
			t.Fatalf("a %d-byte view handed out earlier changed", len(v.s))
		}
	}
	txt := b.Text()
	var joined strings.Builder
	for p := range txt.Pieces(0) {
		if len(p) > TextPiece {
			t.Fatalf("a piece of %d bytes", len(p))
		}
		joined.WriteString(p)
	}
	if joined.String() != all {
		t.Fatal("the pieces joined differ from the text")
	}
	for i := range 2000 {
		lo := rng.IntN(len(all) + 1)
		hi := lo + rng.IntN(min(len(all)-lo, 3*TextPiece)+1)
		if got := txt.Slice(lo, hi); got != all[lo:hi] {
			t.Fatalf("Slice(%d, %d) differs", lo, hi)
		}
		if lo < len(all) && txt.At(lo) != all[lo] {
			t.Fatalf("At(%d) = %q, want %q", lo, txt.At(lo), all[lo])
		}
		wantIdx := strings.IndexByte(all[lo:hi], 'é'&0xff)
		if wantIdx >= 0 {
			wantIdx += lo
		}
		if got := txt.IndexByte(lo, hi, 'é'&0xff); got != wantIdx {
			t.Fatalf("IndexByte(%d, %d) = %d, want %d", lo, hi, got, wantIdx)
		}
		if i%50 != 0 {
			continue
		}
		var from strings.Builder
		for p := range txt.Pieces(lo) {
			from.WriteString(p)
		}
		if from.String() != all[lo:] {
			t.Fatalf("Pieces(%d) differ", lo)
		}
	}
	var empty TextBuf
	if empty.String() != "" || empty.Len() != 0 || empty.Text().Len() != 0 {
		t.Fatalf("the zero text is %q", empty.String())
	}
}

// A character cut by a piece's end reads back whole: across the cut a
// Slice joins the pieces, the pieces joined are the text, and every
// piece boundary is where the bytes were cut, not moved.
func TestTextRunesAcrossPieces(t *testing.T) {
	var b TextBuf
	var want strings.Builder
	for _, s := range []string{strings.Repeat("a", TextPiece-1), "é", strings.Repeat("b", TextPiece-2), "日本", "x"} {
		b.Append(s)
		want.WriteString(s)
	}
	all := want.String()
	txt := b.Text()
	if txt.String() != all {
		t.Fatal("the text differs")
	}
	if got := txt.Slice(TextPiece-1, TextPiece+1); got != "é" {
		t.Fatalf("the character across the first cut reads %q", got)
	}
	lens := []int{}
	for p := range txt.Pieces(0) {
		lens = append(lens, len(p))
	}
	if !slices.Equal(lens, []int{TextPiece, TextPiece, len(all) - 2*TextPiece}) {
		t.Fatalf("pieces of %v bytes", lens)
	}
	if !utf8.ValidString(txt.Slice(TextPiece-1, len(all))) {
		t.Fatal("a slice from a character's start is not valid UTF-8")
	}
}

// Same tells one view from another cheaply: a view and itself, two views
// of the same length of one buffer, but not a longer one, nor another
// buffer's.
func TestTextSame(t *testing.T) {
	var a, c TextBuf
	a.Append(strings.Repeat("x", 2*TextPiece))
	c.Append(strings.Repeat("x", 2*TextPiece))
	v := a.Text()
	if !v.Same(v) || !v.Same(a.Text()) {
		t.Fatal("a view is not the same as itself")
	}
	if v.Same(c.Text()) {
		t.Fatal("another buffer's view is the same")
	}
	a.Append("y")
	if v.Same(a.Text()) {
		t.Fatal("a longer view is the same")
	}
	if !TextOf("ab").Same(TextOf("ab")) || TextOf("ab").Same(TextOf("ac")) {
		t.Fatal("one-string texts compare by their strings")
	}
}

// An item's text is in Text or in Chunks: Body and TextLen read either.
func TestItemBody(t *testing.T) {
	var b TextBuf
	b.Append(strings.Repeat("z", TextPiece+1))
	long := Item{Kind: ItemText, Chunks: b.Text()}
	short := Item{Kind: ItemText, Text: "hi"}
	if long.TextLen() != TextPiece+1 || long.Body().String() != b.String() {
		t.Fatal("an item in chunks does not read back")
	}
	if short.TextLen() != 2 || short.Body().String() != "hi" {
		t.Fatal("an item in Text does not read back")
	}
	if ReplyText([]Item{short, long}) != "hi\n\n"+b.String() {
		t.Fatal("ReplyText does not join an item in chunks")
	}
}
