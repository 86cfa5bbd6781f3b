package review

import (
	"sort"
	"strconv"
)

// The pane draws a diff as one list of rows: per file a header row, then
// per hunk a header row and its lines (and a row for each "\ No newline"
// marker); a file without hunks gets one note row. The list is built once,
// in the command that loads the diff, so Update and View only index it.

type rowKind uint8

const (
	rowFile rowKind = iota
	rowHunk
	rowLine
	rowNoNewline
	rowNote
)

type row struct {
	kind       rowKind
	file, hunk int32
	line       int32
}

// doc is a diff prepared for the pane.
type doc struct {
	diff     *Diff
	rows     []row
	fileRow  []int     // row of each file's header
	hunkRows []int     // row of each hunk's header, ascending
	hunkEnd  [][]int   // per file, per hunk: the row of its last line
	pairs    [][][]int // per file, per hunk, per line: paired -/+ line, or -1
	counts   [][2]int  // per file: added and deleted lines
	numW     int       // width of a line number column
	added    int
	deleted  int
}

func buildDoc(d *Diff) *doc {
	dc := &doc{diff: d, numW: 3}
	maxN := 0
	for fi, f := range d.Files {
		dc.fileRow = append(dc.fileRow, len(dc.rows))
		dc.rows = append(dc.rows, row{kind: rowFile, file: int32(fi)})
		ends := make([]int, len(f.Hunks))
		pairs := make([][]int, len(f.Hunks))
		if len(f.Hunks) == 0 {
			dc.rows = append(dc.rows, row{kind: rowNote, file: int32(fi)})
		}
		for hi, h := range f.Hunks {
			dc.hunkRows = append(dc.hunkRows, len(dc.rows))
			dc.rows = append(dc.rows, row{kind: rowHunk, file: int32(fi), hunk: int32(hi)})
			for li, l := range h.Lines {
				dc.rows = append(dc.rows, row{kind: rowLine, file: int32(fi), hunk: int32(hi), line: int32(li)})
				ends[hi] = len(dc.rows) - 1
				if l.NoNewline {
					dc.rows = append(dc.rows, row{kind: rowNoNewline, file: int32(fi), hunk: int32(hi), line: int32(li)})
				}
				maxN = max(maxN, l.Old, l.New)
			}
			pairs[hi] = pairLines(h.Lines)
		}
		a, d := f.Counts()
		dc.counts = append(dc.counts, [2]int{a, d})
		dc.added += a
		dc.deleted += d
		dc.hunkEnd = append(dc.hunkEnd, ends)
		dc.pairs = append(dc.pairs, pairs)
	}
	dc.numW = max(dc.numW, len(strconv.Itoa(maxN)))
	return dc
}

// pairLines pairs each deleted line of a run of deletions with the added
// line at the same place of the run of additions right after it: those are
// the lines whose word-level changes are shown.
func pairLines(lines []Line) []int {
	p := make([]int, len(lines))
	for i := range p {
		p[i] = -1
	}
	for i := 0; i < len(lines); {
		if lines[i].Kind != LineDeleted {
			i++
			continue
		}
		d0 := i
		for i < len(lines) && lines[i].Kind == LineDeleted {
			i++
		}
		a0 := i
		for i < len(lines) && lines[i].Kind == LineAdded {
			i++
		}
		for k := 0; k < a0-d0 && a0+k < i; k++ {
			p[d0+k], p[a0+k] = a0+k, d0+k
		}
	}
	return p
}

// selectable reports whether the cursor may rest on row r.
func (dc *doc) selectable(r int) bool {
	if r < 0 || r >= len(dc.rows) {
		return false
	}
	k := dc.rows[r].kind
	return k == rowLine || k == rowNote
}

// nextSelectable is the first selectable row from r in direction dir
// (±1), or -1.
func (dc *doc) nextSelectable(r, dir int) int {
	for ; r >= 0 && r < len(dc.rows); r += dir {
		if dc.selectable(r) {
			return r
		}
	}
	return -1
}

// fileOf is the index of the file row r belongs to.
func (dc *doc) fileOf(r int) int {
	if r < 0 || r >= len(dc.rows) {
		return 0
	}
	return int(dc.rows[r].file)
}

// hunkHeaderAtOrBefore is the index in hunkRows of the last hunk header
// at or before row r, or -1.
func (dc *doc) hunkHeaderAtOrBefore(r int) int {
	return sort.SearchInts(dc.hunkRows, r+1) - 1
}

// hunkSpan is the first and last line row of the hunk row r is in; ok is
// false for a row outside any hunk.
func (dc *doc) hunkSpan(r int) (first, last int, ok bool) {
	rw := dc.rows[r]
	if rw.kind != rowLine && rw.kind != rowNoNewline {
		return r, r, false
	}
	i := dc.hunkHeaderAtOrBefore(r)
	return dc.hunkRows[i] + 1, dc.hunkEnd[rw.file][rw.hunk], true
}

// placeRow is the row of the line numbered line (as Line.Number counts) in
// the file at path, or the nearest line of that file after it, or the
// file's first row; fallback when the file is gone.
func (dc *doc) placeRow(path string, line, fallback int) int {
	for fi, f := range dc.diff.Files {
		if f.Path() != path {
			continue
		}
		best := dc.nextSelectable(dc.fileRow[fi], 1)
		for r := dc.fileRow[fi] + 1; r < len(dc.rows) && int(dc.rows[r].file) == fi; r++ {
			rw := dc.rows[r]
			if rw.kind == rowLine && f.Hunks[rw.hunk].Lines[rw.line].Number() >= line {
				return r
			}
		}
		return best
	}
	return fallback
}
