package review

import (
	"image/color"
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
)

// Theme is the pane's colours. A nil colour is not drawn; Syntax names a
// chroma style ("" draws no syntax colour).
type Theme struct {
	Syntax               string
	AddBg, DelBg         color.Color // added and deleted lines
	AddWordBg, DelWordBg color.Color // changed words on them
	AddFg, DelFg         color.Color // their prefixes and numbers
	NumFg                color.Color // line numbers
	HunkFg               color.Color // hunk headers
	FileFg, FileBg       color.Color // file headers
	Accent               color.Color // selection and comment marks, the title
	SelBg                color.Color // the gutter of selected lines
	FaintFg              color.Color // notes, help
	// Light draws the comment editor in textarea's light styles.
	Light bool
}

func rgb(v uint32) color.Color {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// DefaultTheme is a theme for dark terminals.
func DefaultTheme() Theme {
	return Theme{
		Syntax: "github-dark",
		AddBg:  rgb(0x12261e), DelBg: rgb(0x25171c),
		AddWordBg: rgb(0x1d572d), DelWordBg: rgb(0x792e2e),
		AddFg: rgb(0x3fb950), DelFg: rgb(0xf85149),
		NumFg: rgb(0x6e7681), HunkFg: rgb(0x79c0ff),
		FileFg: rgb(0xe6edf3), FileBg: rgb(0x30363d),
		Accent: rgb(0xd29922), SelBg: rgb(0x3b2e0a),
		FaintFg: rgb(0x8b949e),
	}
}

// LightTheme is a theme for light terminals.
func LightTheme() Theme {
	return Theme{
		Syntax: "github",
		AddBg:  rgb(0xe6ffec), DelBg: rgb(0xffebe9),
		AddWordBg: rgb(0xabf2bc), DelWordBg: rgb(0xffc1c0), // GitHub's deleted words: #ff8182 at 40% over the line's red
		AddFg: rgb(0x1a7f37), DelFg: rgb(0xcf222e),
		NumFg: rgb(0x656d76), HunkFg: rgb(0x0969da), // numbers 4.9:1 on the selection's yellow
		FileFg: rgb(0x1f2328), FileBg: rgb(0xeaeef2),
		Accent: rgb(0x9a6700), SelBg: rgb(0xfff8c5),
		FaintFg: rgb(0x656d76),
		Light:   true,
	}
}

// NoColorTheme draws no colour at all: prefixes, marks, bold and reverse
// video carry the meaning.
func NoColorTheme() Theme { return Theme{} }

// sty is one drawn look.
type sty struct {
	fg, bg                                  color.Color
	bold, faint, italic, underline, reverse bool
}

func (s sty) sgr() string {
	var b strings.Builder
	b.WriteString("\x1b[0")
	for _, a := range []struct {
		on bool
		c  string
	}{{s.bold, ";1"}, {s.faint, ";2"}, {s.italic, ";3"}, {s.underline, ";4"}, {s.reverse, ";7"}} {
		if a.on {
			b.WriteString(a.c)
		}
	}
	writeColor := func(c color.Color, base string) {
		if c == nil {
			return
		}
		r, g, bl, _ := c.RGBA()
		b.WriteString(";" + base + ";2;" + strconv.Itoa(int(r>>8)) + ";" + strconv.Itoa(int(g>>8)) + ";" + strconv.Itoa(int(bl>>8)))
	}
	writeColor(s.fg, "38")
	writeColor(s.bg, "48")
	b.WriteByte('m')
	return b.String()
}

// painter collects the styled pieces of one row; String lays them out in
// the row's width, cutting with "…" when they do not fit. The pieces'
// text is kept in one buffer, one after another: a row costs a few
// allocations, not one per token.
type painter struct {
	buf     []byte // the pieces' text
	pieces  []piece
	width   int // columns of the pieces
	max     int // columns allowed
	sgrs    map[sty]string
	fillSty sty
	filled  bool
	// last: nothing follows the row on its line, so padding in the
	// terminal's own look is left out (those cells are blank anyway):
	// fewer bytes for the renderer to parse each frame
	last bool
}

// piece is a run of text in one style: buf[previous piece's end:end].
type piece struct {
	end int
	st  sty
	w   int
	sgr string // st's sequence when known ("": looked up in String)
}

func (p *painter) style(s sty) string {
	if v, ok := p.sgrs[s]; ok {
		return v
	}
	v := s.sgr()
	p.sgrs[s] = v
	return v
}

// textWidth is t's width in cells: its length when it is printable ASCII
// (most of a diff), else what ansi measures.
func textWidth(t string) int {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c < 0x20 || c > 0x7e {
			return ansi.StringWidth(t)
		}
	}
	return len(t)
}

