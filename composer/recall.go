package composer

import "github.com/chipchat/chipchat/contextref"

// Recall is the composer's side of stepping through earlier prompts (the
// app's prompt history): the draft the user had typed when the stepping
// began, which comes back after the newest prompt, and the draft's version
// once a prompt was shown, so an edit since is seen. The app keeps the
// entries and the position.
type Recall struct {
	typed *Draft
	shown uint64
}

// RecallsOn reports whether up (down, up false) on d steps through the
// prompts rather than moving the caret: d is empty or its caret is on the
// first (last) line, and nothing is selected.
func RecallsOn(d *Draft, up bool) bool {
	if _, _, sel := d.Selection(); sel {
		return false
	}
	if up {
		return d.IsEmpty() || d.Caret().Line == 0
	}
	return d.IsEmpty() || d.Caret().Line == d.LineCount()-1
}

// Keep is a stepping's start on d: d is the typed draft, unless empty.
func (r *Recall) Keep(d *Draft) {
	r.typed = nil
	if !d.IsEmpty() {
		r.typed = d
	}
}

// Forget drops the typed draft (the prompt was sent, or the shown one
// edited: it is the user's draft now).
func (r *Recall) Forget() { r.typed = nil }

// Edited reports whether e's draft changed since the last Show.
func (r *Recall) Edited(e *Editor) bool { return e.Draft().Version() != r.shown }

// Show replaces e's draft with the prompt md and its records, the caret
// at its end (every image on the shelf, linked or not).
func (r *Recall) Show(e *Editor, md string, recs []contextref.Record) {
	d := FromMarkdown(md, recs)
	last := d.LineCount() - 1
	d.SetCaret(Pos{Line: last, Col: len(d.Line(last))}, false)
	e.SetDraft(d)
	r.shown = e.Draft().Version()
}

// Back is a step past the newest prompt: the typed draft comes back (an
// empty one when there was none) and is forgotten.
func (r *Recall) Back(e *Editor) {
	if r.typed != nil {
		e.SetDraft(r.typed)
	} else {
		e.Reset()
	}
	r.typed = nil
}
