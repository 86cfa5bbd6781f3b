package composer

import "github.com/chipchat/chipchat/contextref"

// PasteMark is where PasteText put a paste: the text between From and To,
// and the draft's version right after it.
type PasteMark struct {
	From, To Pos
	Version  uint64
}

// PasteText inserts text as prose at the caret (over the selection) and
// marks where it went, for ReplacePaste.
func (e *Editor) PasteText(text string) PasteMark {
	d := e.draft
	from := d.caret
	if a, _, sel := d.Selection(); sel {
		from = a
	}
	d.InsertText(text)
	e.SetDraft(d)
	return PasteMark{From: from, To: d.caret, Version: d.Version()}
}

// ReplacePaste replaces the marked paste with rec's chip, one undo step
// (undo gives the text back), unless the draft changed since: then it
// does nothing and says false.
func (e *Editor) ReplacePaste(m PasteMark, rec contextref.Record) bool {
	d := e.draft
	if d.Version() != m.Version {
		return false
	}
	d.SetCaret(m.From, false)
	d.SetCaret(m.To, true)
	d.InsertChip(rec, "")
	e.SetDraft(d)
	return true
}

// InsertImported is InsertMarkdown for an import (a paste, a restored
// stash entry): the image records no link shows (a stashed draft's shelf)
// go on the shelf too.
func (d *Draft) InsertImported(text string, records []contextref.Record) {
	d.InsertMarkdown(text, records)
	for _, r := range records {
		if r.RecordBase().Kind == contextref.KindImage && d.References(r.RecordBase().ContextID) == 0 {
			d.AddImage(r)
		}
	}
}
