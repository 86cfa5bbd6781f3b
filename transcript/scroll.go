package transcript

// Scrolling is anchor based: the viewport's first row is row m.off of
// part m.top. Every walk below starts at the anchor (or at the bottom)
// and stops once it has covered the viewport, so its cost is the number of
// parts on screen, whatever the length of the thread or of a reply. Parts
// are rendered on demand as a walk reaches them.

// anchorBottom anchors the view so that the last row of the last part is
// the viewport's last row (or at the very top when everything fits).
func (m *Model) anchorBottom() {
	n := len(m.ents)
	if n == 0 {
		m.top, m.off = ppos{}, 0
		return
	}
	last := m.lastPart(n - 1)
	m.anchorEnd(last, m.ph(last), m.height)
}

// anchorEnd anchors the view so that the rows of part p before row r end
// at the bottom of a viewport vh rows high.
func (m *Model) anchorEnd(p ppos, r, vh int) {
	need := max(vh, 1)
	if r >= need {
		m.top, m.off = p, r-need
		return
	}
	need -= r
	for q, ok := m.prev(p); ok; q, ok = m.prev(q) {
		hh := m.ph(q)
		if hh >= need {
			m.top, m.off = q, hh-need
			return
		}
		need -= hh
		if q.i == 0 && q.it < 0 {
			break
		}
	}
	m.top, m.off = m.firstPart(0), 0
}

// rowsFrom counts the rows from the anchor to the end, stopping past limit.
func (m *Model) rowsFrom(limit int) int {
	rows := -m.off
	for q, ok := m.top, true; ok && rows <= limit; q, ok = m.next(q) {
		rows += m.ph(q)
	}
	return rows
}

// settle keeps the viewport full: when the rows below the anchor do not
// fill it, the view goes to the bottom and follows new messages.
func (m *Model) settle() {
	if m.rowsFrom(m.height) <= m.height {
		m.anchorBottom()
		m.follow = true
	} else {
		m.follow = false
	}
}

// normalize brings the anchor in line with the messages as they are now.
func (m *Model) normalize() {
	if len(m.ents) == 0 {
		m.top, m.off = ppos{}, 0
		return
	}
	if m.follow {
		m.anchorBottom()
		return
	}
	m.top = m.valid(m.top)
	if m.off < 0 {
		m.off = 0
	}
	for {
		h := m.ph(m.top)
		q, ok := m.next(m.top)
		if !ok || m.off < h {
			break
		}
		m.off -= h
		m.top = q
	}
	m.settle()
}

// scrollBy moves the view d rows (down when positive).
func (m *Model) scrollBy(d int) {
	if len(m.ents) == 0 || d == 0 {
		return
	}
	m.normalize()
	m.off += d
	if d > 0 {
		for {
			h := m.ph(m.top)
			q, ok := m.next(m.top)
			if !ok || m.off < h {
				break
			}
			m.off -= h
			m.top = q
		}
	} else {
		for m.off < 0 {
			q, ok := m.prev(m.top)
			if !ok {
				break
			}
			m.top = q
			m.off += m.ph(q)
		}
		if m.off < 0 {
			m.off = 0
		}
	}
	m.settle()
}

// posOf is the viewport row of part p's first row (its gap included) when
// p starts at or after the anchor and within vh rows of the viewport top;
// far is set when it starts further down.
func (m *Model) posOf(p ppos, vh int) (row int, far bool) {
	row = -m.off
	for q := m.top; q != p; {
		row += m.ph(q)
		if row > vh {
			return row, true
		}
		var ok bool
		if q, ok = m.next(q); !ok {
			return row, true
		}
	}
	return row, false
}

// advance is the part and row r rows after the start of part p (r may be
// the part's height: the end of it).
func (m *Model) advance(p ppos, r int) (ppos, int) {
	for {
		h := m.ph(p)
		if r <= h {
			return p, r
		}
		q, ok := m.next(p)
		if !ok {
			return p, h
		}
		r -= h
		p = q
	}
}

// ensureSpan scrolls as little as possible so that the rows [r0, r1)
// counted from the start of part p are in the top vh rows of the
// viewport; when they do not fit, row r0 wins.
func (m *Model) ensureSpan(p ppos, r0, r1, vh int) {
	if len(m.ents) == 0 {
		return
	}
	vh = max(1, min(vh, m.height))
	m.normalize()
	sp, sr := m.advance(p, r0)
	if sr == m.ph(sp) && sr > 0 { // the end of a part is the start of the next
		if q, ok := m.next(sp); ok {
			sp, sr = q, 0
		}
	}
	if before(sp, m.top) || (sp == m.top && sr < m.off) {
		m.top, m.off = sp, sr
		m.settle()
		return
	}
	span := min(r1-r0, vh)
	row, far := m.posOf(sp, vh)
	row += sr
	if far || row > vh {
		ep, er := m.advance(sp, sr+span)
		m.anchorEnd(ep, er, vh)
		m.settle()
		return
	}
	if row+span > vh {
		m.scrollBy(min(row+span-vh, row))
	}
}

// ensureStop brings stop s (from its gap) into view.
func (m *Model) ensureStop(s stop) {
	if s.i < 0 || s.i >= len(m.ents) {
		return
	}
	m.ensureSpan(m.stopFirst(s), 0, m.stopRows(s, m.height+1), m.height)
}

// visibleStops is the first and last stop with a row other than a gap in
// the top vh rows of the viewport.
func (m *Model) visibleStops(vh int) (first, last stop) {
	if len(m.ents) == 0 {
		return stop{0, -1}, stop{-1, -1}
	}
	rows := -m.off
	found := false
	for q, ok := m.top, true; ok; q, ok = m.next(q) {
		g := m.gap(q)
		h := g + len(m.plines(q))
		start, end := rows+g, rows+h
		if start >= vh {
			break
		}
		if end > max(0, start) && end > 0 {
			s := m.stopOf(q)
			if !found {
				first, found = s, true
			}
			last = s
		}
		rows += h
		if rows >= vh {
			break
		}
	}
	if !found {
		s := m.stopOf(m.top)
		return s, s
	}
	return first, last
}

// stopStart is the viewport row of stop s's first row (gap excluded):
// negative when it starts above the view (counted back at most limit rows
// past the top), > vh when below.
func (m *Model) stopStart(s stop, limit int) int {
	f := m.stopFirst(s)
	if !before(f, m.top) {
		row, _ := m.posOf(f, m.height)
		return row + m.gap(f)
	}
	row := -m.off
	for q := m.top; q != f; {
		var ok bool
		if q, ok = m.prev(q); !ok {
			break
		}
		row -= m.ph(q)
		if row < -limit-m.height {
			return row
		}
	}
	return row + m.gap(f)
}

// stopEnd is the viewport row just past stop s's last row (> vh: it ends
// below the view).
func (m *Model) stopEnd(s stop, vh int) int {
	l := m.stopLast(s)
	if before(l, m.top) {
		return 0
	}
	row, far := m.posOf(l, vh)
	if far {
		return row + 1
	}
	return row + m.ph(l)
}

// ToEnd shows the end of the thread and follows new messages again, the
// last message focused and no chip selected (what the end key does): the
// app calls it when the user sends, so the message sent is on screen
// wherever the view had been scrolled to. It costs nothing until drawn.
func (m *Model) ToEnd() {
	m.follow = true
	m.sel, m.selIt, m.chip = len(m.ents)-1, -1, -1
}
