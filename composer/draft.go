package composer

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/chipchat/chipchat/contextref"
)

// Pos is a place in a draft: a logical line and a column counted in atoms
// (one rune of prose, or one whole chip).
type Pos struct{ Line, Col int }

// Before reports whether p comes before q.
func (p Pos) Before(q Pos) bool { return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col }

// CitationKind is the Kind of an assistant quote chip. A citation is not a
// record (DESIGN.md 3.8): its chip has no context id and no record, and its
// text is the whole serialized link.
const CitationKind = "citation"

// Chip is one occurrence of a reference in the draft: a context reference,
// or an assistant quote (Citation set, Kind CitationKind).
type Chip struct {
	Kind      string
	ContextID string
	Label     string // sanitized link label, for display
	RefID     string // ref_…: identity of this occurrence, never on the wire
	// Citation is the decoded quote of an assistant quote chip, nil for a
	// context reference. Its link is written back byte for byte as it was
	// read (or as Citation.Link() when made here).
	Citation *contextref.Citation
	// source is the label exactly as it stood in parsed Markdown (empty for
	// chips made here): writing it back unchanged keeps the text around
	// the link parsing as it did.
	source string
}

// linkLabel is the label the chip's link is written with.
func (c Chip) linkLabel() string {
	if c.source != "" {
		return c.source
	}
	return c.Label
}

// A line is a slice of atoms: a rune ≥ 0 is prose, a rune < 0 is the chip
// chips[-r-1]. Lines are never mutated in place: a change makes a new line,
// so renderers may cache by *line. md is the line's canonical Markdown,
// written when the line is made (chips never change either), so the
// draft's Markdown is the lines' joined, not re-encoded.
type line struct {
	atoms []rune
	md    string
}

// ErrNeedsConfirmation is returned by RemoveShelfImage when chips still
// reference the image and the caller has not confirmed.
var ErrNeedsConfirmation = errors.New("chips still reference this image")

// Draft is the composer's pure model: prose, chip occurrences and the
// records they point at, with a caret, a selection and undo history.
//
// Costs: an edit costs time proportional to the lines it touches and the
// text it inserts or removes, never to the whole draft. Markdown and
// FromMarkdown are linear.
type Draft struct {
	lines   lineList
	chips   []Chip                       // chip table; atoms index it; entries are never reused
	records map[string]contextref.Record // by context id
	refs    map[string]int               // chip atoms per context id
	shelf   []string                     // image context ids, in order
	caret   Pos
	anchor  Pos // == caret when nothing is selected
	goalX   int // display column kept by vertical motion
	hasGoal bool
	undo    []*edit
	redo    []*edit
	merge   mergeKind // how the last edit may be extended
	refSeq  int
	version uint64
	// sorted is Records' answer, nil when the records or the shelf
	// changed since: typing leaves it, so a save costs no sort.
	sorted []contextref.Record
}

// NewDraft returns an empty draft.
func NewDraft() *Draft {
	return &Draft{lines: newLineList(&line{}), records: map[string]contextref.Record{}, refs: map[string]int{}}
}

// Version changes with every change of content (not of caret or selection).
func (d *Draft) Version() uint64 { return d.version }

// LineCount is the number of logical lines (at least 1).
func (d *Draft) LineCount() int { return d.lines.Len() }

// Line returns the atoms of logical line i; do not modify them.
func (d *Draft) Line(i int) []rune { return d.lines.At(i).atoms }

// LineKey identifies the current content of line i: it changes whenever the
// line does, so renderers can cache per line.
func (d *Draft) LineKey(i int) any { return d.lines.At(i) }

// ChipAt returns the chip an atom stands for.
func (d *Draft) ChipAt(atom rune) (Chip, bool) {
	if atom >= 0 {
		return Chip{}, false
	}
	return d.chips[-atom-1], true
}

// Caret is where the next input goes.
func (d *Draft) Caret() Pos { return d.caret }

