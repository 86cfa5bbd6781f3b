package composer

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"

	"github.com/chipchat/chipchat/chips"
)

// Styles are how the editor draws its caret, selection and placeholder,
// and the marks that stand for invisible characters (chips.InvisibleMark).
type Styles struct {
	Caret       lipgloss.Style
	Selection   lipgloss.Style
	Placeholder lipgloss.Style
	Invisible   lipgloss.Style
	// Picker is how the @, $ and # pickers draw.
	Picker PickerStyles
}

// DefaultStyles draw the caret reversed and the selection on a blue
// background; NoColorStyles use only reverse and faint.
func DefaultStyles() Styles {
	return Styles{
		Caret:       lipgloss.NewStyle().Reverse(true),
		Selection:   lipgloss.NewStyle().Background(lipgloss.Color("#2f4f7f")).Foreground(lipgloss.Color("#ffffff")),
		Placeholder: lipgloss.NewStyle().Faint(true),
		Invisible:   lipgloss.NewStyle().Faint(true),
		Picker:      DefaultPickerStyles(),
	}
}

// LightStyles are DefaultStyles for a light background: the selection
// dark blue on a pale blue.
func LightStyles() Styles {
	st := DefaultStyles()
	st.Selection = lipgloss.NewStyle().Background(lipgloss.Color(LightSelectionBg)).Foreground(lipgloss.Color(LightSelectionFg))
	st.Picker = LightPickerStyles()
	return st
}

// LightStyles' selection colours (their contrast is tested).
const (
	LightSelectionBg = "#BFDBFE"
	LightSelectionFg = "#1E3A8A"
)

// NoColorStyles is DefaultStyles without colour.
func NoColorStyles() Styles {
	return Styles{
		Caret:       lipgloss.NewStyle().Reverse(true),
		Selection:   lipgloss.NewStyle().Reverse(true),
		Placeholder: lipgloss.NewStyle().Faint(true),
		Invisible:   lipgloss.NewStyle().Faint(true),
		Picker:      NoColorPickerStyles(),
	}
}

const tabWidth = 4

// layoutCache keeps, per line content, its wrapped rows, and per chip its
// compact rendering; entries for lines no longer shown are evicted, so the
// cache stays the size of the screen.
type layoutCache struct {
	e     *Editor
	rowsC map[*line]*lineRows
	chipC map[chipKey]string
	gen   int
}

type lineRows struct {
	rows []Row
	gen  int
}

type chipKey struct {
	idx      int
	resolved bool
	selected bool
	width    int
}

func newLayoutCache(e *Editor) *layoutCache {
	c := &layoutCache{e: e}
	c.reset()
	return c
}

func (c *layoutCache) reset() {
	c.rowsC = map[*line]*lineRows{}
	c.chipC = map[chipKey]string{}
}

// maxChipWidth is the widest a chip is drawn.
func (c *layoutCache) maxChipWidth() int { return max(4, min(40, c.e.wrapWidth())) }

// chip returns the compact rendering of chip atom a.
func (c *layoutCache) chip(a rune, selected bool) string {
	d := c.e.draft
	ch := d.chips[-a-1]
	rec, ok := d.records[ch.ContextID]
	k := chipKey{idx: int(-a - 1), resolved: ok, selected: selected, width: c.maxChipWidth()}
	if s, hit := c.chipC[k]; hit {
		return s
	}
	if len(c.chipC) > 4096 {
		c.chipC = map[chipKey]string{}
	}
	var s string
	if ch.Citation != nil {
		s = c.e.reg.RenderCitation(chips.Compact, ch.Citation, selected, k.width)
	} else {
		s = c.e.reg.Render(chips.Compact, chips.Chip{Kind: ch.Kind, ContextID: ch.ContextID, Label: ch.Label, Record: rec, Selected: selected}, k.width)
	}
	c.chipC[k] = s
	return s
}

// atomWidth is an atom's display width.
func (c *layoutCache) atomWidth(a rune) int {
	switch {
	case a >= 0x20 && a < 0x7f:
		return 1
	case a < 0:
		return ansi.StringWidth(c.chip(a, false))
	case a == '\t':
		return tabWidth
	}
	if m, ok := chips.InvisibleMark(a); ok {
		return ansi.StringWidth(m) // drawn as its mark, never raw
	}
	return runewidth.RuneWidth(a)
}

// rows returns the wrapped rows of line i.
func (c *layoutCache) rows(i int) []Row {
	l := c.e.draft.lines.At(i)
	if r, ok := c.rowsC[l]; ok {
		r.gen = c.gen
		return r.rows
	}
	rows := WrapLine(l.atoms, c.e.wrapWidth(), c.atomWidth)
	c.rowsC[l] = &lineRows{rows: rows, gen: c.gen}
	return rows
}

// evict drops lines not used since the last sweep once the cache grows
// past a few screens.
func (c *layoutCache) evict() {
	c.gen++
	if len(c.rowsC) < 512 {
		return
	}
	for l, r := range c.rowsC {
		if r.gen < c.gen-1 {
			delete(c.rowsC, l)
		}
	}
}

// ---- scrolling ----

// textHeight is the number of text rows: the draft's rows, at least one and
// at most maxHeight (counted without wrapping more than maxHeight lines).
func (e *Editor) textHeight() int {
	n := 0
	for i := 0; i < e.draft.LineCount() && n < e.maxHeight; i++ {
		n += len(e.lay.rows(i))
	}
	return max(1, min(n, e.maxHeight))
}

