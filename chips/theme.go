package chips

import (
	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/contextref"
)

// Tone is a pair of styles for one colour: the compact pill and the text
// accent (headings, state words) of the details and expanded views.
type Tone struct {
	Chip lipgloss.Style // the compact chip: glyph and label, caps included
	Text lipgloss.Style // headings and accents in details and expanded
}

// KindStyle is how one kind looks.
type KindStyle struct {
	// Glyph is drawn before the label; one column wide by ansi.StringWidth.
	Glyph string
	Tone
}

// PRTones are the tones of a review comment's pull-request state.
// A draft pull request that is open takes Draft.
type PRTones struct {
	Open, Draft, Merged, Closed Tone
}

// Theme is every style the registry draws with. A Theme is a value: the
// registry copies it (and its Kinds map) when it is made.
type Theme struct {
	// Kinds holds the style of each kind by kind name.
	Kinds map[string]KindStyle
	// Other is the style of a kind with a registered renderer but no entry
	// in Kinds (a kind added by a later contract version).
	Other KindStyle
	// Unresolved is the style of the unresolved chip: unknown kind, missing
	// record, or a record that does not fit the chip.
	Unresolved KindStyle
	// Citation is the style of an assistant quote chip (RenderCitation).
	Citation KindStyle
	// Selected is laid over a chip's style (its set values win) when the
	// chip is selected: the caret beside it or the chip focused.
	Selected lipgloss.Style
	// CapLeft and CapRight are drawn inside the chip style around
	// "<glyph> <label>": padding for a coloured pill, brackets without
	// colour, so a chip reads as one unit inside prose.
	CapLeft, CapRight string
	// PR is the tone of a review comment's pull request, by state.
	PR PRTones

	Key        lipgloss.Style // field names ("file:", "lines:")
	Muted      lipgloss.Style // secondary text: ids, counts, notes
	Why        lipgloss.Style // the reason a chip is unresolved
	LineNumber lipgloss.Style // line-number gutters
	DiffAdd    lipgloss.Style // diff lines starting with '+'
	DiffDel    lipgloss.Style // diff lines starting with '-'
	DiffHunk   lipgloss.Style // diff hunk headers ("@@ … @@")
}

// Glyph is the default glyph of a kind ("" for a kind it does not know),
// from the kind table (KindView).
func Glyph(kind string) string {
	if v, ok := viewByKind[kind]; ok {
		return v.Glyph
	}
	return ""
}

// OtherGlyph and UnresolvedGlyph are the default glyphs of a kind without
// a glyph of its own and of the unresolved chip.
const (
	OtherGlyph      = "◌" // U+25CC dotted circle
	UnresolvedGlyph = "?"
)

const (
	inkDark      = "#111827" // text on a pill
	colourOther  = "#D1D5DB" // a kind without a colour of its own
	colourOpen   = "#4ADE80" // green
	colourDraft  = "#9CA3AF" // grey
	colourMerged = "#A78BFA" // purple
	colourClosed = "#F87171" // red
)

func pillTone(bg string) Tone {
	c := lipgloss.Color(bg)
	return Tone{
		Chip: lipgloss.NewStyle().Foreground(lipgloss.Color(inkDark)).Background(c),
		Text: lipgloss.NewStyle().Foreground(c).Bold(true),
	}
}