// Selection returns the selected range in order and whether it is non-empty.
func (d *Draft) Selection() (start, end Pos, ok bool) {
	if d.anchor == d.caret {
		return d.caret, d.caret, false
	}
	if d.anchor.Before(d.caret) {
		return d.anchor, d.caret, true
	}
	return d.caret, d.anchor, true
}

// Anchor is the fixed end of the selection (equal to the caret when there
// is none).
func (d *Draft) Anchor() Pos { return d.anchor }

// Record returns the record a context id names.
func (d *Draft) Record(id string) (contextref.Record, bool) {
	r, ok := d.records[id]
	return r, ok
}

// Records returns every record the draft holds: records some chip points at
// and shelf images, in a stable order (shelf images first, then by id).
func (d *Draft) Records() []contextref.Record { return slices.Clone(d.records0()) }

// records0 is Records, cached until the records or the shelf change; do
// not modify it.
func (d *Draft) records0() []contextref.Record {
	if d.sorted == nil {
		d.sorted = d.sortRecords()
	}
	return d.sorted
}

func (d *Draft) sortRecords() []contextref.Record {
	out := make([]contextref.Record, 0, len(d.records))
	onShelf := map[string]bool{}
	for _, id := range d.shelf {
		if r, ok := d.records[id]; ok {
			out = append(out, r)
			onShelf[id] = true
		}
	}
	ids := make([]string, 0, len(d.records))
	for id := range d.records {
		if !onShelf[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		out = append(out, d.records[id])
	}
	return out
}

// Shelf returns the image context ids on the image shelf, in order.
func (d *Draft) Shelf() []string { return slices.Clone(d.shelf) }

// References counts the chips that point at a context id.
func (d *Draft) References(id string) int { return d.refs[id] }

// IsEmpty reports whether the draft has no content and no shelf images.
func (d *Draft) IsEmpty() bool {
	return d.lines.Len() == 1 && len(d.lines.At(0).atoms) == 0 && len(d.shelf) == 0
}

// IsBlank reports whether the draft holds nothing to send: prose of
// blanks at most, no chip and no shelf image. It reads the atoms; it does
// not write the Markdown.
func (d *Draft) IsBlank() bool {
	if len(d.shelf) > 0 {
		return false
	}
	for _, l := range d.lines.All() {
		for _, r := range l.atoms {
			if r < 0 || !unicode.IsSpace(r) {
				return false
			}
		}
	}
	return true
}

// newCitationChip makes an assistant quote chip; link is its serialized
// link as written.
func (d *Draft) newCitationChip(c *contextref.Citation, link string) rune {
	d.refSeq++
	d.chips = append(d.chips, Chip{Kind: CitationKind, Label: contextref.CitationQuoteLabel(c),
		RefID: "ref_" + strconv.Itoa(d.refSeq), Citation: c, source: link})
	return rune(-len(d.chips))
}

// isRef reports whether atom is a chip that points at a record (not prose,
// not an assistant quote).
func (d *Draft) isRef(at rune) bool { return at < 0 && d.chips[-at-1].Citation == nil }

func (d *Draft) newChip(kind, id, label string) rune {
	d.refSeq++
	d.chips = append(d.chips, Chip{Kind: kind, ContextID: id, Label: chipLabel(label, kind), RefID: "ref_" + strconv.Itoa(d.refSeq)})
	return rune(-len(d.chips))
}

// parsedChip makes a chip for an occurrence scanned in text, keeping its
// label's source.
func (d *Draft) parsedChip(o contextref.Occurrence, text string) rune {
	open := o.Start
	if o.Image {
		open++
	}
	source := text[open+1 : open+1+strings.IndexByte(text[open+1:], ']')]
	d.refSeq++
	d.chips = append(d.chips, Chip{Kind: o.Kind, ContextID: o.ContextID, Label: o.Label, RefID: "ref_" + strconv.Itoa(d.refSeq), source: source})
	return rune(-len(d.chips))
}

// chipLabel sanitizes a label to a fixed point, so that the chip's label is
// exactly what its link parses back to.
func chipLabel(label, kind string) string {
	return contextref.SanitizeLabel(contextref.SanitizeLabel(label, kind), kind)
}

// ---- editing core ----

type mergeKind int

const (
	mergeNone mergeKind = iota
	mergeTyping
	mergeBackspace
	mergeDeleteForward
)

// edit is one undoable change: at start, removed atoms were replaced by
// inserted atoms; records and shelf before and after are kept for the ids
// the change touched.
type edit struct {
	start             Pos
	removed, inserted []rune
	recBefore         map[string]contextref.Record // nil value: absent
	recAfter          map[string]contextref.Record
	shelfBefore       []string
	shelfAfter        []string
	shelfChanged      bool
	caretBefore       Pos
	anchorBefore      Pos
	caretAfter        Pos
	anchorAfter       Pos
	kind              mergeKind
	group             []*edit // a squashed step: these edits in order
}

// endOf returns where atoms inserted at p end.
func endOf(p Pos, atoms []rune) Pos {
	for _, a := range atoms {
		if a == '\n' {
			p.Line++
			p.Col = 0
		} else {
			p.Col++
		}
	}
	return p
}

// between returns the atoms from a to b, lines joined by '\n'.
func (d *Draft) between(a, b Pos) []rune {
	if a.Line == b.Line {
		return slices.Clone(d.lines.At(a.Line).atoms[a.Col:b.Col])
	}
	out := slices.Clone(d.lines.At(a.Line).atoms[a.Col:])
	for l := a.Line + 1; l < b.Line; l++ {
		out = append(out, '\n')
		out = append(out, d.lines.At(l).atoms...)
	}
	out = append(out, '\n')
	return append(out, d.lines.At(b.Line).atoms[:b.Col]...)
}

// splice replaces the atoms from a to b with ins and keeps chip counts.
func (d *Draft) splice(a, b Pos, ins []rune) {
	for _, at := range d.between(a, b) {
		if d.isRef(at) {
			d.refs[d.chips[-at-1].ContextID]--
		}
	}
	prefix := d.lines.At(a.Line).atoms[:a.Col]
	suffix := d.lines.At(b.Line).atoms[b.Col:]
	var repl []*line
	cur := make([]rune, 0, len(prefix)+len(ins)+len(suffix))
	cur = append(cur, prefix...)
	for _, at := range ins {
		if at == '\n' {
			repl = append(repl, d.newLine(cur))
			cur = nil
			continue
		}
		if d.isRef(at) {
			d.refs[d.chips[-at-1].ContextID]++
		}
		cur = append(cur, at)
	}
	cur = append(cur, suffix...)
	repl = append(repl, d.newLine(cur))
	d.lines.Replace(a.Line, b.Line+1, repl...)
	d.version++
}

// change applies a new edit: replace a..b with ins, add the given records
// (those the draft does not hold yet), drop records no chip points at any
// more (shelf images stay), and record it for undo.
func (d *Draft) change(a, b Pos, ins []rune, add []contextref.Record, kind mergeKind) {
	removed := d.between(a, b)
	touched := map[string]bool{}
	for _, at := range removed {
		if d.isRef(at) {
			touched[d.chips[-at-1].ContextID] = true
		}
	}
	for _, at := range ins {
		if d.isRef(at) {
			touched[d.chips[-at-1].ContextID] = true
		}
	}
	for _, r := range add {
		touched[r.RecordBase().ContextID] = true
	}
	e := &edit{start: a, removed: removed, inserted: ins, kind: kind,
		caretBefore: d.caret, anchorBefore: d.anchor}
	if len(touched) > 0 {
		d.sorted = nil
		e.recBefore = map[string]contextref.Record{}
		e.recAfter = map[string]contextref.Record{}
		for id := range touched {
			e.recBefore[id] = d.records[id]
		}
	}
	shelfBefore := d.shelf
	for _, r := range add {
		id := r.RecordBase().ContextID
		if _, ok := d.records[id]; !ok {
			d.records[id] = r
			if r.RecordBase().Kind == contextref.KindImage && !slices.Contains(d.shelf, id) {
				d.shelf = append(slices.Clone(d.shelf), id)
			}
		}
	}
	d.splice(a, b, ins)
	for id := range touched {
		if d.refs[id] <= 0 {
			delete(d.refs, id)
			if !slices.Contains(d.shelf, id) {
				delete(d.records, id)
			}
		}
		e.recAfter[id] = d.records[id]
	}
	if !slices.Equal(shelfBefore, d.shelf) {
		e.shelfChanged, e.shelfBefore, e.shelfAfter = true, shelfBefore, slices.Clone(d.shelf)
	}
	d.caret = endOf(a, ins)
	d.anchor = d.caret
	d.hasGoal = false
	e.caretAfter, e.anchorAfter = d.caret, d.anchor
	d.push(e)
}

// push records an edit, merging it into the previous one when both belong
// to one typing or deleting run.
func (d *Draft) push(e *edit) {
	d.redo = nil
	if n := len(d.undo); n > 0 && e.kind != mergeNone && d.merge == e.kind && !e.shelfChanged && !d.undo[n-1].shelfChanged {
		p := d.undo[n-1]
		switch e.kind {
		case mergeTyping:
			if endOf(p.start, p.inserted) == e.start && len(e.removed) == 0 && !endsWord(p.inserted, e.inserted) {
				p.inserted = append(p.inserted, e.inserted...)
				p.caretAfter, p.anchorAfter = e.caretAfter, e.anchorAfter
				mergeRecords(p, e)
				return
			}
		case mergeBackspace:
			if e.start.Line >= 0 && endOf(e.start, e.removed) == p.start && len(e.inserted) == 0 {
				p.start = e.start
				p.removed = append(slices.Clone(e.removed), p.removed...)
				p.caretAfter, p.anchorAfter = e.caretAfter, e.anchorAfter
				mergeRecords(p, e)
				return
			}
		case mergeDeleteForward:
			if e.start == p.start && len(e.inserted) == 0 {
				p.removed = append(p.removed, e.removed...)
				p.caretAfter, p.anchorAfter = e.caretAfter, e.anchorAfter
				mergeRecords(p, e)
				return
			}
		}
	}
	d.undo = append(d.undo, e)
	d.merge = e.kind
}

// endsWord reports whether a typing run should close before next: a run
// ends after a line break, so that undo takes back a line at a time.
func endsWord(run, next []rune) bool {
	return len(run) > 0 && run[len(run)-1] == '\n'
}

func mergeRecords(p, e *edit) {
	if e.recBefore == nil {
		return
	}
	if p.recBefore == nil {
		p.recBefore, p.recAfter = map[string]contextref.Record{}, map[string]contextref.Record{}
	}
	for id, r := range e.recBefore {
		if _, ok := p.recBefore[id]; !ok {
			p.recBefore[id] = r
		}
	}
	for id, r := range e.recAfter {
		p.recAfter[id] = r
	}
}

func (d *Draft) setRecords(m map[string]contextref.Record) {
	if len(m) > 0 {
		d.sorted = nil
	}
	for id, r := range m {
		if r == nil {
			delete(d.records, id)
		} else {
			d.records[id] = r
		}
	}
}

// Undo takes back the last change; it reports false when there is none.
// Undoing a chip deletion brings its record back.
func (d *Draft) Undo() bool {
	if len(d.undo) == 0 {
		return false
	}
	e := d.undo[len(d.undo)-1]
	d.undo = d.undo[:len(d.undo)-1]
	d.undoOne(e)
	d.redo = append(d.redo, e)
	d.merge = mergeNone
	d.hasGoal = false
	return true
}

func (d *Draft) undoOne(e *edit) {
	for i := len(e.group) - 1; i >= 0; i-- {
		d.undoOne(e.group[i])
	}
	if e.group == nil {
		d.splice(e.start, endOf(e.start, e.inserted), e.removed)
		d.setRecords(e.recBefore)
		if e.shelfChanged {
			d.shelf, d.sorted = slices.Clone(e.shelfBefore), nil
		}
	}
	d.caret, d.anchor = e.caretBefore, e.anchorBefore
}

// Redo applies again the last change Undo took back.
func (d *Draft) Redo() bool {
	if len(d.redo) == 0 {
		return false
	}
	e := d.redo[len(d.redo)-1]
	d.redo = d.redo[:len(d.redo)-1]
	d.redoOne(e)
	d.undo = append(d.undo, e)
	d.merge = mergeNone
	d.hasGoal = false
	return true
}

func (d *Draft) redoOne(e *edit) {
	for _, g := range e.group {
		d.redoOne(g)
	}
	if e.group == nil {
		d.splice(e.start, endOf(e.start, e.removed), e.inserted)
		d.setRecords(e.recAfter)
		if e.shelfChanged {
			d.shelf, d.sorted = slices.Clone(e.shelfAfter), nil
		}
	}
	d.caret, d.anchor = e.caretAfter, e.anchorAfter
}

// CanUndo and CanRedo report whether there is history to walk.
func (d *Draft) CanUndo() bool { return len(d.undo) > 0 }
func (d *Draft) CanRedo() bool { return len(d.redo) > 0 }

// BreakUndoGroup makes the next edit its own undo step.
func (d *Draft) BreakUndoGroup() { d.merge = mergeNone }

// ---- input ----

// normalizeText turns CRLF and lone CR into LF and drops control characters
// other than tab and LF, so a paste can never hide terminal sequences.
func normalizeText(s string) []rune {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	out := make([]rune, 0, len(s))
	for _, r := range s {
		switch {
		case r == '\r':
			out = append(out, '\n')
		case r == '\n' || r == '\t':
			out = append(out, r)
		case r < 0x20 || r == 0x7F || r >= 0x80 && r < 0xA0:
		default:
			out = append(out, r)
		}
	}
	return out
}

// TypeRune inserts one typed character at the caret (replacing the
// selection). Consecutive typing is one undo step.
func (d *Draft) TypeRune(r rune) {
	rs := normalizeText(string(r))
	if len(rs) == 0 {
		return
	}
	a, b, _ := d.Selection()
	kind := mergeTyping
	if a != b {
		kind = mergeNone
	}
	d.change(a, b, rs, nil, kind)
}

// InsertText inserts text at the caret, replacing the selection, as one undo
// step (a paste). CRLF is normalized and control characters are dropped.
// Plain text stays prose, even when it looks like a reference link (use
// InsertMarkdown to bring links in as chips), except assistant quote links,
// which need no record: each valid one becomes its chip (DESIGN.md 3.8,
// "pasting reconstructs the chip from the text alone"), and links of a kind
// chipchat does not know (a newer T3 Code's): each becomes an unresolved
// chip that says its kind, as an unknown kind renders (DESIGN.md 5), and
// is written back byte for byte.
func (d *Draft) InsertText(s string) {
	rs := normalizeText(s)
	if text := string(rs); contextref.HasCitations(text) || hasUnknownKindLink(text) {
		rs, _ = d.importLinks(text, nil, unknownKindOnly)
	}
	a, b, sel := d.Selection()
	if len(rs) == 0 && !sel {
		return
	}
	d.change(a, b, rs, nil, mergeNone)
	d.merge = mergeNone
}

// InsertMarkdown inserts canonical Markdown at the caret as one undo step:
// reference links become chips bound to the given records (links to ids
// with no record become unresolved chips), the rest is prose. Records the
// draft already holds keep theirs.
func (d *Draft) InsertMarkdown(text string, records []contextref.Record) {
	atoms, add := d.importMarkdown(text, records)
	a, b, sel := d.Selection()
	if len(atoms) == 0 && !sel {
		return
	}
	d.change(a, b, atoms, add, mergeNone)
	d.merge = mergeNone
}

// importMarkdown turns canonical Markdown into atoms and the records to add.
// The text is normalized (line breaks, control characters) before it is
// scanned, so what is scanned is exactly what Markdown writes back.
func (d *Draft) importMarkdown(text string, records []contextref.Record) ([]rune, []contextref.Record) {
	return d.importLinks(string(normalizeText(text)), records, nil)
}

// unknownKindOnly picks the reference links of kinds chipchat does not know.
func unknownKindOnly(o contextref.Occurrence) bool { return !contextref.IsKnownKind(o.Kind) }

// hasUnknownKindLink reports whether text holds a reference link of a kind
// chipchat does not know.
func hasUnknownKindLink(text string) bool {
	if !contextref.HasReferences(text) {
		return false
	}
	for _, o := range contextref.Scan(text) {
		if unknownKindOnly(o) {
			return true
		}
	}
	return false
}

// importLinks turns normalized text into atoms: assistant quote links and
// the reference links pick accepts (nil: all) become chips, the rest is
// prose; it returns the records of records the chips name.
func (d *Draft) importLinks(text string, records []contextref.Record, pick func(contextref.Occurrence) bool) ([]rune, []contextref.Record) {
	byID := map[string]contextref.Record{}
	for _, r := range records {
		byID[r.RecordBase().ContextID] = r
	}
	var atoms []rune
	var add []contextref.Record
	added := map[string]bool{}
	last := 0
	cits := contextref.ValidCitations(text)
	ci := 0
	// Assistant quote links that start before pos become chips (the link
	// that starts first wins an overlap; the other stays prose).
	quotesUpTo := func(pos int) {
		for ; ci < len(cits) && cits[ci].Start < pos; ci++ {
			o := cits[ci]
			if o.Start < last {
				continue
			}
			atoms = append(atoms, []rune(text[last:o.Start])...)
			atoms = append(atoms, d.newCitationChip(o.Citation, text[o.Start:o.End]))
			last = o.End
		}
	}
	for _, o := range contextref.Scan(text) {
		if pick != nil && !pick(o) {
			continue
		}
		start := o.Start
		if o.Image && o.Kind != contextref.KindImage {
			start++ // the '!' before a link of another kind is prose
		}
		quotesUpTo(start)
		if start < last {
			continue // inside a quote link
		}
		atoms = append(atoms, []rune(text[last:start])...)
		atoms = append(atoms, d.parsedChip(o, text))
		if r, ok := byID[o.ContextID]; ok && !added[o.ContextID] {
			added[o.ContextID] = true
			add = append(add, r)
		}
		last = o.End
	}
	quotesUpTo(len(text) + 1)
	atoms = append(atoms, []rune(text[last:])...)
	return atoms, add
}

// InsertCitation puts an assistant quote chip for c at the caret (replacing
// the selection) as one undo step; its text is c's link.
func (d *Draft) InsertCitation(c *contextref.Citation) {
	atom := d.newCitationChip(c, c.Link())
	a, e, _ := d.Selection()
	d.change(a, e, []rune{atom}, nil, mergeNone)
	d.merge = mergeNone
}

// AppendCitation adds an assistant quote chip at the end of the draft, after
// a separating space when the draft does not end in white space, keeping
// the caret and selection (as AppendChip does for context).
func (d *Draft) AppendCitation(c *contextref.Citation) {
	caret, anchor := d.caret, d.anchor
	end := d.End()
	ins := []rune{d.newCitationChip(c, c.Link())}
	if last := d.lines.At(end.Line).atoms; len(last) > 0 && !unicode.IsSpace(last[len(last)-1]) {
		ins = append([]rune{' '}, ins...)
	}
	d.change(end, end, ins, nil, mergeNone)
	d.merge = mergeNone
	d.caret, d.anchor = caret, anchor
	d.undo[len(d.undo)-1].caretAfter, d.undo[len(d.undo)-1].anchorAfter = caret, anchor
}

// EditCitationComment replaces the assistant quote chip with reference id
// refID by one whose comment is comment (trimmed; blank removes it), as one
// undoable step; the quote and selector never change. It reports whether
// the chip was found.
func (d *Draft) EditCitationComment(refID, comment string) bool {
	for li, l := range d.lines.All() {
		for col, at := range l.atoms {
			if at >= 0 || d.chips[-at-1].RefID != refID || d.chips[-at-1].Citation == nil {
				continue
			}
			c := d.chips[-at-1].Citation.WithComment(comment)
			caret, anchor := d.caret, d.anchor
			p := Pos{li, col}
			d.change(p, Pos{li, col + 1}, []rune{d.newCitationChip(c, c.Link())}, nil, mergeNone)
			d.merge = mergeNone
			d.caret, d.anchor = caret, anchor
			return true
		}
	}
	return false
}

// InsertChip puts a chip for rec at the caret (replacing the selection) as
// one undo step. label is the display text (the record's label when empty).
// A record the draft already holds under that id keeps its content.
func (d *Draft) InsertChip(rec contextref.Record, label string) {
	b := rec.RecordBase()
	if label == "" {
		label = b.Label
	}
	atom := d.newChip(b.Kind, b.ContextID, label)
	a, e, _ := d.Selection()
	d.change(a, e, []rune{atom}, []contextref.Record{rec}, mergeNone)
	d.merge = mergeNone
}

// AppendChip adds a chip at the end of the draft, after a separating space
// when the draft does not already end in white space, for context that
// arrives while the composer cannot take input. The caret and selection are
// kept.
func (d *Draft) AppendChip(rec contextref.Record, label string) {
	caret, anchor := d.caret, d.anchor
	end := d.End()
	b := rec.RecordBase()
	if label == "" {
		label = b.Label
	}
	ins := []rune{d.newChip(b.Kind, b.ContextID, label)}
	if last := d.lines.At(end.Line).atoms; len(last) > 0 && !unicode.IsSpace(last[len(last)-1]) {
		ins = append([]rune{' '}, ins...)
	}
	d.change(end, end, ins, []contextref.Record{rec}, mergeNone)
	d.merge = mergeNone
	d.caret, d.anchor = caret, anchor
	d.undo[len(d.undo)-1].caretAfter, d.undo[len(d.undo)-1].anchorAfter = caret, anchor
}

// AddImage puts an image record on the shelf without a chip.
func (d *Draft) AddImage(rec contextref.Record) {
	d.change(d.caret, d.caret, nil, []contextref.Record{rec}, mergeNone)
	d.merge = mergeNone
}

// RemoveShelfImage takes an image off the shelf. When chips still reference
// it, nothing happens and ErrNeedsConfirmation is returned unless confirmed
// is true; then the image and every chip pointing at it go, as one undo step.
func (d *Draft) RemoveShelfImage(id string, confirmed bool) error {
	at := slices.Index(d.shelf, id)
	if at < 0 {
		return errors.New("no image " + id + " on the shelf")
	}
	if d.refs[id] > 0 && !confirmed {
		return ErrNeedsConfirmation
	}
	// One undo step: remove the chips (last first, so positions stay valid),
	// then the shelf entry and record.
	group := len(d.undo)
	caret, anchor := d.caret, d.anchor
	for l := d.lines.Len() - 1; l >= 0; l-- {
		atoms := d.lines.At(l).atoms
		for c := len(atoms) - 1; c >= 0; c-- {
			if atoms[c] < 0 && d.chips[-atoms[c]-1].ContextID == id {
				d.change(Pos{l, c}, Pos{l, c + 1}, nil, nil, mergeNone)
				caret, anchor = shiftAfterRemoval(caret, Pos{l, c}), shiftAfterRemoval(anchor, Pos{l, c})
				atoms = d.lines.At(l).atoms
			}
		}
	}
	e := &edit{start: d.caret, caretBefore: d.caret, anchorBefore: d.anchor, caretAfter: caret, anchorAfter: anchor,
		recBefore: map[string]contextref.Record{id: d.records[id]}, recAfter: map[string]contextref.Record{id: nil},
		shelfChanged: true, shelfBefore: d.shelf, shelfAfter: slices.Delete(slices.Clone(d.shelf), at, at+1)}
	d.shelf, d.sorted = e.shelfAfter, nil
	delete(d.records, id)
	d.version++
	d.caret, d.anchor = caret, anchor
	d.undo = append(d.undo, e)
	d.redo = nil
	d.squash(group)
	d.merge = mergeNone
	return nil
}

// shiftAfterRemoval moves p left when the atom at removed, before it on the
// same line, went away.
func shiftAfterRemoval(p, removed Pos) Pos {
	if p.Line == removed.Line && p.Col > removed.Col {
		p.Col--
	}
	return p
}

// squash turns the undo entries from index from on into one step.
func (d *Draft) squash(from int) {
	if len(d.undo)-from <= 1 {
		return
	}
	steps := slices.Clone(d.undo[from:])
	d.undo = append(d.undo[:from], &edit{kind: mergeNone, group: steps,
		caretBefore: steps[0].caretBefore, anchorBefore: steps[0].anchorBefore,
		caretAfter: steps[len(steps)-1].caretAfter, anchorAfter: steps[len(steps)-1].anchorAfter})
}

// ---- deleting ----

// DeleteSelection removes the selected atoms; it reports whether there was
// a selection.
func (d *Draft) DeleteSelection() bool {
	a, b, ok := d.Selection()
	if ok {
		d.change(a, b, nil, nil, mergeNone)
		d.merge = mergeNone
	}
	return ok
}

// deleteTo removes from the caret to p (either side) unless a selection
// exists, which is removed instead.
func (d *Draft) deleteTo(p Pos, kind mergeKind) {
	if d.DeleteSelection() {
		return
	}
	a, b := d.caret, p
	if b.Before(a) {
		a, b = b, a
	}
	if a == b {
		return
	}
	d.change(a, b, nil, nil, kind)
}

// DeleteBackward removes the atom before the caret (a chip as a whole).
func (d *Draft) DeleteBackward() { d.deleteTo(d.left(d.caret), mergeBackspace) }

// DeleteForward removes the atom after the caret.
func (d *Draft) DeleteForward() { d.deleteTo(d.right(d.caret), mergeDeleteForward) }

// DeleteWordBackward removes back to the start of the previous word.
func (d *Draft) DeleteWordBackward() { d.deleteTo(d.wordLeft(d.caret), mergeNone) }

// DeleteWordForward removes up to the end of the next word.
func (d *Draft) DeleteWordForward() { d.deleteTo(d.wordRight(d.caret), mergeNone) }

// DeleteToLineStart removes from the line start to the caret (or the line
// break before, when the caret is at the start already).
func (d *Draft) DeleteToLineStart() {
	p := Pos{d.caret.Line, 0}
	if p == d.caret {
		p = d.left(d.caret)
	}
	d.deleteTo(p, mergeNone)
}

// DeleteToLineEnd removes from the caret to the line end (or the line break,
// when the caret is at the end already), like Emacs ctrl+k.
func (d *Draft) DeleteToLineEnd() {
	p := Pos{d.caret.Line, len(d.lines.At(d.caret.Line).atoms)}
	if p == d.caret {
		p = d.right(d.caret)
	}
	d.deleteTo(p, mergeNone)
}

// Clear empties the draft (prose, chips and shelf) as one undo step.
func (d *Draft) Clear() {
	d.SelectAll()
	group := len(d.undo)
	d.DeleteSelection()
	for _, id := range slices.Clone(d.shelf) {
		_ = d.RemoveShelfImage(id, true)
	}
	d.squash(group)
}
