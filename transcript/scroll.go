package transcript

// Scrolling is anchor based: the viewport's first row is row m.off of
// block m.top. Every walk below starts at the anchor (or at the bottom)
// and stops once it has covered the viewport, so its cost is the number of
// messages on screen, whatever the length of the thread. Blocks are
// rendered on demand as a walk reaches them.

// anchorBottom anchors the view so that the last row of the last message
// is the viewport's last row (or at the very top when everything fits).
func (m *Model) anchorBottom() {
	n := len(m.ents)
	if n == 0 {
		m.top, m.off = 0, 0
		return
	}
	m.anchorEnd(n-1, m.h(n-1), m.height)
}

// anchorEnd anchors the view so that the rows of block i before row r end
// at the bottom of a viewport vh rows high.
func (m *Model) anchorEnd(i, r, vh int) {
	need := max(vh, 1)
	if r >= need {
		m.top, m.off = i, r-need
		return
	}
	need -= r
	for j := i - 1; j >= 0; j-- {
		hh := m.h(j)
		if hh >= need {
			m.top, m.off = j, hh-need
			return
		}
		need -= hh
	}
	m.top, m.off = 0, 0
}

// rowsFrom counts the rows from the anchor to the end, stopping past limit.
func (m *Model) rowsFrom(limit int) int {
	rows := -m.off
	for j := m.top; j < len(m.ents) && rows <= limit; j++ {
		rows += m.h(j)
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
	n := len(m.ents)
	if n == 0 {
		m.top, m.off = 0, 0
		return
	}
	if m.follow {
		m.anchorBottom()
		return
	}
	if m.top >= n {
		m.top, m.off = n-1, 0
	}
	if m.top < 0 {
		m.top, m.off = 0, 0
	}
	if m.off < 0 {
		m.off = 0
	}
	for m.top < n-1 && m.off >= m.h(m.top) {
		m.off -= m.h(m.top)
		m.top++
	}
	m.settle()
}

// scrollBy moves the view d rows (down when positive).
func (m *Model) scrollBy(d int) {
	if len(m.ents) == 0 || d == 0 {
		return
	}
	m.normalize()
	n := len(m.ents)
	m.off += d
	if d > 0 {
		for m.top < n-1 && m.off >= m.h(m.top) {
			m.off -= m.h(m.top)
			m.top++
		}
	} else {
		for m.off < 0 && m.top > 0 {
			m.top--
			m.off += m.h(m.top)
		}
		if m.off < 0 {
			m.off = 0
		}
	}
	m.settle()
}

// pos is the viewport row of block i's first row when block i starts at or
// after the anchor block and within vh rows of the viewport top; far is
// set when it starts further down.
func (m *Model) pos(i, vh int) (p int, far bool) {
	p = -m.off
	for j := m.top; j < i; j++ {
		p += m.h(j)
		if p > vh {
			return p, true
		}
	}
	return p, false
}

// ensureRows scrolls as little as possible so that rows [r0, r1) of block i
// are in the top vh rows of the viewport; when they do not fit, row r0
// wins.
func (m *Model) ensureRows(i, r0, r1, vh int) {
	if i < 0 || i >= len(m.ents) {
		return
	}
	vh = max(1, min(vh, m.height))
	m.normalize()
	if i < m.top || (i == m.top && r0 < m.off) {
		m.top, m.off = i, r0
		m.settle()
		return
	}
	p, far := m.pos(i, vh)
	if far {
		if r1-r0 > vh {
			r1 = r0 + vh
		}
		m.anchorEnd(i, r1, vh)
		m.settle()
		return
	}
	if p+r1 > vh {
		m.scrollBy(min(p+r1-vh, p+r0))
	}
}

// ensureVisible brings message i (from its separator) into view.
func (m *Model) ensureVisible(i int) {
	if i < 0 || i >= len(m.ents) {
		return
	}
	m.ensureRows(i, 0, m.h(i), m.height)
}

// visibleRange is the first and last message with a row other than their
// separator in the top vh rows of the viewport.
func (m *Model) visibleRange(vh int) (first, last int) {
	if len(m.ents) == 0 {
		return 0, -1
	}
	first = m.top
	if m.off >= m.h(m.top) && m.top < len(m.ents)-1 {
		first++
	}
	rows := -m.off
	last = m.top
	for j := m.top; j < len(m.ents); j++ {
		if rows+sep(j) >= vh {
			break
		}
		last = j
		rows += m.h(j)
		if rows >= vh {
			break
		}
	}
	return first, max(first, last)
}
