package theme

import (
	"image/color"

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
		return Set{Name: NoColor, Chips: chips.NoColorTheme(), Composer: composer.NoColorStyles(), Review: review.NoColorTheme(),
			Transcript: []transcript.Option{transcript.WithNoColor()}}
	case Light:
		return Set{Name: Light, Chips: chips.LightTheme(), Composer: composer.LightStyles(), Review: review.LightTheme(),
			Transcript: []transcript.Option{transcript.WithLight()}}
	}
	return Set{Name: Dark, Chips: chips.DefaultTheme(), Composer: composer.DefaultStyles(), Review: review.DefaultTheme()}
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
