package composer

import (
	"bytes"
	"flag"
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

	"github.com/chipchat/chipchat/contextref"
)

// updating reports whether golden screens are to be rewritten: go test
// -update (the flag teatest registers).
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// host runs an Editor as a whole program for screen tests.
type host struct {
	ed       *Editor
	submits  []SubmitMsg
	lastNote string
}

func (h *host) Init() tea.Cmd { return nil }

func (h *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.ed.SetWidth(msg.Width)
		return h, nil
	case SubmitMsg:
		h.submits = append(h.submits, msg)
		return h, nil
	case NoticeMsg:
		h.lastNote = msg.Text
		return h, nil
	case insertMsg:
		h.ed.InsertContext(msg.rec, msg.label)
		return h, nil
	case markdownMsg:
		h.ed.Draft().InsertMarkdown(msg.text, msg.recs)
		h.ed.afterEdit()
		return h, nil
	}
	var cmd tea.Cmd
	h.ed, cmd = h.ed.Update(msg)
	return h, cmd
}

func (h *host) View() tea.View { return tea.NewView(h.ed.View()) }

// insertMsg puts a chip at the caret, as the terminal pane or a paste would.
type insertMsg struct {
	rec   contextref.Record
	label string
}

// markdownMsg inserts canonical Markdown with records.
type markdownMsg struct {
	text string
	recs []contextref.Record
}

// screen drives a program in a virtual terminal and reads what it shows.
type screen struct {
	t    *testing.T
	tm   *teatest.TestModel
	emu  *vt.Emulator
	w, h int
}

func newScreen(t *testing.T, m tea.Model, w, h int) *screen {
	t.Helper()
	emu := vt.NewEmulator(w, h)
	go io.Copy(io.Discard, emu) // answer nobody: drain the emulator's replies
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.TrueColor)))
	t.Cleanup(func() { _ = tm.Quit() })
	return &screen{t: t, tm: tm, emu: emu, w: w, h: h}
}

// waitFor feeds program output to the emulator until the screen text
// satisfies ok; on timeout it fails showing the screen.
func (s *screen) waitFor(ok func(text string) bool) string {
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
		text := s.text()
		if ok(text) {
			return text
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("screen never showed what was expected:\n%s", text)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *screen) waitForText(sub string) string {
	s.t.Helper()
	return s.waitFor(func(text string) bool { return strings.Contains(text, sub) })
}

// text is the screen as plain lines, trailing spaces trimmed.
func (s *screen) text() string {
	var lines []string
	for y := 0; y < s.h; y++ {
		var b strings.Builder
		for x := 0; x < s.w; x++ {
			c := s.emu.CellAt(x, y)
			if c == nil || c.Width == 0 {
				continue
			}
			if c.Content == "" {
				b.WriteByte(' ')
			} else {
				b.WriteString(c.Content)
			}
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// attrs marks each cell's look: '#' reversed, '~' on a background colour,
// '.' with a foreground colour only, ' ' plain.
func (s *screen) attrs() string {
	var lines []string
	for y := 0; y < s.h; y++ {
		var b strings.Builder
		for x := 0; x < s.w; x++ {
			c := s.emu.CellAt(x, y)
			if c == nil || c.Width == 0 {
				continue
			}
			switch {
			case c.Style.Attrs&uv.AttrReverse != 0:
				b.WriteByte('#')
			case c.Style.Bg != nil:
				b.WriteByte('~')
			case c.Style.Fg != nil:
				b.WriteByte('.')
			default:
				b.WriteByte(' ')
			}
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// golden compares the screen (text and looks) with testdata/screens/name.golden.
func (s *screen) golden(name string) {
	s.t.Helper()
	got := []byte("-- text --\n" + s.text() + "\n-- looks --\n" + s.attrs() + "\n")
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
		s.t.Fatalf("screen %s differs\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}
