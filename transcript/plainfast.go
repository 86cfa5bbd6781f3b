package transcript

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Plain blocks without glamour. A block that is one paragraph of plain
// words, or a flat list of "- " items each one line of plain words that
// fits, is drawn as glamour draws it without going through glamour: each
// source line is two runs of text (glamour's parser ends a run at the
// line's last space), each in the text's look, the runs wrapped as
// glamour wraps a paragraph, a list item after the bullet in its look.
// The looks are read from what glamour draws for small probes, and the
// way is used only when it draws a set of probes exactly as glamour does
// (plainLook); TestPlainFastSameLines and FuzzPlainFast compare the two on
// many blocks in every look.

// plainLook is what a style draws plain text with: the text's SGR
// sequence and its end, the bullet as drawn. ok: the probes are drawn as
// glamour draws them.
type plainLook struct {
	known, ok bool
	pre, post string
	bullet    string
}

// plainByte says whether c may be in plain text: letters, digits, the
// space and punctuation no Markdown parser looks at.
func plainByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte(" .,;?'\"-/%+=$", c) >= 0
}

// plainText says whether l is a line of plain words: plain bytes, no
// leading or trailing space (indentation, a hard break), not a thematic
// break or setext underline, no list marker.
func plainText(l string) bool {
	if l == "" || l[0] == ' ' || l[len(l)-1] == ' ' {
		return false
	}
	for i := 0; i < len(l); i++ {
		if !plainByte(l[i]) {
			return false
		}
	}
	if strings.Trim(l, "-= ") == "" {
		return false
	}
	switch l[0] {
	case '-', '+': // a list marker, or an empty item alone
		return len(l) >= 2 && l[1] != ' '
	}
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i == 0 || i >= len(l) || (l[i] != '.' && l[i] != ')')
}

// plainShape is src's lines when it is one paragraph of plain lines, or a
// flat list of "- " items of one plain line each (list); ok false else.
func plainShape(src string) (lines []string, list, ok bool) {
	src = strings.Trim(src, "\n")
	if src == "" {
		return nil, false, false
	}
	lines = strings.Split(src, "\n")
	list = strings.HasPrefix(lines[0], "- ")
	for k, l := range lines {
		if list {
			if !strings.HasPrefix(l, "- ") {
				return nil, false, false
			}
			l = l[2:]
			lines[k] = l
		}
		if !plainText(l) {
			return nil, false, false
		}
	}
	return lines, list, true
}

// runs writes line l of a paragraph as glamour's runs of text; more: a
// line follows (the soft break draws as a space).
func (pl *plainLook) runs(b *strings.Builder, l string, more bool) {
	tail := ""
	if more {
		tail = " "
	}
	k := strings.LastIndexByte(l, ' ')
	if k > 0 {
		pl.run(b, l[:k])
		pl.run(b, l[k:]+tail)
		return
	}
	pl.run(b, l+tail)
}

func (pl *plainLook) run(b *strings.Builder, s string) {
	b.WriteString(pl.pre)
	b.WriteString(s)
	b.WriteString(pl.post)
}

// draw is what glamour outputs for the block's lines at width w, without
// its padding (drawnLines cuts it); ok false when a list item would wrap
// or a word is too long for a line.
func (pl *plainLook) draw(lines []string, list bool, w int) (string, bool) {
	var b strings.Builder
	if !list {
		for _, l := range lines { // glamour breaks a word too long otherwise
			for _, wd := range strings.Fields(l) {
				if len(wd) >= w {
					return "", false
				}
			}
		}
		for k, l := range lines {
			pl.runs(&b, l, k < len(lines)-1)
		}
		return lipgloss.Wrap(b.String(), w, ""), true
	}
	bw := ansi.StringWidth(pl.bullet)
	for k, l := range lines {
		if bw+len(l) >= w {
			return "", false
		}
		if k > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(pl.bullet)
		pl.runs(&b, l, false)
	}
	return b.String(), true
}

// plainProbes are drawn both ways to see that the way is exact in a look.
var plainProbes = []string{
	"That should fix it.",
	"one",
	"a  b   c",
	"a b\nc d\ne\nf",
	"The quick brown fox jumps over the lazy dog, and then some more words follow here; 100% sure?",
	"- check the error path\n- add a test\n- keep",
	"- x",
}

// plainLines draws src the plain way at width w when it has a plain shape
// and the look allows it (ok false else).
func (m *Model) plainLines(src string, w, cw int) ([]string, bool) {
	lines, list, ok := plainShape(src)
	if !ok || !m.plainReady() {
		return nil, false
	}
	out, ok := m.plain.draw(lines, list, w)
	if !ok {
		return nil, false
	}
	return drawnLines(out, cw, true), true
}

// plainReady reads the look from glamour's probes once and checks the
// plain way draws every probe as glamour does at two widths.
func (m *Model) plainReady() bool {
	pl := &m.plain
	if pl.known {
		return pl.ok
	}
	pl.known = true
	const wide = 96
	r := m.newGlamour(wide)
	if r == nil {
		return false
	}
	first := func(src string) string {
		ls := drawWith(r, src, wide, true)
		if len(ls) != 1 {
			return ""
		}
		return ls[0]
	}
	a := first("a")
	i := strings.IndexByte(a, 'a')
	if i < 0 {
		return false
	}
	pl.pre = a[:i]
	ab := first("a b")
	if !strings.HasPrefix(ab, pl.pre+"a") {
		return false
	}
	rest := ab[len(pl.pre)+1:]
	j := strings.Index(rest, pl.pre+" b")
	if j < 0 || (pl.pre == "" && j != 0) {
		return false
	}
	pl.post = rest[:j]
	li := first("- a")
	k := strings.Index(li, pl.pre+"a")
	if k <= 0 {
		return false
	}
	pl.bullet = li[:k]
	for _, w := range []int{20, 48} {
		rw := m.newGlamour(w)
		for _, src := range plainProbes {
			lines, list, ok := plainShape(src)
			if !ok {
				return false
			}
			out, ok := pl.draw(lines, list, w)
			if !ok && list && w == 20 {
				continue
			}
			if !ok || !equalLines(drawnLines(out, w, true), drawWith(rw, src, w, true)) {
				return false
			}
		}
	}
	pl.ok = true
	return true
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
