package composer

import (
	"unicode"

	"github.com/chipchat/chipchat/contextref"
)

// SpaceBeforeChip keeps a chip about to go in at the caret from gluing to
// the word before it ("see [notes.txt]", not "see[notes.txt]", and a title
// "see notes.txt"): a space goes in first unless the caret is at a line's
// start or after white space, there is a selection, or the editor does not
// take input (InsertContext then appends after a separating space).
func (e *Editor) SpaceBeforeChip() {
	if !e.focused {
		return
	}
	d := e.draft
	if _, _, sel := d.Selection(); sel {
		return
	}
	c := d.Caret()
	line := d.Line(c.Line)
	if c.Col > 0 && c.Col <= len(line) && !unicode.IsSpace(line[c.Col-1]) {
		d.InsertText(" ")
	}
}

// QuoteAtCaret puts an assistant quote's chip at the caret (never over a
// selection), followed by a space, and scrolls to it.
func (e *Editor) QuoteAtCaret(cit *contextref.Citation) {
	d := e.draft
	d.SetCaret(d.Caret(), false)
	d.InsertCitation(cit)
	d.InsertText(" ")
	e.SetDraft(d) // scrolls to the caret
}

// InsertAtCaret puts rec's chip at the caret (never over a selection) even
// while the editor does not take input, followed by a space (the review
// pane's comments).
func (e *Editor) InsertAtCaret(rec contextref.Record) {
	d := e.draft
	d.SetCaret(d.Caret(), false)
	focused := e.focused
	e.Focus()
	e.InsertContext(rec, "")
	d.InsertText(" ")
	if !focused {
		e.Blur()
	}
}
