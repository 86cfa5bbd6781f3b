package chips

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// doc builds the lines of a details or expanded view. Every text goes in
// as plain, sanitized text; it is cut (details) or wrapped (expanded) to the
// width first and styled afterwards, so that widths are exact.
type doc struct {
	th    *Theme
	width int  // display columns; ≤ 0 means no limit
	full  bool // expanded: wrap and show everything; details: cut and summarize
	ind   int  // columns of indentation before every line
	lines []string
}

// seg is a piece of one line with its style.
type seg struct {
	text  string
	style lipgloss.Style
}

// avail is the width left for text after the indentation (≤ 0: no limit).
func (d *doc) avail() int {
	if d.width <= 0 {
		return 0
	}
	if w := d.width - d.ind; w > 0 {
		return w
	}
	return 1
}

// indented runs fn with n more columns of indentation, unless that leaves
// too little room to be useful.
func (d *doc) indented(n int, fn func()) {
	if d.width > 0 && d.width-d.ind-n < 8 {
		n = 0
	}
	d.ind += n
	fn()
	d.ind -= n
}

func (d *doc) emit(s string) {
	if d.ind > 0 && d.width > 0 && d.ind >= d.width {
		d.lines = append(d.lines, s)
		return
	}
	d.lines = append(d.lines, strings.Repeat(" ", d.ind)+s)
}

// String joins the lines; a view always has at least one.
func (d *doc) String() string {
	return strings.Join(d.lines, "\n")
}

// segs adds one line of styled pieces (sanitized by the caller), cut with
// "…" where it overflows. It never wraps: it is for short summary lines.
func (d *doc) segs(parts ...seg) {
	w := d.avail()
	var b strings.Builder
	used := 0
	for _, p := range parts {
		if p.text == "" {
			continue
		}
		pw := ansi.StringWidth(p.text)
		if w > 0 && used+pw > w {
			if rest := w - used; rest > 0 {
				b.WriteString(p.style.Render(Truncate(p.text, rest)))
			}
			break
		}
		b.WriteString(p.style.Render(p.text))
		used += pw
	}
	d.emit(b.String())
}

// heading is the first line of a view: glyph, title and label in the
// accent style (with the selected style over it when the chip is).
func (d *doc) heading(style lipgloss.Style, selected bool, glyph, title, label string) {
	if selected {
		style = d.th.Selected.Inherit(style)
	}
	t := strings.TrimSpace(glyph + " " + title)
	if label != "" && label != title {
		t += " · " + label
	}
	d.styled(t, style, true)
}

// styled adds one logical line of plain text in one style: wrapped (at
// spaces when words is set) in the expanded view, cut in details.
func (d *doc) styled(text string, style lipgloss.Style, words bool) {
	if !d.full {
		d.emit(style.Render(Truncate(text, d.availOrMax())))
		return
	}
	for _, l := range wrapText(text, d.avail(), words) {
		d.emit(style.Render(l))
	}
}

// availOrMax is avail with "no limit" spelled as a very large width.
func (d *doc) availOrMax() int {
	if w := d.avail(); w > 0 {
		return w
	}
	return int(^uint(0) >> 1)
}

// field adds "key: value" with the value (one line of outside text) in
// style. In the expanded view a long value wraps under itself.
func (d *doc) field(key, value string, style lipgloss.Style) {
	value = SanitizeLine(value)
	prefix := key + ": "
	pw := ansi.StringWidth(prefix)
	w := d.avail()
	if w > 0 && w-pw < 4 {
		// Too narrow for a column of values: one run of text.
		d.styled(prefix+value, style, true)
		return
	}
	if !d.full {
		d.segs(seg{prefix, d.th.Key}, seg{value, style})
		return
	}
	for i, l := range wrapText(value, max(w-pw, 0), true) {
		if i == 0 {
			d.emit(d.th.Key.Render(prefix) + style.Render(l))
		} else {
			d.emit(strings.Repeat(" ", pw) + style.Render(l))
		}
	}
}

// bullet adds "- text" (one line of sanitized text); wrapped lines hang
// under the text.
func (d *doc) bullet(text string) {
	w := d.avail()
	if !d.full || w > 0 && w < 6 {
		d.styled("- "+text, lipgloss.NewStyle(), true)
		return
	}
	for i, l := range wrapText(text, max(w-2, 0), true) {
		if i == 0 {
			d.emit("- " + l)
		} else {
			d.emit("  " + l)
		}
	}
}

// note adds a line of secondary text.
func (d *doc) note(text string) { d.styled(text, d.th.Muted, true) }

// block adds multi-line outside text, one logical line per line of text.
// Prose (words) wraps at spaces; code keeps its spaces, tabs expanded, and
// breaks anywhere. lineStyle picks each line's style from its plain text.
// limit > 0 shows at most that many lines, then a note of how many more.
func (d *doc) block(text string, words bool, limit int, lineStyle func(string) lipgloss.Style) {
	if !words {
		text = ExpandTabs(text)
	}
	lines := strings.Split(Sanitize(text), "\n")
	shown := lines
	if limit > 0 && len(lines) > limit {
		shown = lines[:limit]
	}
	for _, l := range shown {
		st := lipgloss.NewStyle()
		if lineStyle != nil {
			st = lineStyle(l)
		}
		d.styled(l, st, words)
	}
	if n := len(lines) - len(shown); n > 0 {
		d.note(moreLines(n))
	}
}

// numbered adds lines with right-aligned line numbers from start and a
// gutter; a wrapped line continues behind an empty gutter.
func (d *doc) numbered(start int64, lines []string) {
	last := start + int64(len(lines)) - 1
	nw := len(strconv.FormatInt(last, 10))
	gutterW := nw + 3 // "<n> │ "
	w := d.avail()
	if w > 0 && w-gutterW < 4 {
		gutterW = 0 // too narrow for a gutter: the text alone
	}
	for i, l := range lines {
		if gutterW == 0 {
			d.styled(l, lipgloss.NewStyle(), false)
			continue
		}
		num := strconv.FormatInt(start+int64(i), 10)
		g := strings.Repeat(" ", nw-len(num)) + num + " │ "
		var parts []string
		if d.full {
			parts = wrapText(l, max(w-gutterW, 0), false)
		} else {
			parts = []string{Truncate(l, d.availOrMax()-gutterW)}
		}
		for j, p := range parts {
			if j == 1 {
				g = strings.Repeat(" ", nw) + " │ "
			}
			d.emit(d.th.LineNumber.Render(g) + p)
		}
	}
}

func moreLines(n int) string {
	if n == 1 {
		return "… 1 more line"
	}
	return "… " + strconv.Itoa(n) + " more lines"
}

// firstLine is the first non-blank line of outside text, on one line.
func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if t := oneLine(l); t != "" {
			return t
		}
	}
	return ""
}
