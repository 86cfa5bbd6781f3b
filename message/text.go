package message

import "unsafe"

// GrowingText is the text of an item that grows while a turn runs (a
// kind whose spec Grows): appended to in place, String a view of what is
// written so far, never copied. Unlike a strings.Builder, which doubles,
// it grows its buffer by an eighth (a small text doubles, up to growMin
// more), so a 50 MB reply
// holds at most about 56 MB, and a growth has about 2.1× the text live at
// once, not 3×. The bytes a String covers are never written again, so
// every string it returned stays as it was.
type GrowingText struct {
	buf []byte
}

// growMin is the least a GrowingText past growMin grows by.
const growMin = 64 << 10

// Append adds s to the end.
func (g *GrowingText) Append(s string) {
	if need := len(g.buf) + len(s); need > cap(g.buf) {
		nb := make([]byte, len(g.buf), need+max(need/8, min(need, growMin)))
		copy(nb, g.buf)
		g.buf = nb
	}
	g.buf = append(g.buf, s...)
}

// String is the text so far.
func (g *GrowingText) String() string {
	return unsafe.String(unsafe.SliceData(g.buf), len(g.buf))
}

// Len is the text's length in bytes.
func (g *GrowingText) Len() int { return len(g.buf) }

// Cap is the bytes the text holds (its length and the room to grow).
func (g *GrowingText) Cap() int { return cap(g.buf) }
