package transcript

import "strings"

// View draws the transcript: exactly height lines, none wider than width.
// It only walks the messages on screen, rendering (and caching) those not
// rendered at this width yet; it does no I/O.
func (m *Model) View() string {
	if m.height <= 0 {
		return ""
	}
	rows := make([]string, 0, m.height)
	if len(m.ents) > 0 && m.width > 0 {
		m.normalize()
		gw := m.gutterWidth()
		blankG := strings.Repeat(" ", gw)
		for i, r := m.top, m.off; i < len(m.ents) && len(rows) < m.height; i, r = i+1, 0 {
			ls := m.drawLines(i)
			g := blankG
			if m.focused && i == m.sel && gw > 0 {
				g = m.sty.gutter
			}
			s := sep(i)
			for ; r < s+len(ls) && len(rows) < m.height; r++ {
				if r < s {
					rows = append(rows, "")
					continue
				}
				rows = append(rows, g+ls[r-s])
			}
		}
	}
	for len(rows) < m.height {
		rows = append(rows, "")
	}
	if m.pop.open {
		box := m.popLines()
		copy(rows[m.height-len(box):], box)
	}
	return strings.Join(rows, "\n")
}
