package transcript

import "charm.land/lipgloss/v2"

// WithLight draws for a light background: glamour's "light" style (and
// its "github" code colours), the headers, gutters and items in colours
// that read on white, search matches on pale yellow, diffs with chroma's "github" style on light green
// and red. Pair it with a registry made with chips.LightTheme. WithNoColor
// wins over it.
func WithLight() Option {
	return func(m *Model) {
		if m.light = true; !m.noColor {
			m.style = "light"
		}
	}
}

func lightLooks() looks {
	b := lipgloss.NewStyle().Bold(true)
	c := func(n string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(n)) }
	return looks{
		user:      b.Foreground(lipgloss.Color("25")),
		agent:     b.Foreground(lipgloss.Color("91")),
		status:    c("242"),
		bad:       c("160"),
		border:    c("250"),
		title:     b.Foreground(lipgloss.Color("235")),
		gutter:    c("33").Render(gutterMark) + " ",
		selGutter: c("136").Render(selMark) + " ",
		hitOn:     lightHitOn, hitOff: lightHitOff,
	}
}

func lightItemLooks() *ItemLooks {
	c := func(n string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(n)) }
	return &ItemLooks{
		Glyph: c("33").Bold(true), Title: c("235").Bold(true), Faint: c("242"),
		OK: c("28"), Bad: c("160"), Warn: c("130"), Running: c("94"),
		Add: c("28"), Del: c("160"), Hunk: c("25"), LineNo: c("242"), Path: c("235").Bold(true),
		AddBG: []byte("\x1b[48;5;194m"), DelBG: []byte("\x1b[48;5;224m"),
		Syntax: "github",
	}
}
