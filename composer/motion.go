package composer

import "unicode"

// atomAfter returns the atom right after p: a rune, a chip (< 0), '\n' at a
// line end, or eof at the end of the draft.
func (d *Draft) atomAfter(p Pos) (rune, bool) {
	atoms := d.lines.At(p.Line).atoms
	if p.Col < len(atoms) {
		return atoms[p.Col], true
	}
	if p.Line+1 < d.lines.Len() {
		return '\n', true
	}
	return 0, false
}

// atomBefore returns the atom right before p.
func (d *Draft) atomBefore(p Pos) (rune, bool) {
	if p.Col > 0 {
		return d.lines.At(p.Line).atoms[p.Col-1], true
	}
	if p.Line > 0 {
		return '\n', true
	}
	return 0, false
}

func (d *Draft) left(p Pos) Pos {
	if p.Col > 0 {
		return Pos{p.Line, p.Col - 1}
	}
	if p.Line > 0 {
		return Pos{p.Line - 1, len(d.lines.At(p.Line - 1).atoms)}
	}
	return p
}

func (d *Draft) right(p Pos) Pos {
	if p.Col < len(d.lines.At(p.Line).atoms) {
		return Pos{p.Line, p.Col + 1}
	}
	if p.Line+1 < d.lines.Len() {
		return Pos{p.Line + 1, 0}
	}
	return p
}

// isWordAtom: letters, digits, marks and '_' make words; a chip is a word
// of its own (see wordLeft/wordRight).
func isWordAtom(r rune) bool {
	return r >= 0 && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_')
}

// wordRight moves past the next word, Emacs style: skip what is not a word,
// then the word. A chip is one word.
func (d *Draft) wordRight(p Pos) Pos {
	for {
		a, ok := d.atomAfter(p)
		if !ok || a < 0 || isWordAtom(a) {
			break
		}
		p = d.right(p)
	}
	if a, ok := d.atomAfter(p); ok && a < 0 {
		return d.right(p)
	}
	for {
		a, ok := d.atomAfter(p)
		if !ok || !isWordAtom(a) {
			return p
		}
		p = d.right(p)
	}
}

// wordLeft moves to the start of the previous word.
func (d *Draft) wordLeft(p Pos) Pos {
	for {
		a, ok := d.atomBefore(p)
		if !ok || a < 0 || isWordAtom(a) {
			break
		}
		p = d.left(p)
	}
	if a, ok := d.atomBefore(p); ok && a < 0 {
		return d.left(p)
	}
	for {
		a, ok := d.atomBefore(p)
		if !ok || !isWordAtom(a) {
			return p
		}
		p = d.left(p)
	}
}

// End is the position after the last atom.
func (d *Draft) End() Pos {
	l := d.lines.Len() - 1
	return Pos{l, len(d.lines.At(l).atoms)}
}

// clamp keeps p inside the draft.
func (d *Draft) clamp(p Pos) Pos {
	p.Line = max(0, min(p.Line, d.lines.Len()-1))
	p.Col = max(0, min(p.Col, len(d.lines.At(p.Line).atoms)))
	return p
}

// moveTo puts the caret at p; with extend the anchor stays (a selection
// grows), without it the selection collapses.
func (d *Draft) moveTo(p Pos, extend bool) {
	d.caret = d.clamp(p)
	if !extend {
		d.anchor = d.caret
	}
	d.merge = mergeNone
}

// SetCaret moves the caret to p (clamped), extending the selection or not.
func (d *Draft) SetCaret(p Pos, extend bool) {
	d.moveTo(p, extend)
	d.hasGoal = false
}

// MoveLeft moves one atom left. Without extend, a selection collapses to
// its start instead.
func (d *Draft) MoveLeft(extend bool) {
	if a, _, ok := d.Selection(); ok && !extend {
		d.SetCaret(a, false)
		return
	}
	d.SetCaret(d.left(d.caret), extend)
}

