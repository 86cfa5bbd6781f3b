package transcript

import (
	"strings"

	"charm.land/glamour/v2"
	gstyles "charm.land/glamour/v2/styles"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
)

// Markdown rendering of one block. Glamour draws it with the transcript's
// style, changed where a reader expects better: headings without their
// "##" markers, and tables sized to their content (glamour stretches a
// table to the full width, so a table is rendered on its own at the width
// its cells need). Lines glamour leaves too long (code) are wrapped with
// their indentation kept.

// maxRenderers bounds the glamour renderers kept for table widths.
const maxRenderers = 16

var lightCodeSpan = "124"

// glamourFor returns the Markdown renderer for width w, made once per
// width: the one of the content width is kept, those of tables' widths in
// a small cache.
func (m *Model) glamourFor(w int) *glamour.TermRenderer {
	if m.gl != nil && m.glW == w {
		return m.gl
	}
	if r, ok := m.gls[w]; ok {
		return r
	}
	if r, ok := m.glFit[w]; ok {
		return r
	}
	r := m.newGlamour(w)
	if r == nil {
		return nil
	}
	if w == m.contentWidth() {
		m.gl, m.glW = r, w
		return r
	}
	if w%fitStep == 0 && w < m.contentWidth() {
		if m.glFit == nil {
			m.glFit = map[int]*glamour.TermRenderer{}
		}
		m.glFit[w] = r
		return r
	}
	if m.gls == nil || len(m.gls) >= maxRenderers {
		m.gls = map[int]*glamour.TermRenderer{}
	}
	m.gls[w] = r
	return r
}

// newGlamour makes the Markdown renderer for width w (nil if glamour
// cannot).
func (m *Model) newGlamour(w int) *glamour.TermRenderer {
	base, ok := gstyles.DefaultStyles[m.style]
	if !ok {
		base = gstyles.DefaultStyles[gstyles.DarkStyle]
	}
	cfg := *base
	zero := uint(0)
	cfg.Document.Margin = &zero
	cfg.Document.BlockPrefix = ""
	cfg.Document.BlockSuffix = ""
	// Headings without literal markers: H1 keeps its style (a styled
	// block in the colour styles; bold and underlined where it was "# "),
	// H2 is underlined, the others bold.
	yes := true
	if strings.Contains(cfg.H1.Prefix, "#") {
		cfg.H1.Prefix = ""
		cfg.H1.Bold, cfg.H1.Underline = &yes, &yes
	}
	cfg.H2.Prefix = ""
	cfg.H2.Underline = &yes
	cfg.H3.Prefix = ""
	cfg.H4.Prefix = ""
	cfg.H5.Prefix = ""
	cfg.H6.Prefix = ""
	cfg.H3.Bold = &yes
	cfg.H4.Bold = &yes
	if m.light && !m.noColor {
		// glamour's light style draws `code` in 203 on 254 (2.3:1): a
		// darker red (5.9:1).
		cfg.Code.Color = &lightCodeSpan
	}
	r, err := glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(w))
	if err != nil {
		return nil
	}
	return r
}

// markdown renders one block of Markdown at width cw. Its input is
// sanitized first (tabs expanded so code keeps its indentation); reference
// links become their bracketed label.
func (m *Model) markdown(src string, cw int) []string {
	src = chips.Sanitize(chips.ExpandTabs(src))
	if contextref.HasReferences(src) {
		src = contextref.Replace(src, func(o contextref.Occurrence) string {
			return `\[` + escapeMarkdown(o.Label) + `\]`
		})
	}
	if strings.TrimSpace(src) == "" {
		return nil
	}
	src = joinListBreaks(src)
	var out []string
	for _, seg := range segments(src) {
		var ls []string
		switch {
		case seg.code:
			ls = m.codeLines(seg.text, seg.lang, cw)
		case seg.table:
			ls = m.tableLines(seg.text, min(cw, seg.width), cw)
		default:
			ls = m.glamourLines(seg.text, cw, cw)
		}
		if len(out) > 0 && len(ls) > 0 {
			out = append(out, "")
		}
		out = append(out, ls...)
	}
	return out
}

// tableWide is the width a table is rendered at to see every cell whole.
const tableWide = 1000

