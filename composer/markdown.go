package composer

import (
	"strings"

	"github.com/chipchat/chipchat/contextref"
)

// Markdown returns the draft's canonical Markdown: prose as typed and each
// chip as its reference link. Linear in the draft: each line keeps its
// own, made with the line.
func (d *Draft) Markdown() string { return markdownOf(&d.lines) }

// writeLink writes a chip's reference link; image links carry the '!'. An
// assistant quote writes its link as it was read (or made).
func writeLink(b *strings.Builder, c Chip) {
	if c.Citation != nil {
		if c.source != "" {
			b.WriteString(c.source)
		} else {
			b.WriteString(c.Citation.Link())
		}
		return
	}
	if c.Kind == contextref.KindImage {
		b.WriteByte('!')
	}
	b.WriteByte('[')
	b.WriteString(c.linkLabel())
	b.WriteString("](")
	b.WriteString(contextref.LinkScheme)
	b.WriteString(c.Kind)
	b.WriteByte('/')
	b.WriteString(c.ContextID)
	b.WriteByte(')')
}

// Text returns the prose with each chip as its label (for plain displays),
// and each assistant quote in its plain-text form (the quote, then
// "\nComment: " and the comment when it has one).
func (d *Draft) Text() string {
	var b strings.Builder
	for i, l := range d.lines.All() {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, a := range l.atoms {
			if a < 0 {
				if c := d.chips[-a-1]; c.Citation != nil {
					b.WriteString(contextref.CitationPlainText(c.Citation))
				} else {
					b.WriteString(c.Label)
				}
				continue
			}
			b.WriteRune(a)
		}
	}
	return b.String()
}

// FromMarkdown rebuilds a draft from canonical Markdown and records: each
// reference link becomes a chip with a fresh reference id (a link whose id
// has no record is an unresolved chip), each valid assistant quote link an
// assistant quote chip; image records go on the shelf
// whether or not a chip points at them; other records no link points at are
// dropped.
//
// A draft saved by an older client may still hold U+FFFC placeholders: they
// bind, in order, to the terminal records no link points at; placeholders
// beyond those vanish, and terminal records left over are prepended as links
// (DESIGN.md section 4).
func FromMarkdown(text string, records []contextref.Record) *Draft {
	d := NewDraft()
	if strings.ContainsRune(text, '\uFFFC') {
		text = bindPlaceholders(text, records)
	}
	atoms, linked := d.importMarkdown(text, records)
	// Images first, in the order given: that is the shelf's order.
	var add []contextref.Record
	for _, r := range records {
		if r.RecordBase().Kind == contextref.KindImage {
			add = append(add, r)
		}
	}
	d.change(Pos{}, Pos{}, atoms, append(add, linked...), mergeNone)
	d.undo, d.redo = nil, nil
	d.merge = mergeNone
	d.caret, d.anchor = Pos{}, Pos{}
	return d
}

func bindPlaceholders(text string, records []contextref.Record) string {
	linked := map[string]bool{}
	for _, o := range contextref.Scan(text) {
		linked[o.ContextID] = true
	}
	var free []contextref.Record
	for _, r := range records {
		if r.RecordBase().Kind == contextref.KindTerminal && !linked[r.RecordBase().ContextID] {
			free = append(free, r)
		}
	}
	var b strings.Builder
	n := 0
	for _, part := range strings.SplitAfter(text, "\uFFFC") {
		if !strings.HasSuffix(part, "\uFFFC") {
			b.WriteString(part)
			continue
		}
		b.WriteString(strings.TrimSuffix(part, "\uFFFC"))
		if n < len(free) {
			b.WriteString(contextref.LinkFor(free[n]))
			n++
		}
	}
	if n == len(free) {
		return b.String()
	}
	var pre []string
	for _, r := range free[n:] {
		pre = append(pre, contextref.LinkFor(r))
	}
	rest := b.String()
	if rest == "" {
		return strings.Join(pre, " ")
	}
	return strings.Join(pre, " ") + " " + rest
}