// rowBefore/rowAfter step one visual row; ok is false at the draft's ends.
func (e *Editor) rowBefore(p Pos) (Pos, bool) {
	if p.Col > 0 {
		return Pos{p.Line, p.Col - 1}, true
	}
	if p.Line > 0 {
		return Pos{p.Line - 1, len(e.lay.rows(p.Line-1)) - 1}, true
	}
	return p, false
}

func (e *Editor) rowAfter(p Pos) (Pos, bool) {
	if p.Col+1 < len(e.lay.rows(p.Line)) {
		return Pos{p.Line, p.Col + 1}, true
	}
	if p.Line+1 < e.draft.LineCount() {
		return Pos{p.Line + 1, 0}, true
	}
	return p, false
}

// caretRow is the caret's visual row as Pos{line, row}.
func (e *Editor) caretRow() Pos {
	c := e.draft.caret
	return Pos{c.Line, rowOf(e.lay.rows(c.Line), c.Col)}
}

// scrollToCaret moves the first visible row so the caret is on screen. It
// walks at most a screen of rows.
func (e *Editor) scrollToCaret() {
	e.lay.evict()
	d := e.draft
	if e.top.Line >= d.LineCount() {
		e.top = Pos{d.LineCount() - 1, 0}
	}
	if n := len(e.lay.rows(e.top.Line)); e.top.Col >= n {
		e.top.Col = n - 1
	}
	cr := e.caretRow()
	if cr.Before(e.top) {
		e.top = cr
		return
	}
	h := e.textHeight()
	visible := cr.Line-e.top.Line < h
	if visible {
		p, n := e.top, 0
		for p != cr && n < h {
			p, _ = e.rowAfter(p)
			n++
		}
		visible = n < h
	}
	if !visible {
		p := cr
		for i := 0; i < h-1; i++ {
			p, _ = e.rowBefore(p)
		}
		e.top = p
	}
	// Do not leave empty rows below the text when the draft could fill them.
	for i := 0; i < h; i++ {
		last := e.top
		n := 1
		for ; n < h; n++ {
			q, ok := e.rowAfter(last)
			if !ok {
				break
			}
			last = q
		}
		if n >= h {
			break
		}
		prev, ok := e.rowBefore(e.top)
		if !ok {
			break
		}
		e.top = prev
	}
}

// ---- drawing ----

// Height is the number of rows View draws.
func (e *Editor) Height() int {
	h := e.textHeight()
	if e.pickKind != pickNone {
		h += strings.Count(e.picker.View(e.width, pickerRows), "\n") + 1
	}
	return h
}

const pickerRows = 8

// View draws the picker (when open) above the visible rows of the draft.
func (e *Editor) View() string {
	return e.ViewWith(e.styles)
}

// ViewWith draws with the given styles.
func (e *Editor) ViewWith(st Styles) string {
	var b strings.Builder
	if e.pickKind != pickNone {
		b.WriteString(e.picker.View(e.width, pickerRows))
		b.WriteByte('\n')
	}
	d := e.draft
	if d.IsEmpty() {
		caret := " "
		if e.focused {
			caret = st.Caret.Render(" ")
		}
		b.WriteString(caret + st.Placeholder.Render(ansi.Truncate(e.holder, e.width-1, "…")))
		return b.String()
	}
	h := e.textHeight()
	p := e.top
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		e.drawRow(&b, p, st)
		next, ok := e.rowAfter(p)
		if !ok {
			for j := i + 1; j < h; j++ {
				b.WriteByte('\n')
			}
			break
		}
		p = next
	}
	return b.String()
}

// drawRow draws visual row p.Col of line p.Line.
func (e *Editor) drawRow(b *strings.Builder, p Pos, st Styles) {
	d := e.draft
	atoms := d.lines.At(p.Line).atoms
	rows := e.lay.rows(p.Line)
	r := rows[p.Col]
	selA, selB, hasSel := d.Selection()
	caret := d.caret
	lastRow := p.Col == len(rows)-1
	caretHere := e.focused && caret.Line == p.Line && caret.Col >= r.Start && (caret.Col < r.End || caret.Col == r.End && lastRow)

	var run strings.Builder
	runStyle := 0 // 0 plain, 1 selected
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if runStyle == 1 {
			b.WriteString(st.Selection.Render(run.String()))
		} else {
			b.WriteString(run.String())
		}
		run.Reset()
	}
	for c := r.Start; c < r.End; c++ {
		a := atoms[c]
		pos := Pos{p.Line, c}
		inSel := hasSel && !pos.Before(selA) && pos.Before(selB)
		isCaret := caretHere && caret.Col == c
		if a < 0 {
			flush()
			beside := e.focused && caret.Line == p.Line && (caret.Col == c || caret.Col == c+1)
			b.WriteString(e.lay.chip(a, inSel || beside))
			continue
		}
		mark, invisible := chips.InvisibleMark(a)
		if isCaret {
			flush()
			text := string(a)
			switch {
			case a == '\t':
				text = strings.Repeat(" ", tabWidth)
			case invisible:
				text = mark
			}
			b.WriteString(st.Caret.Render(text))
			continue
		}
		if invisible {
			// A bidi control or zero-width character is drawn as a dim
			// mark such as ⟨U+202E⟩: written raw it could reorder or hide
			// what follows. The draft keeps the character itself.
			flush()
			ms := st.Invisible
			if inSel {
				ms = st.Selection
			}
			b.WriteString(ms.Render(mark))
			continue
		}
		style := 0
		if inSel {
			style = 1
		}
		if style != runStyle {
			flush()
			runStyle = style
		}
		if a == '\t' {
			run.WriteString("    ")
		} else {
			run.WriteRune(a)
		}
	}
	flush()
	if caretHere && caret.Col == r.End {
		b.WriteString(st.Caret.Render(" "))
	}
}
