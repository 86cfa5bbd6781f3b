package chips

import (
	"image/color"
	"testing"
)

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
			if c := Contrast(fg, bg); c < 4.5 {
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
		if c := Contrast(fg, white); c < 4.5 {
			t.Errorf("%s: accent contrast on white %.2f:1 < 4.5:1", k, c)
		}
		if fg == dark.Kinds[k].Text.GetForeground() {
			t.Errorf("%s: light accent is the dark theme's", k)
		}
	}
}
