package transcript

import "strings"

// View draws the transcript: exactly height lines, none wider than width.
// It only walks the parts on screen, rendering (and caching) those not
// rendered at this width yet; it does no I/O.
func (m *Model) View() string {
	if m.height <= 0 {
		return ""
	}
	m.grown = 0
	rows := make([]string, 0, m.height)
	if len(m.ents) > 0 && m.width > 0 {
		m.normalize()
		gw := m.gutterWidth()
		blankG := strings.Repeat(" ", gw)
		cur := stop{-2, -2}
		if m.focused {
			cur = m.cur()
		}
		for q, r, ok := m.top, m.off, true; ok && len(rows) < m.height; q, ok = m.next(q) {
			ls := m.highlightHits(m.drawLines(q))
			g := blankG
			if m.sel2.active && m.covered(q) {
				ls = m.highlightSelection(q, ls)
				if gw > 0 {
					g = m.sty.selGutter
				}
			} else if gw > 0 && m.stopOf(q) == cur {
				g = m.sty.gutter
			}
			s := m.gap(q)
			for ; r < s+len(ls) && len(rows) < m.height; r++ {
				if r < s {
					rows = append(rows, "")
					continue
				}
				rows = append(rows, g+ls[r-s])
			}
			r = 0
		}
	}
	for len(rows) < m.height {
		rows = append(rows, "")
	}
	if m.pop.open {
		box := m.popLines()
		copy(rows[m.height-len(box):], box)
	} else if m.sel2.active {
		box := m.selBoxLines()
		if len(box) > m.height {
			box = box[len(box)-m.height:]
		}
		copy(rows[m.height-len(box):], box)
	}
	return strings.Join(rows, "\n")
}
