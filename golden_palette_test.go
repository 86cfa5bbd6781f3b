package main

import (
	"fmt"
	"image/color"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2/styles"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/chipchat/chipchat/internal/vtscreen"
	"github.com/chipchat/chipchat/theme"
)

// paletteStates are the screens drawn in both themes by
// TestThemeLightDrawsNoDarkColour: the golden screens' (idle with code,
// streaming, the agent's question with its diff, the review pane, the
// thread list, F1, the / picker) and every other surface that has colours
// of its own — the @, # and $ pickers with matches, the stash list, the
// attach and export prompts, a search's matches in the transcript, a
// composer selection, a failure's toast, ! shell mode and the review
// pane's comment editor.
var paletteStates = append(goldenPaletteStates(), []paletteState{
	{name: "at-picker", prepare: func(t *testing.T, g *goldenEnv) {
		writeFile(t, filepath.Join(g.proj, "app.py"), "print(1)\n")
		writeFile(t, filepath.Join(g.proj, "lib", "apply.py"), "X = 1\n")
	}, drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("@ap")
		s.WaitForText("apply.py")
	}},
	{name: "thread-picker", prepare: seedThreads, drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("#build")
		s.WaitForText("Why is the build slow?")
	}},
	{name: "skill-picker", prepare: func(t *testing.T, g *goldenEnv) {
		writeFile(t, filepath.Join(g.proj, ".agents", "skills", "deploy", "SKILL.md"),
			"---\nname: deploy\ndescription: Ship the build to the staging hosts\n---\nSteps.\n")
	}, drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("$dep")
		s.WaitForText("staging hosts")
	}},
	{name: "stash", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("a draft to keep for later")
		s.Send(vtscreen.Key("ctrl+s"))
		s.WaitForText("draft stashed") // stored: the list will have it
		s.Send(vtscreen.Key("ctrl+alt+s"))
		s.WaitForText("a draft to keep")
	}},
	{name: "attach", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Send(vtscreen.Key("ctrl+o"))
		s.WaitForText("Attach a file:")
	}},
	{name: "export", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("What does this project do?")
		s.Send(vtscreen.Key("enter"))
		waitIdle(s, "terminal chat client")
		s.Type("/export")
		s.Send(vtscreen.Key("enter"))
		s.WaitForText(".md")
	}},
	{name: "search", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("What does this project do?")
		s.Send(vtscreen.Key("enter"))
		waitIdle(s, "terminal chat client")
		s.Send(vtscreen.Key("tab"))
		s.Type("/chips")
		s.Send(vtscreen.Key("enter"))
		s.WaitForText("1 of 1")
	}},
	{name: "selection", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("select these words")
		for range 5 {
			s.Send(vtscreen.Key("shift+left"))
		}
		waitLooks(s, "ords", '~')
	}},
	{name: "toast-error", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("/review --nope")
		s.Send(vtscreen.Key("enter"))
		s.WaitForText("unknown option")
	}},
	{name: "shell", drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Type("!")
		s.WaitFor(func(text string) bool { return strings.Contains(text, "! ") && strings.Contains(text, "esc") })
	}},
	{name: "review-comment", prepare: func(t *testing.T, g *goldenEnv) {
		gitRepo(t, g.proj, map[string]string{"app.py": reviewBefore})
		writeFile(t, filepath.Join(g.proj, "app.py"), reviewAfter)
	}, drive: func(s *vtscreen.Screen) {
		s.WaitForText("enter send")
		s.Send(vtscreen.Key("alt+g"))
		s.WaitForText("return 10")
		waitColoured(s, "def a():")
		s.Send(vtscreen.Key("c"))
		s.WaitForText("Comment…")
	}},
}...)

type paletteState struct {
	name    string
	prepare func(t *testing.T, g *goldenEnv)
	drive   func(s *vtscreen.Screen)
}

func goldenPaletteStates() []paletteState {
	var out []paletteState
	for _, sc := range goldenScreens {
		out = append(out, paletteState{name: sc.name, prepare: sc.prepare, drive: sc.drive})
	}
	return out
}

// waitLooks waits until the first cell of text on the screen has the look
// mark (vtscreen.Screen.Attrs).
func waitLooks(s *vtscreen.Screen, text string, mark rune) {
	s.WaitFor(func(scr string) bool {
		rows, looks := strings.Split(scr, "\n"), strings.Split(s.Attrs(), "\n")
		for y, row := range rows {
			if x := strings.Index(row, text); x >= 0 && y < len(looks) {
				look := []rune(looks[y])
				x = len([]rune(row[:x]))
				return x < len(look) && look[x] == mark
			}
		}
		return false
	})
}

// paletteCell is one drawn cell's colours as the terminal shows them:
// reverse video applied, nil the terminal's own (def says which: its
// foreground or background, swapped by reverse video).
type paletteCell struct {
	x, y         int
	text         string
	fg, bg       color.Color
	fgDef, bgDef string // "fg" or "bg": which of the terminal's colours a nil one is
}

