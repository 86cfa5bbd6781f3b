package theme_test

import (
	"image/color"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/review"
	"github.com/chipchat/chipchat/theme"
	"github.com/chipchat/chipchat/transcript"
)

var (
	white = color.RGBA{0xff, 0xff, 0xff, 0xff}
	// lightInk stands for a light terminal's own text colour.
	lightInk = color.RGBA{0x1f, 0x23, 0x28, 0xff}
)

func TestContrastIsWCAGs(t *testing.T) {
	black := color.RGBA{0, 0, 0, 0xff}
	if c := theme.Contrast(black, white); c < 20.99 || c > 21.01 {
		t.Errorf("black on white %.3f, want 21", c)
	}
	if c := theme.Contrast(white, white); c != 1 {
		t.Errorf("white on white %.3f, want 1", c)
	}
	// #767676 is the palest grey with 4.5:1 on white.
	if c := theme.Contrast(lipgloss.Color("#767676"), white); c < 4.5 || c > 4.6 {
		t.Errorf("#767676 on white %.3f, want 4.54", c)
	}
}

// The text-on-background pairs of the light theme's pickers, composer
// selection, search matches and review pane reach WCAG AA (4.5:1).
func TestLightThemePairsContrast(t *testing.T) {
	set := theme.For(theme.Light, false)
	c := set.Composer
	pairs := []struct {
		what   string
		fg, bg color.Color
		min    float64
	}{
		{"composer selection", c.Selection.GetForeground(), c.Selection.GetBackground(), 4.5},
		{"picker match on white", c.Picker.Match.GetForeground(), white, 4.5},
		{"picker match reversed (the selected row)", white, c.Picker.Match.GetForeground(), 4.5},
		{"picker error", c.Picker.Error.GetForeground(), white, 4.5},
		{"search match", lightInk, lipgloss.Color(transcript.LightSearchHit), 4.5},
		{"review file header", set.Review.FileFg, set.Review.FileBg, 4.5},
		{"review faint", set.Review.FaintFg, white, 4.5},
		{"review line numbers", set.Review.NumFg, white, 4.5},
		{"review line numbers selected", set.Review.NumFg, set.Review.SelBg, 4.5},
		{"review added prefix", set.Review.AddFg, set.Review.AddBg, 4.5},
		{"review deleted prefix", set.Review.DelFg, set.Review.DelBg, 4.5},
		{"review text on deleted words", lightInk, set.Review.DelWordBg, 4.5},
		{"review text on added words", lightInk, set.Review.AddWordBg, 4.5},
	}
	for _, p := range pairs {
		if p.fg == nil || p.bg == nil {
			t.Errorf("%s: no colour (fg %v, bg %v)", p.what, p.fg, p.bg)
			continue
		}
		if r := theme.Contrast(p.fg, p.bg); r < p.min {
			t.Errorf("%s: contrast %.2f:1 < %.1f:1", p.what, r, p.min)
		}
	}
	d := theme.For(theme.Dark, false).Composer
	if r := theme.Contrast(d.Selection.GetForeground(), d.Selection.GetBackground()); r < 4.5 {
		t.Errorf("dark composer selection: contrast %.2f:1", r)
	}
}

// Each theme's composer draws its own styles: the editor's selection and
// every picker's matches differ between dark and light, and no-color has
// none.
func TestComposerStylesFollowTheTheme(t *testing.T) {
	d, l, n := theme.For(theme.Dark, false).Composer, theme.For(theme.Light, false).Composer, theme.For(theme.NoColor, false).Composer
	if l.Picker.Match.GetForeground() != lipgloss.Color(composer.LightPickerMatch) ||
		l.Selection.GetBackground() != lipgloss.Color(composer.LightSelectionBg) {
		t.Errorf("light composer styles are not composer.LightStyles: match %v, selection %v", l.Picker.Match.GetForeground(), l.Selection.GetBackground())
	}
	if d.Picker.Match.GetForeground() == l.Picker.Match.GetForeground() || d.Selection.GetBackground() == l.Selection.GetBackground() {
		t.Error("dark and light composers draw the same colours")
	}
	for what, st := range map[string]lipgloss.Style{"selection": n.Selection, "match": n.Picker.Match, "error": n.Picker.Error} {
		if _, none := st.GetForeground().(lipgloss.NoColor); !none {
			t.Errorf("no-color %s has a foreground %v", what, st.GetForeground())
		}
		if _, none := st.GetBackground().(lipgloss.NoColor); !none {
			t.Errorf("no-color %s has a background %v", what, st.GetBackground())
		}
	}
	if !review.LightTheme().Light || review.DefaultTheme().Light {
		t.Error("only the light review theme draws the comment editor light")
	}
}

// ui's own colours (Status: a toast's, shell mode's "!") reach 4.5:1 on
// white under light and on black under dark; light draws none of dark's;
// no-color draws none and its error is bold.
func TestStatusContrast(t *testing.T) {
	bgs := map[string]color.Color{theme.Light: white, theme.Dark: color.RGBA{0, 0, 0, 0xff}}
	for name, bg := range bgs {
		st := theme.For(name, false).Status
		for what, fg := range map[string]color.Color{"ok": st.OK.GetForeground(), "error": st.Err.GetForeground(), "shell": st.Shell.GetForeground()} {
			if r := theme.Contrast(fg, bg); r < 4.5 {
				t.Errorf("%s %s: contrast %.2f:1 < 4.5:1", name, what, r)
			}
		}
	}
	l, d := theme.For(theme.Light, false).Status, theme.For(theme.Dark, false).Status
	if l.OK.GetForeground() == d.OK.GetForeground() || l.Err.GetForeground() == d.Err.GetForeground() || l.Shell.GetForeground() == d.Shell.GetForeground() {
		t.Error("the light theme draws a status colour of the dark one")
	}
	nc := theme.For(theme.NoColor, false).Status
	if _, none := nc.Err.GetForeground().(lipgloss.NoColor); !none || !nc.Err.GetBold() {
		t.Error("no-color draws an error in colour, or not bold")
	}
}