// tableLines renders a table at the narrowest width from w up to cw at
// which every column shows all its text: w is an estimate from the source
// (tableWidth), the cells are measured as glamour draws them (inline
// code's padding, links as footnote marks, emphasis markers kept without
// colour, wide runes) against the table drawn at tableWide. A table wider
// than cw is drawn at cw (glamour wraps its cells).
func (m *Model) tableLines(src string, w, cw int) []string {
	ls := m.glamourDraw(src, w, cw, false)
	ref := tableColumns(m.glamourDraw(src, tableWide, tableWide, false))
	// short is how many characters the columns lose; marked: not counting
	// cells glamour cuts with "…" (fine when the screen is too narrow).
	short := func(ls []string, marked bool) int {
		got, n := tableColumns(ls), 0
		for j, r := range ref {
			g := tableColumn{}
			if j < len(got) {
				g = got[j]
			}
			if !marked || !g.marked {
				n += max(r.chars-g.chars, 0)
			}
		}
		return n
	}
	// Grow by what is lost, more each time glamour still cuts (it does
	// not give a column all the room it is given).
	for k := 0; ; k++ {
		n := short(ls, false)
		if n == 0 {
			return ls
		}
		if w >= cw {
			break
		}
		w = min(cw, w+n<<k)
		ls = m.glamourDraw(src, w, cw, false)
	}
	// Too wide for the screen: glamour cuts header cells with "…", and
	// other cells without a mark at some widths where a narrower one
	// wraps them.
	for k := 0; k <= 8 && w-k >= 4; k++ {
		if narrower := m.glamourDraw(src, w-k, cw, false); short(narrower, true) == 0 {
			return narrower
		}
	}
	// Far too narrow (glamour gives a column less than a rune): each row
	// as a list item of "header: cell" lines, which loses nothing.
	if list := tableAsList(src); list != "" {
		return m.glamourLines(list, cw, cw)
	}
	return ls
}

