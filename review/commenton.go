package review

import tea "charm.land/bubbletea/v2"

// CommentOn selects, in the loaded diff, the lines of the file at path
// (relative to the project directory; "" for any file) that cover a range
// the parent already chose elsewhere — new-side lines newFrom..newTo and
// old-side lines oldFrom..oldTo (a zero From means no lines on that side)
// — and opens the comment editor on them, as v, motions and c would. The
// selection is the first hunk holding such a line, from its first such
// line to its last. It reports false, changing nothing, when the diff is
// not loaded, the editor is open, or no line matches. The app uses it for
// the selection a user made on an agent's diff item in the transcript.
//
// It looks at the hunks' ranges and scans only the lines of the hunk it
// picks.
func (m *Model) CommentOn(path string, newFrom, newTo, oldFrom, oldTo int) (tea.Cmd, bool) {
	if m.doc == nil || m.editing {
		return nil, false
	}
	inNew := func(n int) bool { return newFrom > 0 && n >= newFrom && n <= newTo }
	inOld := func(n int) bool { return oldFrom > 0 && n >= oldFrom && n <= oldTo }
	overlaps := func(start, n, from, to int) bool { return from > 0 && n > 0 && start <= to && start+n-1 >= from }
	k := 0 // index into hunkRows
	for fi, f := range m.doc.diff.Files {
		if path != "" && RelPath(m.doc.diff.Prefix, f.Path()) != path {
			k += len(f.Hunks)
			continue
		}
		for hi, h := range f.Hunks {
			hk := k
			k++
			if !overlaps(h.NewStart, h.NewLines, newFrom, newTo) && !overlaps(h.OldStart, h.OldLines, oldFrom, oldTo) {
				continue
			}
			first, last := -1, -1
			for r := m.doc.hunkRows[hk] + 1; r <= m.doc.hunkEnd[fi][hi]; r++ {
				rw := m.doc.rows[r]
				if rw.kind != rowLine {
					continue
				}
				l := h.Lines[rw.line]
				if l.Kind != LineDeleted && inNew(l.New) || l.Kind != LineAdded && inOld(l.Old) {
					if first < 0 {
						first = r
					}
					last = r
				}
			}
			if first < 0 {
				continue
			}
			m.selecting, m.anchor, m.cursor = true, first, last
			m.status = ""
			m.ensureVisible()
			return m.openEditor(), true
		}
	}
	return nil, false
}
