package message

import (
	"strings"
	"testing"
)

// FuzzTextBuf: any text appended in any chunks (repeated past a few
// pieces) reads back as the same bytes by String, Slice, At, IndexByte
// and Pieces, and a view taken early never changes.
func FuzzTextBuf(f *testing.F) {
	f.Add([]byte("héllo\nwörld 日本🙂"), uint16(7), uint16(3), uint16(40))
	f.Add([]byte("x"), uint16(1), uint16(0), uint16(65535))
	f.Fuzz(func(t *testing.T, data []byte, step, lo, span uint16) {
		if len(data) == 0 {
			return
		}
		var src strings.Builder
		for src.Len() < 2*TextPiece+int(step) {
			src.Write(data)
		}
		all := src.String()
		var b TextBuf
		var early Text
		earlyLen := 0
		for n := 0; n < len(all); {
			k := min(len(all)-n, 1+int(step)*(1+n%5))
			b.Append(all[n : n+k])
			n += k
			if early.Len() == 0 && n > TextPiece/2 {
				early, earlyLen = b.Text(), n
			}
		}
		txt := b.Text()
		if txt.String() != all {
			t.Fatal("the text differs")
		}
		if early.String() != all[:earlyLen] {
			t.Fatal("an early view changed")
		}
		l := int(lo) * len(all) / 65536
		h := min(len(all), l+int(span)*4)
		if txt.Slice(l, h) != all[l:h] {
			t.Fatalf("Slice(%d, %d) differs", l, h)
		}
		if l < len(all) && txt.At(l) != all[l] {
			t.Fatalf("At(%d) differs", l)
		}
		want := strings.IndexByte(all[l:h], data[0])
		if want >= 0 {
			want += l
		}
		if got := txt.IndexByte(l, h, data[0]); got != want {
			t.Fatalf("IndexByte(%d, %d) = %d, want %d", l, h, got, want)
		}
		if e := txt.PieceEnd(l); e < min(l+1, len(all)) || e > len(all) || txt.Slice(l, e) != all[l:e] {
			t.Fatalf("PieceEnd(%d) = %d", l, e)
		}
		var joined strings.Builder
		for p := range txt.Pieces(l) {
			joined.WriteString(p)
		}
		if joined.String() != all[l:] {
			t.Fatalf("Pieces(%d) differ", l)
		}
	})
}
