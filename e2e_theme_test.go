package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Themes (issue 27, [ui] theme): the real binary in tmux, its colours
// read from the screen with capture-pane -e (SGR sequences kept). The
// user's header is 256-colour 117 in the dark theme and 25 in the light
// one; the agent's 183 and 91.

// themeSession starts chipchat in tmux with a config of [ui] theme and
// the pane's background set before it starts (tmux answers the OSC 11
// query with it), sends a prompt and waits for the echo reply.
func themeSession(t *testing.T, themeName, paneBg string) string {
	t.Helper()
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj, home := filepath.Join(root, "proj"), filepath.Join(root, "home")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	writeFile(t, filepath.Join(home, ".config", "chipchat", "config.toml"), fmt.Sprintf("[ui]\ntheme = %q\n", themeName))
	gate := filepath.Join(root, "go")
	command := fmt.Sprintf("until [ -e %q ]; do sleep 0.05; done; cd %q && env HOME=%q XDG_CONFIG_HOME=%q TERM=xterm-256color %q --data-dir %q; sleep 600",
		gate, proj, home, filepath.Join(home, ".config"), bin, filepath.Join(root, "data"))
	s := startTmux(t, command)
	s.run("set", "-g", "window-style", "bg="+paneBg)
	writeFile(t, gate, "")
	s.waitFor("chipchat · New thread · agent echo", "enter send")
	s.text("Hello in colour")
	s.keys("Enter")
	s.waitFor("Echo agent", "Hello in colour")
	return s.run("capture-pane", "-e", "-p", "-t", s.name)
}

// hasFg reports whether the captured screen draws in 256-colour n.
func hasFg(scr string, n int) bool {
	c := fmt.Sprintf("38;5;%d", n)
	return strings.Contains(scr, "["+c+"m") || strings.Contains(scr, ";"+c+"m") || strings.Contains(scr, "["+c+";") || strings.Contains(scr, ";"+c+";")
}

func TestEndToEndTheme(t *testing.T) {
	for _, c := range []struct {
		name, theme, bg string
		light           bool
	}{
		{"light", "light", "default", true},
		{"dark", "dark", "default", false},
		{"auto on a white pane", "auto", "#ffffff", true},
		{"auto on a black pane", "auto", "#000000", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			scr := themeSession(t, c.theme, c.bg)
			want, not := []int{25, 91}, []int{117, 183}
			if !c.light {
				want, not = not, want
			}
			for _, n := range want {
				if !hasFg(scr, n) {
					t.Errorf("theme %s on %s: no text in colour %d:\n%q", c.theme, c.bg, n, scr)
				}
			}
			for _, n := range not {
				if hasFg(scr, n) {
					t.Errorf("theme %s on %s: text in the other theme's colour %d", c.theme, c.bg, n)
				}
			}
		})
	}
}
