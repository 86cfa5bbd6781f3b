package chips

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/contextref"
)

// CitationGlyph is the default glyph of an assistant quote chip.
const CitationGlyph = "❝" // U+275D heavy double turned comma quotation mark

// citationColour is an assistant quote's pill in DefaultTheme.
const citationColour = "#E5E7EB" // light grey: quoted material

// RenderCitation draws an assistant quote chip (DESIGN.md 3.8) on surface
// s in at most width columns (≤ 0: no limit). A citation is not a record,
// so it has no kind entry: Compact is "❝ <label>" with the 64-unit label
// contextref.CitationQuoteLabel (the quote, then its comment), Details
// the full quote and then the comment, Expanded those and where the quote
// comes from. A nil citation draws the unresolved chip. Every text is
// sanitized.
func (r *Registry) RenderCitation(s Surface, c *contextref.Citation, selected bool, width int) string {
	if c == nil {
		return r.Render(s, Chip{Kind: "citation", Label: contextref.CitationLinkLabel, Selected: selected}, width)
	}
	st := r.th.Citation
	if st.Glyph == "" {
		st.Glyph = CitationGlyph
	}
	if s == Compact {
		return fitLines(r.p.pill(st.Chip, st.Glyph, oneLine(contextref.CitationQuoteLabel(c)), width, selected, false), width, true)
	}
	d := &doc{th: &r.th, width: width, full: s == Expanded}
	d.heading(st.Text, selected, st.Glyph, "Assistant quote", oneLine(contextref.CitationQuoteLabel(c)))
	plain := lipgloss.NewStyle()
	d.styled("quote:", r.th.Key, false)
	d.indented(2, func() { d.block(c.Text, true, 0, nil) })
	if c.Comment != nil && strings.TrimSpace(*c.Comment) != "" {
		d.styled("comment:", r.th.Key, false)
		d.indented(2, func() { d.block(strings.TrimSpace(*c.Comment), true, 0, nil) })
	}
	if d.full {
		d.field("thread", c.ThreadID, plain)
		d.field("message", c.MessageID, r.th.Muted)
		d.field("environment", c.EnvironmentID, r.th.Muted)
		d.field("offsets", strconv.FormatInt(c.Start, 10)+"-"+strconv.FormatInt(c.End, 10), r.th.Muted)
	}
	return fitLines(d.String(), width, false)
}
