package composer

// Row is one visual row of a logical line: atoms [Start, End).
type Row struct{ Start, End int }

// WrapLine breaks a line's atoms into rows at most width display columns
// wide, breaking after white space where it can and inside a word only when
// a word is wider than a row. A chip is never split: one wider than the row
// gets a row of its own. An empty line is one empty row. Cost: linear in the
// line.
func WrapLine(atoms []rune, width int, w func(rune) int) []Row {
	if width < 1 {
		width = 1
	}
	rows := make([]Row, 0, 1+len(atoms)/max(width, 1))
	start, x := 0, 0
	brk := -1 // index after the last space in the current row
	for i := 0; i < len(atoms); i++ {
		a := atoms[i]
		aw := w(a)
		if x+aw > width && i > start && (a == ' ' || a == '\t') {
			// White space that does not fit hangs at the row's end, so the
			// next row starts with a word.
			rows = append(rows, Row{start, i + 1})
			start, x, brk = i+1, 0, -1
			continue
		}
		if x+aw > width && i > start {
			cut := i
			if brk > start {
				cut = brk
			}
			rows = append(rows, Row{start, cut})
			start = cut
			brk = -1
			x = 0
			for j := start; j < i; j++ {
				x += w(atoms[j])
			}
		}
		x += aw
		if a == ' ' || a == '\t' {
			brk = i + 1
		}
	}
	return append(rows, Row{start, len(atoms)})
}

// rowOf finds the row holding column col; a column at a row boundary
// belongs to the later row.
func rowOf(rows []Row, col int) int {
	lo, hi := 0, len(rows)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if rows[mid].Start <= col {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