// text adds already-sanitized text in style s. Pieces past the width are
// not kept.
func (p *painter) text(t string, s sty) {
	if t == "" || p.width > p.max {
		return
	}
	p.buf = append(p.buf, t...)
	p.add(s, "", textWidth(t))
}

// add makes the bytes of buf after the last piece a piece of w cells in
// style s (sgr: its sequence, or "").
func (p *painter) add(s sty, sgr string, w int) {
	if n := len(p.pieces); n > 0 && p.pieces[n-1].st == s {
		// one style sequence for a run in one style (a token and the
		// blank after it): fewer bytes for the terminal to parse
		p.pieces[n-1].end = len(p.buf)
		p.pieces[n-1].w += w
	} else {
		p.pieces = append(p.pieces, piece{len(p.buf), s, w, sgr})
	}
	p.width += w
}

// plainASCII reports whether t is printable ASCII: text that needs no
// sanitizing and is as wide as it is long.
func plainASCII(t string) bool {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// token adds text t of a line (sanitized here unless it is plain ASCII)
// in style s, whose sequence is sgr.
func (p *painter) token(t string, s sty, sgr string) {
	if t == "" || p.width > p.max {
		return
	}
	if !plainASCII(t) {
		t = chips.SanitizeLine(t)
		p.buf = append(p.buf, t...)
		p.add(s, sgr, textWidth(t))
		return
	}
	p.buf = append(p.buf, t...)
	p.add(s, sgr, len(t))
}

// num adds line number n right-aligned in w columns (blank for 0), and
// the blank after it, in style s.
func (p *painter) num(n, w int, s sty) {
	if p.width > p.max {
		return
	}
	var d [20]byte
	digits := d[:0]
	if n != 0 {
		digits = strconv.AppendInt(digits, int64(n), 10)
	}
	for range max(0, w-len(digits)) {
		p.buf = append(p.buf, ' ')
	}
	p.buf = append(p.buf, digits...)
	p.buf = append(p.buf, ' ')
	p.add(s, "", max(w, len(digits))+1)
}

// fill pads the row to its width in style s.
func (p *painter) fill(s sty) { p.fillSty, p.filled = s, true }

func (p *painter) String() string {
	var b strings.Builder
	pad := 0
	if p.filled && p.last && p.fillSty == (sty{}) {
		p.filled = false
	}
	if p.filled {
		pad = max(p.max-p.width, 0)
	}
	b.Grow(len(p.buf) + 40*(len(p.pieces)+1) + pad + 8)
	used, from := 0, 0
	over := p.width > p.max
	for _, pc := range p.pieces {
		t, w := p.buf[from:pc.end], pc.w
		from = pc.end
		if over && used+w > p.max-1 {
			room := max(p.max-1-used, 0)
			cut := ansi.Truncate(string(t), room, "") + "…"
			b.WriteString(p.style(pc.st))
			b.WriteString(cut)
			used += ansi.StringWidth(cut)
			break
		}
		if pc.sgr != "" {
			b.WriteString(pc.sgr)
		} else {
			b.WriteString(p.style(pc.st))
		}
		b.Write(t)
		used += w
	}
	if p.filled && used < p.max {
		b.WriteString(p.style(p.fillSty))
		for range p.max - used {
			b.WriteByte(' ')
		}
	}
	b.WriteString("\x1b[0m")
	return b.String()
}

// decorations of a line row
const (
	decCursor   = 1 << iota // the cursor's row
	decSelected             // inside the selection
	decComment              // a comment was written on it
)

// newPainter is the model's painter, emptied, for a row of width
// columns: one painter for all (a row is painted and made a string before
// the next), so painting allocates only the row's string.
func (m *Model) newPainter(width int) *painter {
	p := m.painter
	if p == nil {
		p = &painter{buf: make([]byte, 0, 256), pieces: make([]piece, 0, 32)}
		m.painter = p
	}
	*p = painter{max: width, sgrs: m.sgrs, buf: p.buf[:0], pieces: p.pieces[:0]}
	return p
}

// renderRow draws row r of the diff pane at width columns.
func (m *Model) renderRow(r, width int, dec uint8) string {
	rw := m.doc.rows[r]
	f := m.doc.diff.Files[rw.file]
	t := m.theme
	p := m.newPainter(width)
	p.last = true // the diff pane is the right of the screen
	switch rw.kind {
	case rowFile:
		s := sty{fg: t.FileFg, bg: t.FileBg, bold: true}
		p.text(" "+string(statusLetter(f))+" ", s)
		p.text(chips.SanitizeLine(fileTitle(f)), s)
		a, d := m.doc.counts[rw.file][0], m.doc.counts[rw.file][1]
		p.text("  ", s)
		p.text("+"+strconv.Itoa(a), sty{fg: t.AddFg, bg: t.FileBg, bold: true})
		p.text(" ", s)
		p.text("-"+strconv.Itoa(d), sty{fg: t.DelFg, bg: t.FileBg, bold: true})
		p.fill(s)
	case rowHunk:
		h := f.Hunks[rw.hunk]
		p.text(strings.Repeat(" ", 2*m.doc.numW+3), sty{})
		p.text(chips.SanitizeLine(h.Header()), sty{fg: t.HunkFg, faint: t.HunkFg == nil})
	case rowNoNewline:
		p.text(strings.Repeat(" ", 2*m.doc.numW+3), sty{})
		p.text(`\ No newline at end of file`, sty{fg: t.FaintFg, faint: true})
	case rowNote:
		m.gutterMark(p, dec)
		p.text(strings.Repeat(" ", 2*m.doc.numW+2), m.numStyle(dec, nil))
		p.text(chips.SanitizeLine(noteText(f)), sty{fg: t.FaintFg, italic: true})
	case rowLine:
		m.renderLine(p, rw, dec)
	}
	return p.String()
}

func (m *Model) numStyle(dec uint8, fg color.Color) sty {
	s := sty{fg: fg}
	if fg == nil {
		s.fg = m.theme.NumFg
	}
	switch {
	case dec&decCursor != 0:
		s.reverse, s.bold = true, true
	case dec&decSelected != 0:
		s.bg = m.theme.SelBg
		s.bold = true
	}
	return s
}

func (m *Model) gutterMark(p *painter, dec uint8) {
	t := m.theme
	switch {
	case dec&decSelected != 0:
		p.text("▌", sty{fg: t.Accent, bold: true})
	case dec&decComment != 0:
		p.text("●", sty{fg: t.Accent})
	default:
		p.text(" ", sty{})
	}
}

func (m *Model) renderLine(p *painter, rw row, dec uint8) {
	t := m.theme
	l := m.doc.diff.Files[rw.file].Hunks[rw.hunk].Lines[rw.line]
	var lineBg, wordBg, prefixFg color.Color
	switch l.Kind {
	case LineAdded:
		lineBg, wordBg, prefixFg = t.AddBg, t.AddWordBg, t.AddFg
	case LineDeleted:
		lineBg, wordBg, prefixFg = t.DelBg, t.DelWordBg, t.DelFg
	}
	m.gutterMark(p, dec)
	nw := m.doc.numW
	ns := m.numStyle(dec, prefixFg)
	p.num(l.Old, nw, ns)
	p.num(l.New, nw, ns)
	base := sty{bg: lineBg}
	prefix := "  "
	switch l.Kind {
	case LineAdded:
		prefix = "+ "
	case LineDeleted:
		prefix = "- "
	case LineContext:
	default:
		prefix = string(l.Kind) + " "
	}
	p.text(prefix, sty{fg: prefixFg, bg: lineBg, bold: l.Kind != LineContext})
	toks := m.hl.tokens(m.doc, rw.file, rw.hunk, rw.line)
	spans := m.wordSpans(rw)
	pos := 0
	si := 0
	for _, tk := range toks {
		text := tk.text
		for text != "" {
			for si < len(spans) && spans[si].to <= pos {
				si++
			}
			n := len(text)
			in := false
			if si < len(spans) {
				sp := spans[si]
				if pos >= sp.from {
					in = true
					n = min(n, sp.to-pos)
				} else {
					n = min(n, sp.from-pos)
				}
			}
			ps := m.tokenStyle(tk.style, l.Kind, in, lineBg, wordBg)
			p.token(text[:n], ps.st, ps.sgr)
			pos += n
			text = text[n:]
		}
	}
	p.fill(base)
}

// tokStyKey is what a token's look is made of: hashed as plain bytes,
// where a sty holds interfaces.
type tokStyKey struct {
	colour       chroma.Colour
	bold, italic bool
	kind         LineKind
	in           bool // in a changed word
}

type styled struct {
	st  sty
	sgr string
}

// tokenStyle is the look of a token in style ts on a line of kind k (in:
// in a changed word), and its sequence, made once per look.
func (m *Model) tokenStyle(ts chroma.StyleEntry, k LineKind, in bool, lineBg, wordBg color.Color) styled {
	key := tokStyKey{ts.Colour, ts.Bold == chroma.Yes, ts.Italic == chroma.Yes, k, in}
	if v, ok := m.tokStys[key]; ok {
		return v
	}
	s := sty{bg: lineBg}
	s.fg = m.tokenColor(ts.Colour)
	s.bold = key.bold
	s.italic = key.italic
	if in {
		if wordBg != nil {
			s.bg = wordBg
		} else {
			s.underline = true
		}
	}
	if m.tokStys == nil {
		m.tokStys = map[tokStyKey]styled{}
	}
	v := styled{s, s.sgr()}
	m.tokStys[key] = v
	return v
}

// tokenColor is chromaColor made once per colour: a colour put in an
// interface is an allocation, and a row has a token or more a word.
func (m *Model) tokenColor(c chroma.Colour) color.Color {
	if v, ok := m.colors[c]; ok {
		return v
	}
	if m.colors == nil {
		m.colors = map[chroma.Colour]color.Color{}
	}
	v := chromaColor(c)
	m.colors[c] = v
	return v
}

func chromaColor(c chroma.Colour) color.Color {
	if !c.IsSet() {
		return nil
	}
	return color.RGBA{R: c.Red(), G: c.Green(), B: c.Blue(), A: 0xff}
}

type lineKey struct{ file, hunk, line int32 }

// wordSpans is the changed ranges of a paired line's display text.
func (m *Model) wordSpans(rw row) []span {
	pair := m.doc.pairs[rw.file][rw.hunk][rw.line]
	if pair < 0 {
		return nil
	}
	k := lineKey{rw.file, rw.hunk, rw.line}
	if s, ok := m.words[k]; ok {
		return s
	}
	if len(m.words) > 8192 {
		m.words = map[lineKey][]span{}
	}
	lines := m.doc.diff.Files[rw.file].Hunks[rw.hunk].Lines
	del, add := int(rw.line), pair
	if lines[rw.line].Kind == LineAdded {
		del, add = pair, int(rw.line)
	}
	ds, as := wordChanges(displayText(lines[del].Text), displayText(lines[add].Text))
	m.words[lineKey{rw.file, rw.hunk, int32(del)}] = ds
	m.words[lineKey{rw.file, rw.hunk, int32(add)}] = as
	return m.words[k]
}

func statusLetter(f *File) byte {
	if f.Untracked {
		return '?'
	}
	return byte(f.Status)
}

func fileTitle(f *File) string {
	switch {
	case (f.Status == Renamed || f.Status == Copied) && f.OldPath != f.NewPath:
		return f.OldPath + " → " + f.NewPath
	case f.Untracked:
		return f.NewPath + " (untracked)"
	}
	return f.Path()
}

func noteText(f *File) string {
	switch {
	case f.Note != "":
		return f.Note
	case f.Binary:
		return "binary file, not shown"
	case f.OldMode != "" && f.NewMode != "" && f.OldMode != f.NewMode:
		return "mode " + f.OldMode + " → " + f.NewMode
	case f.Status == Renamed:
		return "renamed, content unchanged"
	case f.Status == Copied:
		return "copied, content unchanged"
	case f.Status == Added:
		return "empty file"
	case f.Status == Deleted:
		return "empty file deleted"
	}
	return "no content change"
}
