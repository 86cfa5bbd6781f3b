package transcript

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"

	"github.com/chipchat/chipchat/chips"
)

// host runs a transcript as a whole program for screen tests.
type host struct {
	m      *Model
	opened chan OpenMsg
}

func (h *host) Init() tea.Cmd { return nil }

func (h *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.m.SetSize(msg.Width, msg.Height)
		return h, nil
	case OpenMsg:
		h.opened <- msg
		return h, nil
	}
	var cmd tea.Cmd
	h.m, cmd = h.m.Update(msg)
	return h, cmd
}

func (h *host) View() tea.View { return tea.NewView(h.m.View()) }

// screen drives a program in a virtual terminal and reads what it shows
// (after composer's screen tests; each WaitFor reads only the output that
// is new since the last one, so all of it goes to the emulator).
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
	return strings.Join(lines, "\n")
}

// reversedText is the text of the reversed cells.
func (s *screen) reversedText() string {
	var b strings.Builder
	for y := 0; y < s.h; y++ {
		for x := 0; x < s.w; x++ {
			c := s.emu.CellAt(x, y)
			if c != nil && c.Width > 0 && c.Style.Attrs&uv.AttrReverse != 0 {
				b.WriteString(c.Content)
			}
		}
	}
	return b.String()
}

func TestScreen(t *testing.T) {
	m := New(chips.Default(chips.NoColorTheme()), WithNoColor())
	thread := navThread()
	thread = append(thread, Message{ID: "a3", Role: RoleAssistant, Status: StatusStreaming,
		Text: "Working on it 漢字 😀 with `code` and **bold**\x1b]0;title\x07."})
	m.SetMessages(thread)
	m.Focus()
	h := &host{m: m, opened: make(chan OpenMsg, 4)}
	s := newScreen(t, h, 50, 16)
	text := s.waitFor(func(text string) bool { return strings.Contains(text, "Working on it") })
	if !strings.Contains(text, "… streaming") || strings.Contains(text, "title") {
		t.Fatalf("screen:\n%s", text)
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if !strings.Contains(lines[len(lines)-1], "Working on it") || !strings.Contains(lines[0], "You") {
		t.Fatalf("a thread that fits starts at the top and ends with the newest message:\n%s", text)
	}
	// Focus the first message and its second chip: it is drawn reversed.
	s.tm.Send(keyMsg("home"))
	s.tm.Send(keyMsg("tab"))
	s.tm.Send(keyMsg("tab"))
	s.waitFor(func(string) bool { return strings.Contains(s.reversedText(), "b.go") })
	// enter: the details popover is drawn over the bottom rows.
	s.tm.Send(keyMsg("enter"))
	text = s.waitFor(func(text string) bool { return strings.Contains(text, "╰─") })
	lines = strings.Split(text, "\n")
	if !strings.HasPrefix(lines[len(lines)-1], "╰─") || !strings.Contains(text, "╭─ Details") || !strings.Contains(text, "name: b.go") {
		t.Fatalf("popover:\n%s", text)
	}
	s.tm.Send(keyMsg("enter"))
	s.waitFor(func(text string) bool { return strings.Contains(text, "╭─ Expanded") })
	s.tm.Send(keyMsg("esc"))
	text = s.waitFor(func(text string) bool { return !strings.Contains(text, "╭─") })
	if !strings.Contains(text, "first") {
		t.Fatalf("after esc:\n%s", text)
	}
	s.tm.Send(keyMsg("o"))
	select {
	case om := <-h.opened:
		if id := om.Record.RecordBase().ContextID; id != "fb" {
			t.Fatalf("opened %s", id)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("o opened nothing")
	}
}

// TestScreenMatchesView: what a terminal shows is the view, row for row,
// in colour too — no row wraps or spills into the next.
func TestScreenMatchesView(t *testing.T) {
	thread := benchThread(40)
	thread = append(thread, agentMsg("wide", "## 見出し 😀\n\n漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字 [link](http://example.com/a)\n\n"+
		"| a | b |\n|---|---|\n| 漢字 | 😀 |\n\n```go\nx := \"漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字\"\n```"))
	for _, noColor := range []bool{false, true} {
		mk := func() *Model {
			if noColor {
				return New(chips.Default(chips.NoColorTheme()), WithNoColor())
			}
			return New(chips.Default(chips.DefaultTheme()))
		}
		keys := []string{"up", "up", "up", "tab", "enter"}
		// The twin draws what the program should show.
		twin := mk()
		twin.SetSize(44, 20)
		twin.SetMessages(thread)
		twin.Focus()
		press(twin, keys...)
		var lines []string
		for _, l := range strings.Split(ansi.Strip(twin.View()), "\n") {
			lines = append(lines, strings.TrimRight(l, " "))
		}
		want := strings.Join(lines, "\n")

		m := mk()
		m.SetMessages(thread)
		m.Focus()
		s := newScreen(t, &host{m: m, opened: make(chan OpenMsg, 4)}, 44, 20)
		s.waitFor(func(text string) bool { return strings.Contains(text, "example.com") })
		for _, k := range keys {
			s.tm.Send(keyMsg(k))
		}
		got := s.waitFor(func(text string) bool { return text == want || strings.Contains(text, "╰─") })
		if got != want {
			time.Sleep(200 * time.Millisecond)
			got = s.waitFor(func(string) bool { return true })
		}
		if got != want {
			t.Fatalf("noColor=%v: screen differs from the view\n--- screen ---\n%s\n--- view ---\n%s", noColor, got, want)
		}
	}
}