// MoveRight moves one atom right (or collapses a selection to its end).
func (d *Draft) MoveRight(extend bool) {
	if _, b, ok := d.Selection(); ok && !extend {
		d.SetCaret(b, false)
		return
	}
	d.SetCaret(d.right(d.caret), extend)
}

// MoveWordLeft and MoveWordRight move by word; a chip is one word.
func (d *Draft) MoveWordLeft(extend bool)  { d.SetCaret(d.wordLeft(d.caret), extend) }
func (d *Draft) MoveWordRight(extend bool) { d.SetCaret(d.wordRight(d.caret), extend) }

// MoveLineStart and MoveLineEnd move within the logical line.
func (d *Draft) MoveLineStart(extend bool) { d.SetCaret(Pos{d.caret.Line, 0}, extend) }
func (d *Draft) MoveLineEnd(extend bool) {
	d.SetCaret(Pos{d.caret.Line, len(d.lines.At(d.caret.Line).atoms)}, extend)
}

// MoveDocStart and MoveDocEnd move to the ends of the draft.
func (d *Draft) MoveDocStart(extend bool) { d.SetCaret(Pos{}, extend) }
func (d *Draft) MoveDocEnd(extend bool)   { d.SetCaret(d.End(), extend) }

// SelectAll selects the whole draft.
func (d *Draft) SelectAll() {
	d.anchor = Pos{}
	d.caret = d.End()
	d.merge = mergeNone
}

// MoveLine moves by logical lines, keeping the column it started from.
func (d *Draft) MoveLine(delta int, extend bool) {
	if !d.hasGoal {
		d.goalX = d.caret.Col
	}
	l := d.caret.Line + delta
	switch {
	case l < 0:
		d.moveTo(Pos{}, extend)
	case l >= d.lines.Len():
		d.moveTo(d.End(), extend)
	default:
		d.moveTo(Pos{l, min(d.goalX, len(d.lines.At(l).atoms))}, extend)
	}
	d.hasGoal = true
}

// MoveVisual moves by visual (wrapped) rows of the given width, keeping the
// display column it started from. width is measured by w.
func (d *Draft) MoveVisual(delta int, width int, w func(rune) int, extend bool) {
	rows := WrapLine(d.lines.At(d.caret.Line).atoms, width, w)
	ri := rowOf(rows, d.caret.Col)
	if !d.hasGoal {
		d.goalX = columnWidth(d.lines.At(d.caret.Line).atoms[rows[ri].Start:d.caret.Col], w)
	}
	line := d.caret.Line
	for ; delta > 0; delta-- {
		if ri+1 < len(rows) {
			ri++
		} else if line+1 < d.lines.Len() {
			line++
			rows = WrapLine(d.lines.At(line).atoms, width, w)
			ri = 0
		} else {
			d.moveTo(d.End(), extend)
			d.hasGoal = true
			return
		}
	}
	for ; delta < 0; delta++ {
		if ri > 0 {
			ri--
		} else if line > 0 {
			line--
			rows = WrapLine(d.lines.At(line).atoms, width, w)
			ri = len(rows) - 1
		} else {
			d.moveTo(Pos{}, extend)
			d.hasGoal = true
			return
		}
	}
	d.moveTo(Pos{line, colAtX(d.lines.At(line).atoms, rows, ri, d.goalX, w)}, extend)
	d.hasGoal = true
}

func columnWidth(atoms []rune, w func(rune) int) int {
	x := 0
	for _, a := range atoms {
		x += w(a)
	}
	return x
}

// colAtX is the column in row ri nearest to display column x without
// passing it (a wide atom is not entered).
func colAtX(atoms []rune, rows []Row, ri, x int, w func(rune) int) int {
	r := rows[ri]
	end := r.End
	if ri+1 < len(rows) && end > r.Start {
		end-- // the caret at a row's end belongs to the next row
	}
	cx := 0
	for c := r.Start; c < end; c++ {
		cw := w(atoms[c])
		if cx+cw > x {
			return c
		}
		cx += cw
	}
	return end
}
