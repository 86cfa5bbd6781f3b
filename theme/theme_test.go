package theme_test

import (
	"image/color"
	"slices"
	"testing"

	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/theme"
)

// Every name the config accepts is one this package draws or resolves.
func TestConfigNames(t *testing.T) {
	want := []string{theme.Auto, theme.Dark, theme.Light, theme.NoColor}
	if !slices.Equal(config.Themes, want) {
		t.Fatalf("config.Themes = %q, theme knows %q", config.Themes, want)
	}
	for _, n := range []string{theme.Dark, theme.Light, theme.NoColor} {
		if got := theme.For(n, false).Name; got != n {
			t.Errorf("For(%q) is %q", n, got)
		}
		if got := theme.For(n, true).Name; got != theme.NoColor {
			t.Errorf("For(%q) under NO_COLOR is %q", n, got)
		}
	}
	if l, d := theme.For(theme.Light, false), theme.For(theme.Dark, false); l.Review.Syntax == d.Review.Syntax || len(l.Transcript) == 0 {
		t.Errorf("light and dark draw the same: review %q/%q, transcript options %d", l.Review.Syntax, d.Review.Syntax, len(l.Transcript))
	}
}

func TestResolveAuto(t *testing.T) {
	bg := func(c color.Color) func() color.Color { return func() color.Color { return c } }
	for _, c := range []struct {
		name string
		bg   color.Color
		want string
	}{
		{theme.Auto, color.RGBA{0xff, 0xff, 0xff, 0xff}, theme.Light},
		{theme.Auto, color.RGBA{0xfd, 0xf6, 0xe3, 0xff}, theme.Light}, // solarized light
		{theme.Auto, color.RGBA{0, 0, 0, 0xff}, theme.Dark},
		{theme.Auto, color.RGBA{0x00, 0x2b, 0x36, 0xff}, theme.Dark}, // solarized dark
		{theme.Auto, nil, theme.Dark},
		{theme.Light, color.RGBA{0, 0, 0, 0xff}, theme.Light},
		{theme.Dark, color.RGBA{0xff, 0xff, 0xff, 0xff}, theme.Dark},
	} {
		if got := theme.Resolve(c.name, bg(c.bg)); got != c.want {
			t.Errorf("Resolve(%q, %v) = %q, want %q", c.name, c.bg, got, c.want)
		}
	}
}
