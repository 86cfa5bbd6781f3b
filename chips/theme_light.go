package chips

import (
	"fmt"
	"strconv"

	"charm.land/lipgloss/v2"
)

// inkLight is the text on a pill of LightTheme.
const inkLight = "#FFFFFF"

// shade is the colour hex (#RRGGBB) with each channel scaled by f (0..1):
// LightTheme's pills and accents are the dark theme's pastels darkened.
func shade(hex string, f float64) string {
	v, err := strconv.ParseUint(hex[1:], 16, 32)
	if err != nil || len(hex) != 7 {
		return hex
	}
	ch := func(s uint) uint64 { return uint64(float64((v>>s)&0xff) * f) }
	return fmt.Sprintf("#%02X%02X%02X", ch(16), ch(8), ch(0))
}

// lightShade is how much of a pastel a LightTheme pill keeps.
const lightShade = 0.42

func lightPillTone(pastel string) Tone {
	c := lipgloss.Color(shade(pastel, lightShade))
	return Tone{
		Chip: lipgloss.NewStyle().Foreground(lipgloss.Color(inkLight)).Background(c),
		Text: lipgloss.NewStyle().Foreground(c).Bold(true),
	}
}

// LightTheme is the coloured theme for a light background: the same kinds,
// glyphs and pull-request states as DefaultTheme, each pill its kind's
// colour darkened with white text, accents and diff colours dark enough
// to read on white, an unresolved chip dark red italic on light grey.
func LightTheme() Theme {
	th := DefaultTheme()
	th.Kinds = make(map[string]KindStyle, len(kindViews))
	for _, v := range kindViews {
		th.Kinds[v.Kind] = KindStyle{Glyph: v.Glyph, Tone: lightPillTone(v.Colour)}
	}
	th.Other = KindStyle{Glyph: OtherGlyph, Tone: lightPillTone(colourOther)}
	th.Citation = KindStyle{Glyph: CitationGlyph, Tone: lightPillTone(citationColour)}
	th.Unresolved = KindStyle{Glyph: UnresolvedGlyph, Tone: Tone{
		Chip: lipgloss.NewStyle().Foreground(lipgloss.Color("#991B1B")).Background(lipgloss.Color("#E5E7EB")).Italic(true),
		Text: lipgloss.NewStyle().Foreground(lipgloss.Color("#991B1B")).Bold(true),
	}}
	th.PR = PRTones{
		Open:   lightPillTone(colourOpen),
		Draft:  lightPillTone(colourDraft),
		Merged: lightPillTone(colourMerged),
		Closed: lightPillTone(colourClosed),
	}
	th.Key = lipgloss.NewStyle().Foreground(lipgloss.Color("#4B5563"))
	th.Muted = lipgloss.NewStyle().Foreground(lipgloss.Color("#6B7280"))
	th.Why = lipgloss.NewStyle().Foreground(lipgloss.Color("#991B1B"))
	th.LineNumber = lipgloss.NewStyle().Foreground(lipgloss.Color("#6B7280"))
	th.DiffAdd = lipgloss.NewStyle().Foreground(lipgloss.Color("#15803D"))
	th.DiffDel = lipgloss.NewStyle().Foreground(lipgloss.Color("#B91C1C"))
	th.DiffHunk = lipgloss.NewStyle().Foreground(lipgloss.Color("#0E7490"))
	return th
}
