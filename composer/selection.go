package composer

import (
	"strings"

	"github.com/chipchat/chipchat/contextref"
)

// SelectedMarkdown returns the selection as canonical Markdown and the
// records its chips point at (each once, in first-reference order); ok is
// false when nothing is selected. Linear in the selection.
func (d *Draft) SelectedMarkdown() (text string, records []contextref.Record, ok bool) {
	a, b, ok := d.Selection()
	if !ok {
		return "", nil, false
	}
	var sb strings.Builder
	seen := map[string]bool{}
	for _, at := range d.between(a, b) {
		if at >= 0 {
			sb.WriteRune(at)
			continue
		}
		c := d.chips[-at-1]
		writeLink(&sb, c)
		if r, has := d.records[c.ContextID]; has && !seen[c.ContextID] {
			seen[c.ContextID] = true
			records = append(records, r)
		}
	}
	return sb.String(), records, true
}

// Cut returns the selection as SelectedMarkdown does and removes it as one
// undo step; ok is false (and nothing changes) when nothing is selected.
func (d *Draft) Cut() (text string, records []contextref.Record, ok bool) {
	text, records, ok = d.SelectedMarkdown()
	if ok {
		d.DeleteSelection()
	}
	return text, records, ok
}

// ChipNearCaret returns the chip right before the caret, else the one right
// after it, with the position of its atom.
func (d *Draft) ChipNearCaret() (Chip, Pos, bool) {
	if a, ok := d.atomBefore(d.caret); ok && a < 0 {
		return d.chips[-a-1], d.left(d.caret), true
	}
	if a, ok := d.atomAfter(d.caret); ok && a < 0 {
		return d.chips[-a-1], d.caret, true
	}
	return Chip{}, Pos{}, false
}

// FindChip returns where the chip occurrence with that reference id is.
// Linear in the draft: for rare actions only.
func (d *Draft) FindChip(refID string) (Pos, bool) {
	for l, ln := range d.lines.All() {
		for c, a := range ln.atoms {
			if a < 0 && d.chips[-a-1].RefID == refID {
				return Pos{l, c}, true
			}
		}
	}
	return Pos{}, false
}

// TextChipNearCaret is the chip beside the caret (ChipNearCaret) that can
// expand back into prose: a text file chip (a long paste kept as
// pasted-text-N.txt), with its reference id and its file's attachment id.
// why says, when there is none, what is there instead.
func (d *Draft) TextChipNearCaret() (refID, attachmentID, why string) {
	chip, _, ok := d.ChipNearCaret()
	if !ok {
		return "", "", "no chip beside the caret"
	}
	r, ok := d.Record(chip.ContextID)
	f, isFile := r.(*contextref.FileRecord)
	if !ok || !isFile || !strings.HasPrefix(f.MimeType, "text/") {
		return "", "", "only a text file chip expands into prose"
	}
	return chip.RefID, f.AttachmentID, ""
}

// ReplaceChipWithText replaces the chip occurrence with that reference id
// by prose, as one undo step (the record goes when no other chip points at
// it). It reports false when the chip is gone.
func (d *Draft) ReplaceChipWithText(refID, text string) bool {
	p, ok := d.FindChip(refID)
	if !ok {
		return false
	}
	d.change(p, Pos{p.Line, p.Col + 1}, normalizeText(text), nil, mergeNone)
	d.merge = mergeNone
	return true
}

// ClearAll empties the draft (prose, chips and shelf) as one undo step,
// like Clear, but undo gives back the caret and selection as they were
// before (Clear selects everything first, so its undo leaves all selected).
func (d *Draft) ClearAll() {
	group := len(d.undo)
	if end := d.End(); end != (Pos{}) {
		d.change(Pos{}, end, nil, nil, mergeNone)
		d.merge = mergeNone
	}
	for _, id := range append([]string(nil), d.shelf...) {
		_ = d.RemoveShelfImage(id, true)
	}
	d.squash(group)
}