// DefaultTheme is the coloured theme, made for a dark background: each
// kind is a pastel pill with dark text, a review comment with a pull
// request takes its state's colour (open green, draft grey, merged purple,
// closed red), an unresolved chip is red italic text on dark grey, and a
// selected chip is drawn reversed and bold.
func DefaultTheme() Theme {
	th := Theme{
		Kinds:    make(map[string]KindStyle, len(kindViews)),
		Other:    KindStyle{Glyph: OtherGlyph, Tone: pillTone(colourOther)},
		Selected: lipgloss.NewStyle().Reverse(true).Bold(true),
		CapLeft:  " ",
		CapRight: " ",
		Unresolved: KindStyle{Glyph: UnresolvedGlyph, Tone: Tone{
			Chip: lipgloss.NewStyle().Foreground(lipgloss.Color("#FCA5A5")).Background(lipgloss.Color("#3F3F46")).Italic(true),
			Text: lipgloss.NewStyle().Foreground(lipgloss.Color("#FCA5A5")).Bold(true),
		}},
		Citation: KindStyle{Glyph: CitationGlyph, Tone: pillTone(citationColour)},
		PR: PRTones{
			Open:   pillTone(colourOpen),
			Draft:  pillTone(colourDraft),
			Merged: pillTone(colourMerged),
			Closed: pillTone(colourClosed),
		},
		Key:        lipgloss.NewStyle().Foreground(lipgloss.Color("#9CA3AF")),
		Muted:      lipgloss.NewStyle().Foreground(lipgloss.Color("#6B7280")),
		Why:        lipgloss.NewStyle().Foreground(lipgloss.Color("#FCA5A5")),
		LineNumber: lipgloss.NewStyle().Foreground(lipgloss.Color("#6B7280")),
		DiffAdd:    lipgloss.NewStyle().Foreground(lipgloss.Color(colourOpen)),
		DiffDel:    lipgloss.NewStyle().Foreground(lipgloss.Color(colourClosed)),
		DiffHunk:   lipgloss.NewStyle().Foreground(lipgloss.Color("#67E8F9")),
	}
	for _, v := range kindViews {
		th.Kinds[v.Kind] = KindStyle{Glyph: v.Glyph, Tone: pillTone(v.Colour)}
	}
	return th
}

// NoColorTheme draws without any colour (for NO_COLOR and monochrome
// terminals). A chip is "[<glyph> <label>]"; a selected chip is reversed;
// an unresolved chip has the "?" glyph and is faint italic; pull-request
// states differ by attribute (open bold, draft faint, merged italic, closed
// faint italic) besides the state word the details show.
//
// Chip styles avoid underline and strikethrough: lipgloss draws the spaces
// of such a style apart, without reverse, which would leave holes in a
// selected chip.
func NoColorTheme() Theme {
	plain := lipgloss.NewStyle()
	bold := plain.Bold(true)
	tone := func(s lipgloss.Style) Tone { return Tone{Chip: s, Text: s} }
	th := Theme{
		Kinds:    make(map[string]KindStyle, len(kindViews)),
		Other:    KindStyle{Glyph: OtherGlyph, Tone: Tone{Chip: plain, Text: bold}},
		Selected: plain.Reverse(true),
		CapLeft:  "[",
		CapRight: "]",
		Unresolved: KindStyle{Glyph: UnresolvedGlyph, Tone: Tone{
			Chip: plain.Italic(true).Faint(true),
			Text: bold,
		}},
		Citation: KindStyle{Glyph: CitationGlyph, Tone: Tone{Chip: plain.Italic(true), Text: bold}},
		PR: PRTones{
			Open:   tone(bold),
			Draft:  tone(plain.Faint(true)),
			Merged: tone(plain.Italic(true)),
			Closed: tone(plain.Italic(true).Faint(true)),
		},
		Key:        plain,
		Muted:      plain.Faint(true),
		Why:        plain.Italic(true),
		LineNumber: plain.Faint(true),
		DiffAdd:    bold,
		DiffDel:    plain.Faint(true),
		DiffHunk:   plain.Italic(true),
	}
	for _, v := range kindViews {
		th.Kinds[v.Kind] = KindStyle{Glyph: v.Glyph, Tone: Tone{Chip: plain, Text: bold}}
	}
	return th
}

// clone copies the theme so that the caller's map can change freely.
func (th Theme) clone() Theme {
	kinds := make(map[string]KindStyle, len(th.Kinds))
	for k, v := range th.Kinds {
		kinds[k] = v
	}
	th.Kinds = kinds
	return th
}

// kind is the style of a kind: its entry, else Other.
func (th *Theme) kind(kind string) KindStyle {
	if ks, ok := th.Kinds[kind]; ok {
		return ks
	}
	return th.Other
}

// prTone is the tone of a pull request: isDraft overrides open.
func (th *Theme) prTone(pr *contextref.PullRequest) Tone {
	switch prState(pr) {
	case "open":
		return th.PR.Open
	case "merged":
		return th.PR.Merged
	case "closed":
		return th.PR.Closed
	}
	return th.PR.Draft
}

// prState is the state word of a pull request: "draft" for an open draft.
func prState(pr *contextref.PullRequest) string {
	switch pr.State {
	case "open":
		if pr.IsDraft {
			return "draft"
		}
		return "open"
	case "merged", "closed":
		return pr.State
	}
	if pr.IsDraft {
		return "draft"
	}
	return oneLine(pr.State)
}
