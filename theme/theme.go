package theme

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/review"
	"github.com/chipchat/chipchat/transcript"
)

// The theme names (config.Themes).
const (
	Auto    = "auto"
	Dark    = "dark"
	Light   = "light"
	NoColor = "no-color"
)

// Set is one theme for every surface.
type Set struct {
	Name       string // Dark, Light or NoColor
	Chips      chips.Theme
	Composer   composer.Styles // the editor's and every picker's
	Status     Status          // ui's own
	Review     review.Theme
	Transcript []transcript.Option
}

// For is the theme named name; noColor (NO_COLOR) wins over any name. An
// unknown name or Auto (resolved by Resolve before) draws Dark.
func For(name string, noColor bool) Set {
	if noColor {
		name = NoColor
	}
	switch name {
	case NoColor:
		b := lipgloss.NewStyle().Bold(true)
		return Set{Name: NoColor, Chips: chips.NoColorTheme(), Composer: composer.NoColorStyles(), Status: Status{Err: b, Shell: b}, Review: review.NoColorTheme(),
			Transcript: []transcript.Option{transcript.WithNoColor()}}
	case Light:
		return Set{Name: Light, Chips: chips.LightTheme(), Composer: composer.LightStyles(), Status: status("#15803D", "#B91C1C", "#B45309"), Review: review.LightTheme(),
			Transcript: []transcript.Option{transcript.WithLight()}}
	}
	return Set{Name: Dark, Chips: chips.DefaultTheme(), Composer: composer.DefaultStyles(), Status: status("#86efac", "#f87171", "#f59e0b"),
		Review: review.DefaultTheme()}
}

// Status are ui's own colours: a toast's (done, failed) and shell mode's
// "!" prompt. They live here, not in ui, because ui imports theme; the
// light ones reach 4.5:1 on white, the dark ones on black.
type Status struct{ OK, Err, Shell lipgloss.Style }

func status(ok, err, shell string) Status {
	fg := func(c string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(c)) }
	return Status{OK: fg(ok), Err: fg(err).Bold(true), Shell: fg(shell).Bold(true)}
}

// Resolve is name with Auto replaced by Light or Dark from the terminal's
// background colour bg (nil when the terminal did not say: Dark).
func Resolve(name string, bg func() color.Color) string {
	if name != Auto {
		return name
	}
	if c := bg(); c != nil && !IsDark(c) {
		return Light
	}
	return Dark
}

// IsDark reports whether c is a dark background: its perceived lightness
// (HSL) under one half.
func IsDark(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	hi, lo := max(r, g, b), min(r, g, b)
	return float64(hi+lo)/2/0xffff < 0.5
}
