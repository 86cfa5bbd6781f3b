package theme

import (
	"image/color"

	"github.com/chipchat/chipchat/chips"
)

// Contrast is WCAG 2's contrast ratio of two colours (chips.Contrast).
func Contrast(a, b color.Color) float64 { return chips.Contrast(a, b) }
