package ui

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/theme"
	"github.com/chipchat/chipchat/ui/keymap"
)

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
