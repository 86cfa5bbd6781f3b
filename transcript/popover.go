package transcript

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
)

// popover is the open chip's details (or expanded view), drawn as a
// bordered box over the bottom of the transcript.
type popover struct {
	open    bool
	surface chips.Surface
	chip    chips.Chip
	cit     *contextref.Citation // the chip is an assistant quote
	item    bool                 // an item's details (at), not a chip's
	at      stop
	lines   []string // rendered content at the current width
	scroll  int
}

// openPopover opens the details of chip k of the focused message.
func (m *Model) openPopover(k int) {
	e := &m.ents[m.sel]
	m.resolve(e)
	if k < 0 || k >= len(e.chips) {
		return
	}
	m.chip = k
	m.pop = popover{open: true, surface: chips.Details, chip: e.chips[k].chip(false), cit: e.chips[k].cit}
	m.renderPop()
	m.revealChip()
}

// openItemPopover opens the details of item s.
func (m *Model) openItemPopover(s stop) {
	m.pop = popover{open: true, surface: chips.Details, item: true, at: s}
	m.renderPop()
}

// renderPop renders the popover's content for the current width; the
// registries are pure, so this is no I/O.
func (m *Model) renderPop() {
	inner := m.width - 4
	if inner < 1 {
		inner = max(1, m.width)
	}
	if m.pop.item {
		vs := m.views(m.pop.at.i)
		if m.pop.at.it < 0 || m.pop.at.it >= len(vs) {
			m.pop = popover{}
			return
		}
		m.pop.lines = m.itemReg.Render(chips.Details, vs[m.pop.at.it].it, m.itemContext(inner))
		m.clampPop()
		return
	}
	var s string
	if m.pop.cit != nil {
		s = m.reg.RenderCitation(m.pop.surface, m.pop.cit, false, inner)
	} else {
		s = m.reg.Render(m.pop.surface, m.pop.chip, inner)
	}
	m.pop.lines = strings.Split(s, "\n")
	m.clampPop()
}

// boxHeight is the rows the popover takes (0 when closed): its content and
// border, at most two thirds of the transcript.
func (m *Model) boxHeight() int {
	if !m.pop.open || m.height <= 0 {
		return 0
	}
	maxH := m.height * 2 / 3
	if maxH < 3 {
		maxH = min(3, m.height)
	}
	border := 2
	if m.width < 4 || maxH < 3 {
		border = 0
	}
	return min(len(m.pop.lines)+border, maxH)
}

// popBody is the number of content rows the popover shows.
func (m *Model) popBody() int {
	bh := m.boxHeight()
	if m.width >= 4 && bh >= 3 {
		return bh - 2
	}
	return bh
}

func (m *Model) clampPop() {
	m.pop.scroll = max(0, min(m.pop.scroll, len(m.pop.lines)-m.popBody()))
}

func (m *Model) scrollPop(d int) {
	m.pop.scroll += d
	m.clampPop()
}

// popLines draws the popover: exactly boxHeight lines of exactly the
// transcript's width.
func (m *Model) popLines() []string {
	bh := m.boxHeight()
	body := m.popBody()
	scroll := max(0, min(m.pop.scroll, len(m.pop.lines)-body))
	content := m.pop.lines[scroll:min(len(m.pop.lines), scroll+body)]
	if body == bh { // no room for a border
		out := make([]string, 0, bh)
		for _, l := range content {
			out = append(out, fit(l, m.width)+"\x1b[m")
		}
		return out
	}
	inner := m.width - 4
	b := m.sty.border
	title := " Details "
	if m.pop.surface == chips.Expanded {
		title = " Expanded "
	}
	if len(m.pop.lines) > body {
		title += fmt.Sprintf("%d–%d/%d ", scroll+1, scroll+len(content), len(m.pop.lines))
	}
	var hint string
	if m.pop.item {
		hint = fmt.Sprintf(" %s pager · %s close ", m.Keys.Open.Help().Key, m.Keys.Close.Help().Key)
	} else if m.pop.surface == chips.Details {
		hint = fmt.Sprintf(" %s expand · %s open · %s close ", m.Keys.Details.Help().Key, m.Keys.Open.Help().Key, m.Keys.Close.Help().Key)
	} else {
		hint = fmt.Sprintf(" %s open · %s close ", m.Keys.Open.Help().Key, m.Keys.Close.Help().Key)
	}
	out := make([]string, 0, bh)
	out = append(out, border(b, "╭─", title, "╮", m.width, m.sty.title))
	for _, l := range content {
		out = append(out, b.Render("│")+" "+fit(l, inner)+"\x1b[m "+b.Render("│"))
	}
	for len(out) < bh-1 {
		out = append(out, b.Render("│")+strings.Repeat(" ", m.width-2)+b.Render("│"))
	}
	out = append(out, border(b, "╰─", hint, "╯", m.width, m.sty.status))
	return out
}

// border draws a horizontal border of exactly width columns with a text
// after its left corner.
func border(b interface{ Render(...string) string }, left, text, right string, width int, ts interface{ Render(...string) string }) string {
	avail := width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if ansi.StringWidth(text) > avail {
		text = ansi.Truncate(text, max(0, avail), "")
	}
	fill := avail - ansi.StringWidth(text)
	return b.Render(left) + ts.Render(text) + b.Render(strings.Repeat("─", fill)+right)
}
