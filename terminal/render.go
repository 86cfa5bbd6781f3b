package terminal

import (
	"strconv"
	"strings"
)

// Highlight tells Render to draw the cell at column x of absolute line n in
// reverse video (copy-mode cursor and selection). It may be nil.
type Highlight func(x int, n int64) bool

// Render returns the rows of the view whose first row is absolute line
// viewTop, as styled strings (SGR sequences only), each exactly cols wide.
// Lines outside the held history render blank.
func (s *Screen) Render(viewTop int64, hl Highlight) []string {
	out := make([]string, s.rows)
	var b strings.Builder
	for y := 0; y < s.rows; y++ {
		b.Reset()
		n := viewTop + int64(y)
		var l *Line
		if n >= s.FirstLine() {
			l = s.line(n)
		}
		cur := Style{}
		for x := 0; x < s.cols; x++ {
			c := Cell{Width: 1}
			if l != nil && x < len(l.Cells) {
				c = l.Cells[x]
			}
			if c.Width == 0 {
				continue
			}
			st := c.Style
			if hl != nil && hl(x, n) {
				st.Attr ^= AttrReverse
			}
			if st != cur {
				writeSGR(&b, st)
				cur = st
			}
			if c.Rune == 0 || c.Rune < 0x20 {
				b.WriteByte(' ')
			} else {
				b.WriteRune(c.Rune)
				if l.comb != nil {
					b.WriteString(l.comb[x])
				}
			}
		}
		if cur != (Style{}) {
			b.WriteString("\x1b[m")
		}
		out[y] = b.String()
	}
	return out
}

func writeSGR(b *strings.Builder, st Style) {
	b.WriteString("\x1b[0")
	a := st.Attr
	for i, code := range []string{"1", "2", "3", "4", "7", "5", "8", "9"} {
		bit := []uint8{AttrBold, AttrFaint, AttrItalic, AttrUnderline, AttrReverse, AttrBlink, AttrInvisible, AttrStrike}[i]
		if a&bit != 0 {
			b.WriteByte(';')
			b.WriteString(code)
		}
	}
	writeColor(b, st.Fg, 30)
	writeColor(b, st.Bg, 40)
	b.WriteByte('m')
}

func writeColor(b *strings.Builder, c Color, base int) {
	switch c & 0xff000000 {
	case colorPalette:
		n := int(c & 0xff)
		switch {
		case n < 8:
			b.WriteString(";" + strconv.Itoa(base+n))
		case n < 16:
			b.WriteString(";" + strconv.Itoa(base+60+n-8))
		default:
			b.WriteString(";" + strconv.Itoa(base+8) + ";5;" + strconv.Itoa(n))
		}
	case colorRGB:
		b.WriteString(";" + strconv.Itoa(base+8) + ";2;" + strconv.Itoa(int(c>>16&0xff)) + ";" +
			strconv.Itoa(int(c>>8&0xff)) + ";" + strconv.Itoa(int(c&0xff)))
	}
}