// drawnCells are the cells of the screen with text, their colours.
func drawnCells(s *vtscreen.Screen) []paletteCell {
	var out []paletteCell
	for y := 0; y < s.H; y++ {
		for x := 0; x < s.W; x++ {
			c := s.CellAt(x, y)
			if c == nil || c.Width == 0 {
				continue
			}
			p := paletteCell{x: x, y: y, text: c.Content, fg: c.Style.Fg, bg: c.Style.Bg, fgDef: "fg", bgDef: "bg"}
			if c.Style.Attrs&uv.AttrReverse != 0 {
				p.fg, p.bg, p.fgDef, p.bgDef = p.bg, p.fg, "bg", "fg"
			}
			out = append(out, p)
		}
	}
	return out
}

func paletteScreen(t *testing.T, st paletteState, themeName string) (*vtscreen.Screen, []paletteCell) {
	g := newGoldenEnv(t)
	if st.prepare != nil {
		st.prepare(t, g)
	}
	s := g.startThemed(t, themeName, 100, 30)
	st.drive(s)
	return s, drawnCells(s)
}

// colourKey names a colour by its RGB value, as the terminal draws it.
func colourKey(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// The light theme's stand-ins for the terminal's own colours: a light
// terminal's default background and text.
var (
	lightTermBg = color.RGBA{0xff, 0xff, 0xff, 0xff}
	lightTermFg = color.RGBA{0x1f, 0x23, 0x28, 0xff}
)

// lightCellContrast is the floor of every drawn glyph's contrast under the
// light theme on a white terminal: WCAG's 3:1 for large text and
// graphics (chips, status lines and pickers have their own 4.5:1 tests);
// a dark theme's pale colour on white is under 2:1.
const lightCellContrast = 3.0

// grey reports whether c is a grey (black and white included): greys are
// the faint text of both themes, and the contrast rule judges them.
func grey(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return r == g && g == b
}

// syntaxColours are the colours of chroma's light style (the light
// theme's diffs and code, review.LightTheme().Syntax): the contrast rule
// leaves them to chroma's style, whose numbers (#009999) are 2.2–2.7:1 on
// a diff line's green or red.
func syntaxColours(t *testing.T) map[string]bool {
	st := styles.Get("github")
	if st == nil || st.Name != "github" {
		t.Fatal("chroma has no github style")
	}
	out := map[string]bool{}
	for _, tt := range st.Types() {
		if c := st.Get(tt).Colour; c.IsSet() {
			out[fmt.Sprintf("#%02X%02X%02X", c.Red(), c.Green(), c.Blue())] = true
		}
	}
	return out
}

// Every surface draws in the light theme's colours when [ui] theme =
// "light": no cell of any main state takes a colour (other than a grey)
// the dark theme draws in any of them, and no glyph is paler than 3:1 on
// a white terminal unless chroma's light style coloured it.
func TestThemeLightDrawsNoDarkColour(t *testing.T) {
	syntax := syntaxColours(t)
	dark := map[string]string{} // colour → where the dark theme drew it
	type drawn struct {
		state string
		cells []paletteCell
		s     *vtscreen.Screen
	}
	var light []drawn
	for _, st := range paletteStates {
		t.Run(st.name+"-dark", func(t *testing.T) {
			_, dc := paletteScreen(t, st, "dark")
			for _, c := range dc {
				for _, col := range []color.Color{c.fg, c.bg} {
					if col != nil && dark[colourKey(col)] == "" {
						dark[colourKey(col)] = fmt.Sprintf("%s at %d,%d %q", st.name, c.x, c.y, c.text)
					}
				}
			}
		})
		t.Run(st.name+"-light", func(t *testing.T) {
			s, lc := paletteScreen(t, st, "light")
			light = append(light, drawn{st.name, lc, s})
		})
	}
	if len(light) == len(paletteStates) && len(dark) < 20 {
		t.Fatalf("the dark theme drew only %d colours: the states draw nothing?", len(dark))
	}
	for _, d := range light {
		bad := map[string]int{}
		for _, c := range d.cells {
			for _, col := range []color.Color{c.fg, c.bg} {
				if col == nil {
					continue
				}
				if where, ok := dark[colourKey(col)]; ok && !grey(col) {
					if bad[colourKey(col)]++; bad[colourKey(col)] == 1 {
						t.Errorf("%s: cell %d,%d %q is in %s, a dark theme colour (%s)", d.state, c.x, c.y, c.text, colourKey(col), where)
					}
				}
			}
			if strings.TrimSpace(c.text) == "" {
				continue
			}
			term := map[string]color.Color{"fg": lightTermFg, "bg": lightTermBg}
			fg, bg := c.fg, c.bg
			if fg == nil {
				fg = term[c.fgDef]
			}
			if bg == nil {
				bg = term[c.bgDef]
			}
			if r := theme.Contrast(fg, bg); r < lightCellContrast && !syntax[colourKey(fg)] {
				k := "contrast " + colourKey(fg) + colourKey(bg)
				if bad[k]++; bad[k] == 1 {
					t.Errorf("%s: cell %d,%d %q is %s on %s, contrast %.2f:1 (< %.1f)", d.state, c.x, c.y, c.text, colourKey(fg), colourKey(bg), r, lightCellContrast)
				}
			}
		}
		if t.Failed() && len(bad) > 0 {
			t.Logf("%s under the light theme:\n%s", d.state, d.s.Text())
		}
	}
	keys := make([]string, 0, len(dark))
	for k := range dark {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("%d dark theme colours", len(keys))
}
