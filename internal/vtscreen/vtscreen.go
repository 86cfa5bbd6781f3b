// Package vtscreen runs a Bubble Tea model as a whole program in tests and
// reads what a terminal would show: teatest v2 drives the program, its
// output goes through an x/vt emulator, and tests assert on the screen's
// text and looks, or compare it with golden files; Key builds the key
// presses a terminal reports. Test support only: it imports nothing of the
// project.
package vtscreen

import (
	"bytes"
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"
)

// Screen is a program running in a virtual terminal of W×H cells.
type Screen struct {
	t    testing.TB
	tm   *teatest.TestModel
	emu  *vt.Emulator
	W, H int
}

// New starts m in a W×H true-colour terminal; the program is quit when the
// test ends.
func New(t testing.TB, m tea.Model, w, h int) *Screen {
	t.Helper()
	emu := vt.NewEmulator(w, h)
	go io.Copy(io.Discard, emu) // drain the emulator's replies
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.TrueColor)))
	t.Cleanup(func() { _ = tm.Quit() })
	return &Screen{t: t, tm: tm, emu: emu, W: w, H: h}
}

// Send delivers a message to the program.
func (s *Screen) Send(msg tea.Msg) { s.tm.Send(msg) }

// Type sends each rune of text as a key press.
func (s *Screen) Type(text string) {
	for _, r := range text {
		s.tm.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// CellAt is the emulator's cell at (x, y).
func (s *Screen) CellAt(x, y int) *uv.Cell { return s.emu.CellAt(x, y) }

// WaitFor feeds program output to the emulator until the screen text
// satisfies ok; on timeout it fails showing the screen.
func (s *Screen) WaitFor(ok func(text string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := io.ReadAll(s.tm.Output())
		if err != nil {
			s.t.Fatal(err)
		}
		// A tty turns \n into \r\n on output (ONLCR); the renderer relies
		// on it, so the emulator gets what a terminal would.
		_, _ = s.emu.Write(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
		text := s.Text()
		if ok(text) {
			return text
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("screen never showed what was expected:\n%s", text)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// WaitForText waits until sub is on the screen.
func (s *Screen) WaitForText(sub string) string {
	s.t.Helper()
	return s.WaitFor(func(text string) bool { return strings.Contains(text, sub) })
}

// Text is the screen as plain lines, trailing spaces trimmed.
func (s *Screen) Text() string {
	return s.grid(func(c *uv.Cell) string {
		if c.Content == "" {
			return " "
		}
		return c.Content
	})
}

// Attrs marks each cell's look: '#' reversed, '~' on a background colour,
// '.' with a foreground colour only, ' ' plain.
func (s *Screen) Attrs() string {
	return s.grid(func(c *uv.Cell) string {
		switch {
		case c.Style.Attrs&uv.AttrReverse != 0:
			return "#"
		case c.Style.Bg != nil:
			return "~"
		case c.Style.Fg != nil:
			return "."
		}
		return " "
	})
}

func (s *Screen) grid(cell func(*uv.Cell) string) string {
	var lines []string
	for y := 0; y < s.H; y++ {
		var b strings.Builder
		for x := 0; x < s.W; x++ {
			c := s.emu.CellAt(x, y)
			if c == nil || c.Width == 0 {
				continue
			}
			b.WriteString(cell(c))
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// updating reports whether golden screens are to be rewritten: go test
// -update (the flag teatest registers).
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Golden compares the screen (text and looks) with
// testdata/screens/name.golden; go test -update rewrites it. Each mask
// rewrites the text first (what a test cannot fix, such as ids, put in
// placeholders of the same width). A mismatch shows the rows that differ.
func (s *Screen) Golden(name string, masks ...func(text string) string) {
	s.t.Helper()
	s.golden(name, "", masks)
}

// GoldenColours is Golden with a third section, "-- colours --": each
// cell's colours as a letter (Colours), then the legend, for screens
// whose colours are what is tested (a theme's).
func (s *Screen) GoldenColours(name string, masks ...func(text string) string) {
	s.t.Helper()
	s.golden(name, "-- colours --\n"+s.Colours()+"\n", masks)
}

// Colours marks each cell's foreground and background, reverse video
// applied, with a letter, ' ' for the terminal's own two; under the grid
// the legend says each letter's colours ("-": the terminal's), in the
// order the letters first appear.
func (s *Screen) Colours() string {
	name := func(c color.Color) string {
		if c == nil {
			return "-"
		}
		r, g, b, _ := c.RGBA()
		return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	mark := map[string]string{}
	var legend []string
	grid := s.grid(func(c *uv.Cell) string {
		fg, bg := c.Style.Fg, c.Style.Bg
		if c.Style.Attrs&uv.AttrReverse != 0 {
			fg, bg = bg, fg
		}
		if fg == nil && bg == nil {
			return " "
		}
		k := "fg " + name(fg) + " bg " + name(bg)
		if m, ok := mark[k]; ok {
			return m
		}
		m := "?"
		if n := len(legend); n < len(letters) {
			m = letters[n : n+1]
		}
		mark[k] = m
		legend = append(legend, m+" "+k)
		return m
	})
	return grid + "\n" + strings.Join(legend, "\n")
}

func (s *Screen) golden(name, extra string, masks []func(text string) string) {
	s.t.Helper()
	text := s.Text()
	for _, m := range masks {
		text = m(text)
	}
	got := []byte("-- text --\n" + text + "\n-- looks --\n" + s.Attrs() + "\n" + extra)
	path := filepath.Join("testdata", "screens", name+".golden")
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			s.t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			s.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatalf("no golden screen %s (run go test -update once and review it): %v", path, err)
	}
	if !bytes.Equal(got, want) {
		s.t.Fatalf("screen %s differs from %s (go test -update rewrites it):\n%s--- got ---\n%s", name, path, RowDiff(string(got), string(want)), got)
	}
}

// RowDiff lists the rows of two golden screens that differ, each under
// its section and screen row (y, from 0): "-" the wanted row, "+" the row
// got.
func RowDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	section, y := "", 0
	for i := 0; i < max(len(g), len(w)); i++ {
		var gr, wr string
		if i < len(g) {
			gr = g[i]
		}
		if i < len(w) {
			wr = w[i]
		}
		head := wr
		if i >= len(w) {
			head = gr
		}
		if strings.HasPrefix(head, "-- ") && strings.HasSuffix(head, " --") {
			section, y = strings.TrimSuffix(strings.TrimPrefix(head, "-- "), " --"), 0
			if gr != wr {
				fmt.Fprintf(&b, "line %d:\n  -%s\n  +%s\n", i+1, wr, gr)
			}
			continue
		}
		if gr != wr {
			fmt.Fprintf(&b, "%s y=%d:\n  -%s\n  +%s\n", section, y, wr, gr)
		}
		y++
	}
	return b.String()
}