// tableAsList is a table's source as a Markdown list: one item per body
// row, one line per cell, "header: cell" ("" when it has no body row).
func tableAsList(src string) string {
	rows := strings.Split(strings.TrimRight(src, "\n"), "\n")
	if len(rows) < 3 {
		return ""
	}
	head := tableCells(rows[0])
	var b strings.Builder
	for _, r := range rows[2:] {
		for j, c := range tableCells(r) {
			if j == 0 {
				b.WriteString("- ")
			} else {
				b.WriteString("  \n  ")
			}
			if j < len(head) && strings.TrimSpace(head[j]) != "" {
				b.WriteString(strings.TrimSpace(head[j]) + ": ")
			}
			b.WriteString(strings.TrimSpace(c))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// tableColumn is what a column of a drawn table shows: how many non-blank
// characters (a cut cell shows fewer, a wrapped one as many), and whether
// one of its cells is cut with "…".
type tableColumn struct {
	chars  int
	marked bool
}

// tableColumns is what each column of a drawn table shows: the rows are
// the lines with the column separator of the delimiter row ("─┼─" or
// "-|-") at its positions.
func tableColumns(lines []string) []tableColumn {
	plainLines := make([]string, len(lines))
	delim := -1
	for i, l := range lines {
		p := ansi.Strip(l)
		plainLines[i] = p
		t := strings.TrimSpace(p)
		if delim < 0 && t != "" && strings.Trim(t, "─┼-|:") == "" && strings.ContainsAny(t, "─-") {
			delim = i
		}
	}
	if delim < 0 {
		return nil
	}
	d := []rune(plainLines[delim])
	var cuts []int // display columns of the separators
	for k, r := range d {
		if r == '┼' || r == '|' {
			cuts = append(cuts, k)
		}
	}
	sep := '|'
	if strings.ContainsRune(plainLines[delim], '┼') {
		sep = '│'
	}
	counts := make([]tableColumn, len(cuts)+1)
	for i, p := range plainLines {
		if i == delim {
			continue
		}
		ok := true
		for _, c := range cuts {
			if ansi.Cut(p, c, c+1) != string(sep) {
				ok = false
				break
			}
		}
		if !ok {
			continue // not a row (a footnote, a blank line)
		}
		lo := 0
		for j := range counts {
			hi := len(d) + tableWide
			if j < len(cuts) {
				hi = cuts[j]
			}
			cell := ansi.Cut(p, lo, hi)
			for _, r := range cell {
				if r != ' ' && r != '…' {
					counts[j].chars++
				}
			}
			counts[j].marked = counts[j].marked || strings.Contains(cell, "…")
			lo = hi + 1
		}
	}
	return counts
}

// glamourLines renders src with glamour at width w and fits its lines to
// cw.
func (m *Model) glamourLines(src string, w, cw int) []string {
	if ls, ok := m.plainLines(src, w, cw); ok {
		return ls
	}
	if n := fitWidth(src, w); n < w && m.fitDraws() {
		w = n
	}
	return m.glamourDraw(src, w, cw, true)
}

// glamourDraw is glamourLines; lists: hang list items' wrapped lines
// under their text (not in a table, whose rows may start with "- ").
func (m *Model) glamourDraw(src string, w, cw int, lists bool) []string {
	return drawWith(m.glamourFor(w), src, cw, lists)
}

// drawWith is glamourDraw with renderer r (nil: none).
func drawWith(r *glamour.TermRenderer, src string, cw int, lists bool) []string {
	var out string
	if r != nil {
		var err error
		if out, err = r.Render(src); err != nil {
			out = ""
		}
		out = webLinksOnly(out)
	}
	if out == "" { // no renderer: the sanitized text, wrapped
		return wrapPlain(src, cw, noStyle)
	}
	return drawnLines(out, cw, lists)
}

// drawnLines is glamour's output out as the transcript draws it: padding
// cut, lines too long wrapped under their indentation, list items hung
// (lists), blank lines around cut.
func drawnLines(out string, cw int, lists bool) []string {
	raw := strings.Split(out, "\n")
	lines := make([]string, 0, len(raw))
	for _, l := range raw {
		l = strings.ReplaceAll(trimPadding(l), "\t", " ")
		if ansi.StringWidth(l) > cw {
			for _, p := range wrapIndent(l, cw) {
				lines = append(lines, closeLine(p))
			}
			continue
		}
		lines = append(lines, closeLine(l))
	}
	if lists {
		lines = hangLists(lines, cw)
	}
	lo, hi := 0, len(lines)
	for lo < hi && blank(lines[lo]) {
		lo++
	}
	for hi > lo && blank(lines[hi-1]) {
		hi--
	}
	return lines[lo:hi]
}

// linkSchemes are the schemes whose links reach the terminal as OSC 8
// hyperlinks: a click on anything else (javascript:, file:, a relative
// path) could run or open what the user did not mean to.
var linkSchemes = []string{"http", "https", "mailto"}

// webLinksOnly removes from glamour's output every OSC 8 hyperlink whose
// target's scheme is not in linkSchemes, with the reset that closes it:
// such a link is drawn as its plain text (glamour shows the target after
// it).
func webLinksOnly(s string) string {
	if !strings.Contains(s, "\x1b]8;") {
		return s
	}
	var b strings.Builder
	dropped := false // the last link opened was removed
	for {
		i := strings.Index(s, "\x1b]8;")
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		rest := s[i+4:]
		end, n := len(rest), 0 // the sequence's terminator and its length
		if j := strings.IndexAny(rest, "\x07\x1b"); j >= 0 {
			end, n = j, 1
			if rest[j] == 0x1b {
				n = 2
			}
		}
		seq, body := s[i:i+4+min(end+n, len(rest))], rest[:end]
		s = rest[min(end+n, len(rest)):]
		target := ""
		if k := strings.IndexByte(body, ';'); k >= 0 {
			target = body[k+1:]
		}
		switch {
		case target == "":
			if !dropped {
				b.WriteString(seq)
			}
			dropped = false
		case webLink(target):
			b.WriteString(seq)
			dropped = false
		default:
			dropped = true
		}
	}
	b.WriteString(s)
	return b.String()
}

// webLink says whether target's scheme is one of linkSchemes.
func webLink(target string) bool {
	k := strings.IndexByte(target, ':')
	if k <= 0 {
		return false
	}
	for _, sc := range linkSchemes {
		if strings.EqualFold(target[:k], sc) {
			return true
		}
	}
	return false
}

// bulletHang is the width of a list item's marker at the start of a drawn
// line (its indentation included), 0 when the line starts no item.
func bulletHang(p string) int {
	t := strings.TrimLeft(p, " ")
	lead := len(p) - len(t)
	for _, b := range []string{"• ", "◦ ", "▪ ", "- ", "* ", "+ "} {
		if strings.HasPrefix(t, b) {
			return lead + ansi.StringWidth(b)
		}
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(t) && t[i] == '.' && t[i+1] == ' ' {
		return lead + i + 2
	}
	return 0
}

// hangLists re-wraps list items whose text glamour wrapped back to the
// left edge: the item's rows are joined and wrapped again under its text.
func hangLists(lines []string, cw int) []string {
	var out []string
	for i := 0; i < len(lines); {
		hang := bulletHang(ansi.Strip(lines[i]))
		if hang == 0 || hang > cw/2 {
			out = append(out, lines[i])
			i++
			continue
		}
		merged := strings.TrimSuffix(lines[i], "\x1b[m")
		j := i + 1
		for ; j < len(lines); j++ {
			q := ansi.Strip(lines[j])
			if strings.TrimSpace(q) == "" || bulletHang(q) > 0 {
				break
			}
			lead := len(q) - len(strings.TrimLeft(q, " "))
			if lead >= hang {
				break
			}
			merged += " " + strings.TrimSuffix(ansi.TruncateLeft(lines[j], lead, ""), "\x1b[m")
		}
		if j == i+1 {
			out = append(out, lines[i])
			i++
			continue
		}
		for _, r := range wrapHang(merged, cw, hang) {
			out = append(out, closeLine(r))
		}
		i = j
	}
	return out
}

// segment is a run of a block's lines: a table, a fenced code block, or
// other Markdown.
type segment struct {
	text  string
	table bool
	width int // a table's natural width
	code  bool
	lang  string
}

// segments splits a block into its tables, its fenced code blocks (those
// not inside a list item, which glamour draws with the item) and the rest.
func segments(src string) []segment {
	if !strings.Contains(src, "```") && !strings.Contains(src, "~~~") {
		return tableSegments(src)
	}
	lines := strings.Split(src, "\n")
	var segs []segment
	start := 0
	inList := false
	flush := func(end int) {
		if end > start {
			if t := strings.Join(lines[start:end], "\n"); strings.TrimSpace(t) != "" {
				segs = append(segs, tableSegments(t)...)
			}
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if listMarker(l) {
			inList = true
		} else if !isBlank(l) && !indented(l, 1) {
			inList = false
		}
		c, n, ok := fenceOpen(l)
		if !ok || inList || indented(l, 4) {
			if ok { // a fence inside a list item: skip to its end
				for i+1 < len(lines) && !fenceCloses(lines[i+1], c, n) {
					i++
				}
				i++
			}
			continue
		}
		flush(i)
		end := i + 1
		for end < len(lines) && !fenceCloses(lines[end], c, n) {
			end++
		}
		info := strings.TrimSpace(strings.TrimLeft(strings.TrimLeft(l, " "), string(c)))
		lang := strings.Fields(info + " ")
		seg := segment{code: true, text: strings.Join(lines[i+1:min(end, len(lines))], "\n")}
		if len(lang) > 0 {
			seg.lang = lang[0]
		}
		segs = append(segs, seg)
		start = min(end+1, len(lines))
		i = end
	}
	flush(len(lines))
	if len(segs) == 0 {
		return []segment{{text: src}}
	}
	return segs
}

// codeLines draws a fenced code block: two columns of margin, chroma's
// syntax colour (none without colour), long lines wrapped under their own
// indentation.
func (m *Model) codeLines(code, lang string, cw int) []string {
	style := codeStyle(m.style)
	if m.noColor {
		style = ""
	}
	hl := newDiffHighlighter(style, "")
	if style != "" {
		hl.style = styles.Get(style)
		if lx := lexerFor(lang, code); lx != nil {
			hl.lexer = chroma.Coalesce(lx)
		}
	}
	src := strings.Split(strings.TrimRight(code, "\n"), "\n")
	var toks [][]chroma.Token
	if hl.lexer != nil && hl.style != nil {
		toks = hl.lines(code + "\n")
	}
	var out []string
	for k, l := range src {
		line := l
		if k < len(toks) {
			line = hl.paint(toks[k], nil)
		}
		for _, r := range wrapIndent("  "+line, cw) {
			out = append(out, closeLine(r))
		}
	}
	return out
}

// codeStyle is the chroma style beside a glamour style.
func codeStyle(glamourStyle string) string {
	switch glamourStyle {
	case "light":
		return "github"
	case "dracula":
		return "dracula"
	case "notty", "ascii":
		return ""
	}
	return "monokai"
}

// lexerFor is the lexer of a fence's language, else one guessed from the
// code (nil for none).
func lexerFor(lang, code string) chroma.Lexer {
	if lang != "" {
		if lx := lexers.Get(lang); lx != nil {
			return lx
		}
	}
	return nil
}

// tableSegments splits src into its GFM tables and the rest. With no
// table it returns src as one segment.
func tableSegments(src string) []segment {
	if !strings.Contains(src, "|") {
		return []segment{{text: src}}
	}
	lines := strings.Split(src, "\n")
	var segs []segment
	start := 0
	inFence := false
	for i := 0; i < len(lines); i++ {
		if _, _, ok := fenceOpen(lines[i]); ok {
			inFence = !inFence
			continue
		}
		if inFence || i+1 >= len(lines) || !strings.Contains(lines[i], "|") || !tableDelim(lines[i+1]) {
			continue
		}
		end := i + 2
		for end < len(lines) && strings.Contains(lines[end], "|") && !isBlank(lines[end]) {
			end++
		}
		if i > start {
			segs = append(segs, segment{text: strings.Join(lines[start:i], "\n")})
		}
		t := lines[i:end]
		segs = append(segs, segment{text: strings.Join(t, "\n"), table: true, width: tableWidth(t)})
		start = end
		i = end - 1
	}
	if start < len(lines) {
		if rest := strings.Join(lines[start:], "\n"); strings.TrimSpace(rest) != "" || len(segs) == 0 {
			segs = append(segs, segment{text: rest})
		}
	}
	return segs
}

// tableDelim reports whether line is a table's delimiter row (|---|:--:|).
func tableDelim(line string) bool {
	t := strings.TrimSpace(line)
	t = strings.Trim(t, "|")
	if t == "" {
		return false
	}
	for _, c := range strings.Split(t, "|") {
		c = strings.TrimSpace(c)
		c = strings.TrimPrefix(strings.TrimSuffix(c, ":"), ":")
		if c == "" || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// tableCells splits a table row into its cells.
func tableCells(line string) []string {
	t := strings.TrimSpace(line)
	t = strings.TrimPrefix(t, "|")
	if strings.HasSuffix(t, "|") && !strings.HasSuffix(t, `\|`) {
		t = t[:len(t)-1]
	}
	var cells []string
	var cur strings.Builder
	code := false
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '\\' && i+1 < len(t) && t[i+1] == '|':
			cur.WriteByte('|')
			i++
		case c == '`':
			code = !code
			cur.WriteByte(c) // kept: glamour pads inline code as the backticks would
		case c == '|' && !code:
			cells = append(cells, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(cells, cur.String())
}

// tableWidth is the width glamour needs for the table's cells: each
// column as wide as its widest cell (emphasis and link targets not
// counted), one column of padding each side, one of border between.
func tableWidth(rows []string) int {
	var widths []int
	for k, r := range rows {
		if k == 1 {
			continue // the delimiter row
		}
		for j, c := range tableCells(r) {
			w := ansi.StringWidth(inlineText(strings.TrimSpace(c)))
			if j >= len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], w)
		}
	}
	total := 0
	for _, w := range widths {
		total += w + 2
	}
	return max(4, total+len(widths)-1)
}

// inlineText is a cell's text without emphasis markers and link targets.
func inlineText(s string) string {
	s = strings.NewReplacer("**", "", "__", "").Replace(s)
	for {
		i := strings.Index(s, "](")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			break
		}
		s = s[:i] + s[i+j+1:]
		s = strings.Replace(s, "[", "", 1)
	}
	return s
}

// joinListBreaks joins the continuation lines of list items to the line
// before them (a soft line break is a space), since glamour draws a soft
// break inside a list item as a new line without the item's indentation.
func joinListBreaks(src string) string {
	if !strings.Contains(src, "\n ") {
		return src
	}
	lines := strings.Split(src, "\n")
	out := lines[:1]
	inFence, inList := false, listMarker(lines[0])
	if _, _, ok := fenceOpen(lines[0]); ok {
		inFence = true
	}
	for _, l := range lines[1:] {
		prev := out[len(out)-1]
		if _, _, ok := fenceOpen(l); ok {
			inFence = !inFence
			out = append(out, l)
			continue
		}
		if listMarker(l) {
			inList = true
		} else if !isBlank(l) && !indented(l, 1) {
			inList = false
		}
		t := strings.TrimLeft(l, " ")
		join := !inFence && inList && !isBlank(l) && !isBlank(prev) && indented(l, 1) && !indented(l, 8) &&
			!listMarker(l) && t[0] != '|' && t[0] != '>' && t[0] != '#' && !strings.HasSuffix(prev, "  ")
		if join {
			if _, _, ok := fenceOpen(prev); ok {
				join = false
			}
		}
		if join {
			out[len(out)-1] = prev + " " + t
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
