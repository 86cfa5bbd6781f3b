package main

import (
	"image/color"
	"os"

	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/theme"
)

// terminalBackground asks the terminal for its background colour (OSC 11)
// before the program starts; nil when it does not answer.
func terminalBackground() color.Color {
	bg, err := lipgloss.BackgroundColor(os.Stdin, os.Stdout)
	if err != nil {
		return nil
	}
	return bg
}

// resolveTheme is [ui] theme with "auto" replaced by the theme the
// terminal's background asks for (asked only then, and not under
// NO_COLOR, which draws no colour anyway).
func resolveTheme(name string, noColor bool, background func() color.Color) string {
	if noColor || name != theme.Auto {
		return name
	}
	if background == nil {
		return theme.Dark
	}
	return theme.Resolve(name, background)
}
