package transcript

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// wheelStep is the rows one mouse wheel notch scrolls.
const wheelStep = 3

// Update handles keys while focused and the mouse wheel always (the app
// routes wheel events to the pane under the pointer). It returns OpenMsg
// and CopyMsg as commands.
func (m *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		d := 0
		switch msg.Button {
		case tea.MouseWheelUp:
			d = -wheelStep
		case tea.MouseWheelDown:
			d = wheelStep
		}
		if m.pop.open {
			m.scrollPop(d)
		} else {
			m.scrollBy(d)
		}
		return m, nil
	case SearchDoneMsg:
		m.searchDone(msg)
		return m, nil
	case tea.KeyPressMsg:
		if !m.focused || len(m.ents) == 0 {
			return m, nil
		}
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.Keys
	if m.sel < 0 || m.sel >= len(m.ents) {
		m.setStop(m.lastStop())
		m.chip = -1
	}
	if m.sel2.active {
		return m.selectionKey(msg)
	}
	if m.pop.open {
		switch {
		case key.Matches(msg, k.Close):
			m.pop = popover{}
		case m.pop.item && key.Matches(msg, k.Open):
			return m.pagerCmd(m.pop.at)
		case m.pop.item && (key.Matches(msg, k.Details) || key.Matches(msg, k.NextChip) || key.Matches(msg, k.PrevChip) || key.Matches(msg, k.Copy)):
		case key.Matches(msg, k.Details):
			if m.pop.surface == chips.Details {
				m.pop.surface = chips.Expanded
				m.pop.scroll = 0
				m.renderPop()
			}
		case key.Matches(msg, k.Up):
			m.scrollPop(-1)
		case key.Matches(msg, k.Down):
			m.scrollPop(1)
		case key.Matches(msg, k.PageUp):
			m.scrollPop(-max(1, m.popBody()-1))
		case key.Matches(msg, k.PageDown):
			m.scrollPop(max(1, m.popBody()-1))
		case key.Matches(msg, k.Top):
			m.scrollPop(-len(m.pop.lines))
		case key.Matches(msg, k.Bottom):
			m.scrollPop(len(m.pop.lines))
		case key.Matches(msg, k.NextChip):
			m.moveChip(1)
		case key.Matches(msg, k.PrevChip):
			m.moveChip(-1)
		case key.Matches(msg, k.Open):
			return open(m.pop.chip.Record)
		case key.Matches(msg, k.Copy):
			return m.copyChipCmd()
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Up):
		m.moveFocus(-1)
	case key.Matches(msg, k.Down):
		m.moveFocus(1)
	case key.Matches(msg, k.PageUp):
		m.page(-1)
	case key.Matches(msg, k.PageDown):
		m.page(1)
	case key.Matches(msg, k.Top):
		m.top, m.off, m.follow = m.firstPart(0), 0, false
		m.settle()
		m.setStop(m.stopOf(m.firstPart(0)))
		m.chip = -1
	case key.Matches(msg, k.Bottom):
		m.follow = true
		m.anchorBottom()
		m.setStop(m.lastStop())
		m.chip = -1
	case key.Matches(msg, k.NextChip):
		m.moveChip(1)
	case key.Matches(msg, k.PrevChip):
		m.moveChip(-1)
	case key.Matches(msg, k.Details):
		if s := m.cur(); s.it >= 0 {
			m.openItemPopover(s)
			return nil
		}
		m.resolve(&m.ents[m.sel])
		if len(m.ents[m.sel].chips) > 0 {
			m.openPopover(max(m.chip, 0))
		}
	case key.Matches(msg, k.Toggle):
		if s := m.cur(); s.it >= 0 {
			m.toggle(s)
		}
	case key.Matches(msg, k.Select):
		m.startSelection()
	case key.Matches(msg, k.Search):
		q := m.srch.query
		return func() tea.Msg { return SearchAskMsg{Query: q} }
	case key.Matches(msg, k.SearchNext):
		m.SearchStep(1)
	case key.Matches(msg, k.SearchPrev):
		m.SearchStep(-1)
	case key.Matches(msg, k.Open):
		if s := m.cur(); s.it >= 0 {
			return m.pagerCmd(s)
		}
		e := &m.ents[m.sel]
		m.resolve(e)
		if m.chip >= 0 && m.chip < len(e.chips) {
			return open(e.chips[m.chip].rec)
		}
		for _, c := range e.chips { // no chip focused: the first file or image
			if b := baseOf(c.rec); b != nil && (b.Kind == contextref.KindFile || b.Kind == contextref.KindImage) {
				return open(c.rec)
			}
		}
	case key.Matches(msg, k.Copy):
		return m.copyCmd()
	case key.Matches(msg, k.Fork):
		if m.sel >= 0 && m.sel < len(m.ents) {
			fm := ForkMsg{MessageID: m.ents[m.sel].msg.ID}
			return func() tea.Msg { return fm }
		}
	case key.Matches(msg, k.Rewind):
		if m.sel >= 0 && m.sel < len(m.ents) && m.ents[m.sel].msg.Role == message.RoleUser {
			rm := RewindMsg{MessageID: m.ents[m.sel].msg.ID}
			return func() tea.Msg { return rm }
		}
	}
	return nil
}

