package chips

import (
	"image/color"
	"math"
	"testing"
)

// luminance is WCAG 2's relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Text on every chip background reaches WCAG AA (4.5:1) in both coloured
// themes: each kind, the other and unresolved chips, citations and every
// pull-request state.
func TestThemeChipContrast(t *testing.T) {
	for name, th := range map[string]Theme{"dark": DefaultTheme(), "light": LightTheme()} {
		tones := map[string]Tone{"other": th.Other.Tone, "unresolved": th.Unresolved.Tone, "citation": th.Citation.Tone,
			"pr open": th.PR.Open, "pr draft": th.PR.Draft, "pr merged": th.PR.Merged, "pr closed": th.PR.Closed}
		for k, ks := range th.Kinds {
			tones[k] = ks.Tone
		}
		if len(th.Kinds) != len(kindViews) {
			t.Errorf("%s: %d kinds, the kind table has %d", name, len(th.Kinds), len(kindViews))
		}
		for k, tone := range tones {
			fg, bg := tone.Chip.GetForeground(), tone.Chip.GetBackground()
			if fg == nil || bg == nil {
				t.Errorf("%s %s: chip without colour (fg %v, bg %v)", name, k, fg, bg)
				continue
			}
			if c := contrast(fg, bg); c < 4.5 {
				t.Errorf("%s %s: contrast %.2f:1 < 4.5:1", name, k, c)
			}
		}
	}
}

// The light theme's text accents read on a white background (4.5:1) and
// differ from the dark theme's.
func TestLightThemeAccentsOnWhite(t *testing.T) {
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	dark, light := DefaultTheme(), LightTheme()
	for k, ks := range light.Kinds {
		fg := ks.Text.GetForeground()
		if c := contrast(fg, white); c < 4.5 {
			t.Errorf("%s: accent contrast on white %.2f:1 < 4.5:1", k, c)
		}
		if fg == dark.Kinds[k].Text.GetForeground() {
			t.Errorf("%s: light accent is the dark theme's", k)
		}
	}
}
