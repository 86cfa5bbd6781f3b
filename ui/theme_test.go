package ui

import (
	"image/color"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/theme"
	"github.com/chipchat/chipchat/ui/keymap"
)

// ui's own colours (a toast's, shell mode's "!") follow the theme: on
// white 4.5:1 under light, on black 4.5:1 under dark, none under
// no-color, and light draws none of dark's.
func TestStatusLooksContrast(t *testing.T) {
	bgs := map[string]color.Color{theme.Light: color.RGBA{0xff, 0xff, 0xff, 0xff}, theme.Dark: color.RGBA{0, 0, 0, 0xff}}
	dark := statusLooksFor(theme.Dark)
	for name, bg := range bgs {
		st := statusLooksFor(name)
		for what, fg := range map[string]color.Color{"ok": st.ok.GetForeground(), "error": st.err.GetForeground(), "shell": st.shell.GetForeground()} {
			if r := theme.Contrast(fg, bg); r < 4.5 {
				t.Errorf("%s %s: contrast %.2f:1 < 4.5:1", name, what, r)
			}
		}
	}
	light := statusLooksFor(theme.Light)
	if light.ok.GetForeground() == dark.ok.GetForeground() || light.err.GetForeground() == dark.err.GetForeground() || light.shell.GetForeground() == dark.shell.GetForeground() {
		t.Error("the light theme draws a status colour of the dark one")
	}
	if nc := statusLooksFor(theme.NoColor); nc.err.Render("x") == light.err.Render("x") || !nc.err.GetBold() {
		t.Error("no-color draws a colour, or an error not bold")
	}
}

// The agent's form draws a field's error in the theme's error colour:
// dark red under light, the terminal's red (SGR 31) under dark.
func TestElicitErrorInTheThemesColour(t *testing.T) {
	for _, c := range []struct{ theme, want, not string }{
		{theme.Light, "\x1b[38;2;185;28;28m", "\x1b[31m"}, // composer.LightPickerError #B91C1C
		{theme.Dark, "\x1b[31m", "\x1b[38;2;185;28;28m"},
	} {
		e := newTestEnv(t)
		opt := e.options("")
		opt.Config.UI.Theme, opt.NoColor = c.theme, false
		opt.Backend = &elicitBackend{}
		h := e.openWith(opt)
		h.typeText("go")
		h.press("enter")
		h.pumpUntil("the form", func() bool { return h.app.OverlayScope() == keymap.ScopeElicit })
		h.press("enter") // required fields empty: their errors show
		v := h.app.View().Content
		if !strings.Contains(h.plain(), "Your name: required") {
			t.Fatalf("%s: no error row:\n%s", c.theme, h.plain())
		}
		if !strings.Contains(v, c.want+"    Your name: required") || strings.Contains(v, c.not) {
			t.Errorf("%s: the error row is not in %q:\n%q", c.theme, c.want, v)
		}
	}
}