// open asks the app to open a record; a missing record opens nothing.
func open(r contextref.Record) tea.Cmd {
	if baseOf(r) == nil {
		return nil
	}
	return func() tea.Msg { return OpenMsg{Record: r} }
}

// copyCmd copies the focused message: its canonical Markdown (a legacy
// message as upgraded) and its records.
func (m *Model) copyCmd() tea.Cmd {
	if m.sel < 0 || m.sel >= len(m.ents) {
		return nil
	}
	e := &m.ents[m.sel]
	m.resolve(e)
	cm := CopyMsg{MessageID: e.msg.ID, Markdown: m.replyText(m.sel), Records: e.records}
	return func() tea.Msg { return cm }
}

// copyChipCmd copies the popover's chip alone: its link as the text and its
// record (none when the record is missing, so the paste is unresolved too).
func (m *Model) copyChipCmd() tea.Cmd {
	e := &m.ents[m.sel]
	m.resolve(e)
	if m.chip < 0 || m.chip >= len(e.chips) {
		return nil
	}
	c := e.chips[m.chip]
	cm := CopyMsg{MessageID: e.msg.ID, Markdown: e.text[c.occ.Start:c.occ.End]}
	if baseOf(c.rec) != nil {
		cm.Records = []contextref.Record{c.rec}
	}
	return func() tea.Msg { return cm }
}

// moveFocus moves the focus to the next (d > 0) or previous stop: the
// next item of a reply, or the next message. A focused stop taller than
// the view scrolls through first (half a view per key); a focused stop off
// screen gives focus to the nearest one on screen.
func (m *Model) moveFocus(d int) {
	m.normalize()
	first, last := m.visibleStops(m.height)
	c := m.cur()
	if stopBefore(c, first) || stopBefore(last, c) {
		if stopBefore(c, first) {
			c = first
		} else {
			c = last
		}
		m.setStop(c)
		m.chip = -1
		m.ensureStop(c)
		return
	}
	step := max(1, m.height/2)
	if d > 0 {
		if end := m.stopEnd(c, m.height); end > m.height {
			m.scrollBy(min(end-m.height, step))
			return
		}
	} else if start := m.stopStart(c, step); start < 0 {
		m.scrollBy(max(start, -step))
		return
	}
	var ns stop
	var ok bool
	if d > 0 {
		ns, ok = m.nextStop(c)
	} else {
		ns, ok = m.prevStop(c)
	}
	if !ok {
		return
	}
	m.setStop(ns)
	m.chip = -1
	m.ensureStop(ns)
}

// page scrolls a page; focus moves along when it would leave the view.
func (m *Model) page(d int) {
	m.scrollBy(d * max(1, m.height-1))
	first, last := m.visibleStops(m.height)
	c := m.cur()
	switch {
	case stopBefore(c, first):
		m.setStop(first)
		m.chip = -1
	case stopBefore(last, c):
		m.setStop(last)
		m.chip = -1
	}
}

// toggle expands or collapses item s in place and keeps its start in
// view.
func (m *Model) toggle(s stop) {
	iv := m.views(s.i)[s.it]
	if iv.it.Kind == message.ItemText {
		return
	}
	iv.expanded = !iv.expanded
	iv.gen++
	if !m.follow && m.top.i == s.i && m.top.it == s.it && m.top.k > 0 {
		m.top, m.off = ppos{s.i, s.it, 0}, 0
	}
	m.normalize()
	m.ensureStop(s)
}

// moveChip moves the focused chip of the focused message by d, cycling;
// an open popover follows it.
func (m *Model) moveChip(d int) {
	e := &m.ents[m.sel]
	m.resolve(e)
	m.selIt = -1
	n := len(e.chips)
	if n == 0 {
		return
	}
	if m.chip < 0 {
		if d > 0 {
			m.chip = 0
		} else {
			m.chip = n - 1
		}
	} else {
		m.chip = ((m.chip+d)%n + n) % n
	}
	if m.pop.open {
		m.pop.chip, m.pop.cit = e.chips[m.chip].chip(false), e.chips[m.chip].cit
		m.pop.scroll = 0
		m.renderPop()
	}
	m.revealChip()
}

// revealChip scrolls the focused chip's row into the part of the view the
// popover leaves free.
func (m *Model) revealChip() {
	if m.chip < 0 || m.height <= 0 {
		return
	}
	head := m.firstPart(m.sel)
	m.plines(head) // chip rows are known once rendered
	e := &m.ents[m.sel]
	if m.chip >= len(e.chipRows) {
		return
	}
	r := m.gap(head) + e.chipRows[m.chip]
	vh := m.height - m.boxHeight()
	if vh < 1 {
		vh = m.height
	}
	m.ensureSpan(head, r, r+1, vh)
}
