package transcript

import (
	"slices"
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
	known, ok             bool
	pre, post             string
	strongPre, strongPost string
	codePre, codePost     string
	bullet                string
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

// plainText says whether l is a line of plain words (plainSpans), with no
// leading or trailing space (indentation, a hard break), not a thematic
// break or setext underline, no list marker.
func plainText(l string) bool {
	if l == "" || l[0] == ' ' || l[len(l)-1] == ' ' {
		return false
	}
	if _, ok := plainSpans(l); !ok {
		return false
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

// span is a piece of a line: text ('t'), **strong** ('s') or `code`
// ('c'), without its markers.
type span struct {
	kind byte
	s    string
}

// spanEnd says whether a strong or code span may close before l[i:]: at
// the end, a space or a full stop, comma, semicolon or question mark.
func spanEnd(l string, i int) bool {
	return i >= len(l) || strings.IndexByte(" .,;?", l[i]) >= 0
}

// plainSpans splits line l into its spans: plain bytes, and strong and
// code spans of plain bytes (no space inside at either end) that open at
// the line's start or after a space and close before spanEnd.
func plainSpans(l string) ([]span, bool) {
	var out []span
	start := 0 // of the current text
	for i := 0; i < len(l); {
		c := l[i]
		if c != '*' && c != '`' {
			if !plainByte(c) {
				return nil, false
			}
			i++
			continue
		}
		mark, kind := "`", byte('c')
		if c == '*' {
			mark, kind = "**", 's'
		}
		if !strings.HasPrefix(l[i:], mark) || (i > 0 && l[i-1] != ' ') {
			return nil, false
		}
		body := l[i+len(mark):]
		j := strings.Index(body, mark)
		if j <= 0 || body[0] == ' ' || body[j-1] == ' ' || !spanEnd(body, j+len(mark)) {
			return nil, false
		}
		for k := 0; k < j; k++ {
			if !plainByte(body[k]) {
				return nil, false
			}
		}
		if i > start {
			out = append(out, span{'t', l[start:i]})
		}
		out = append(out, span{kind, body[:j]})
		i += len(mark) + j + len(mark)
		start = i
	}
	if start < len(l) {
		out = append(out, span{'t', l[start:]})
	}
	return out, true
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

// runs writes line l of a paragraph as glamour's runs: a run a span, the
// line's last text as two (glamour's parser ends a run at its last
// space); more: a line follows (the soft break draws as a space, in the
// text's look).
func (pl *plainLook) runs(b *strings.Builder, l string, more bool) {
	sp, _ := plainSpans(l)
	tail := ""
	if more {
		tail = " "
	}
	for i, s := range sp {
		switch {
		case s.kind == 's':
			b.WriteString(pl.strongPre + s.s + pl.strongPost)
		case s.kind == 'c':
			b.WriteString(pl.codePre + s.s + pl.codePost)
		case i < len(sp)-1:
			pl.run(b, s.s)
		default:
			if k := strings.LastIndexByte(s.s, ' '); k > 0 {
				pl.run(b, s.s[:k])
				pl.run(b, s.s[k:]+tail)
			} else {
				pl.run(b, s.s+tail)
			}
			tail = ""
		}
	}
	if tail != "" {
		pl.run(b, tail)
	}
}

// run writes s in the text's look.
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
		return padded(lipgloss.Wrap(b.String(), w, ""), w), true
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
	return padded(b.String(), w), true
}

// padded is out with a blank after each line narrower than w: glamour
// pads such a line, and trimPadding ends a line it cut with a reset.
func padded(out string, w int) string {
	var b strings.Builder
	b.Grow(len(out) + 8)
	for l := range strings.Lines(out) {
		l = strings.TrimSuffix(l, "\n")
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
		if ansi.StringWidth(l) < w {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// plainProbes are drawn both ways to see that the way is exact in a look.
var plainProbes = []string{
	"That should fix it.",
	"one",
	"a  b   c",
	"a b\nc d\ne\nf",
	"Reply 17. The **context** is off, see `nil`.",
	"**a b** c d\nx `a b` y z\nnext **line** here\n`end`",
	"a **b**\nc `d`\ne **f** g\nh `i` jk l",
	"The quick brown fox jumps over the **lazy dog and** then `some more` words follow here.",
	"- a **b** c\n- `x` y",
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
	// x is "`a` b" or "**a** b": what comes before a, and after it up to b.
	around := func(x string) (string, string, bool) {
		d := first(x)
		i := strings.IndexByte(d, 'a')
		j := strings.Index(d, pl.pre+" b")
		if i < 0 || j <= i {
			return "", "", false
		}
		return d[:i], d[i+1 : j], true
	}
	var ok1, ok2 bool
	pl.strongPre, pl.strongPost, ok1 = around("**a** b")
	pl.codePre, pl.codePost, ok2 = around("`a` b")
	if !ok1 || !ok2 {
		return false
	}
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
			if !ok || !slices.Equal(drawnLines(out, w, true), drawWith(rw, src, w, true)) {
				return false
			}
		}
	}
	pl.ok = true
	return true
}
