package main

import (
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/internal/vtscreen"
)

// startThemed is g.start with a config file setting [ui] theme.
func (g *goldenEnv) startThemed(t *testing.T, themeName string, w, h int) *vtscreen.Screen {
	t.Helper()
	cfg := filepath.Join(g.home, "config.toml")
	if err := os.WriteFile(cfg, []byte("[ui]\ntheme = \""+themeName+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	app, closeAll, err := newApp(flags{dataDir: g.data, agent: g.agent}, appEnv{cwd: g.proj, home: g.home, configPath: cfg, clock: goldenClock{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeAll)
	return vtscreen.New(t, app, w, h)
}

// themedScreen is the idle screen (a prompt and its reply) in a theme: its
// text and each cell's foreground and background.
func themedScreen(t *testing.T, themeName string) (text string, fg, bg [][]color.Color) {
	g := newGoldenEnv(t)
	s := g.startThemed(t, themeName, 80, 24)
	s.WaitForText("enter send")
	s.Type("What does this project do?")
	s.Send(vtscreen.Key("enter"))
	waitIdle(s, "terminal chat client")
	text = s.Text()
	for y := 0; y < s.H; y++ {
		var fr, br []color.Color
		for x := 0; x < s.W; x++ {
			if c := s.CellAt(x, y); c != nil {
				fr, br = append(fr, c.Style.Fg), append(br, c.Style.Bg)
			} else {
				fr, br = append(fr, nil), append(br, nil)
			}
		}
		fg, bg = append(fg, fr), append(bg, br)
	}
	return text, fg, bg
}

// [ui] theme = "light" draws the same screen in other colours: the
// user's and the agent's headers take the light theme's blue and purple
// (256-colour 25 and 91) where the dark theme draws 117 and 183, and no
// cell keeps the dark theme's pale header colours.
func TestThemeLightScreen(t *testing.T) {
	darkText, darkFg, _ := themedScreen(t, "dark")
	lightText, lightFg, _ := themedScreen(t, "light")
	if darkText != lightText {
		t.Fatalf("the themes draw different text:\n%s\n---\n%s", darkText, lightText)
	}
	pairs := map[ansi.IndexedColor]ansi.IndexedColor{117: 25, 183: 91}
	seen := map[ansi.IndexedColor]int{}
	differ := 0
	for y := range darkFg {
		for x := range darkFg[y] {
			d, l := darkFg[y][x], lightFg[y][x]
			if !sameColor(d, l) {
				differ++
			}
			if di, ok := d.(ansi.IndexedColor); ok {
				if want, ok := pairs[di]; ok {
					seen[di]++
					if li, _ := l.(ansi.IndexedColor); li != want {
						t.Errorf("cell %d,%d: dark %d, light %v, want %d", x, y, di, l, want)
					}
				}
			}
			if li, ok := l.(ansi.IndexedColor); ok && (li == 117 || li == 183) {
				t.Errorf("cell %d,%d: the light theme draws the dark header colour %d", x, y, li)
			}
		}
	}
	for d := range pairs {
		if seen[d] == 0 {
			t.Errorf("the dark screen has no cell in colour %d (the header looks moved?)", d)
		}
	}
	if differ < 20 {
		t.Errorf("only %d cells change colour with the light theme", differ)
	}
}

func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}
