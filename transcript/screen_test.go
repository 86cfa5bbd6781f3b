package transcript

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/internal/vtscreen"
	"github.com/chipchat/chipchat/message"
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

// reversedText is the text of the reversed cells.
func reversedText(s *vtscreen.Screen) string {
	var b strings.Builder
	for y := 0; y < s.H; y++ {
		for x := 0; x < s.W; x++ {
			c := s.CellAt(x, y)
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
	thread = append(thread, Message{ID: "a3", Role: message.RoleAssistant, Status: message.StatusStreaming,
		Text: "Working on it 漢字 😀 with `code` and **bold**\x1b]0;title\x07."})
	m.SetMessages(thread)
	m.Focus()
	h := &host{m: m, opened: make(chan OpenMsg, 4)}
	s := vtscreen.New(t, h, 50, 16)
	text := s.WaitFor(func(text string) bool { return strings.Contains(text, "Working on it") })
	if !strings.Contains(text, "… streaming") || strings.Contains(text, "title") {
		t.Fatalf("screen:\n%s", text)
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if !strings.Contains(lines[len(lines)-1], "Working on it") || !strings.Contains(lines[0], "You") {
		t.Fatalf("a thread that fits starts at the top and ends with the newest message:\n%s", text)
	}
	// Focus the first message and its second chip: it is drawn reversed.
	s.Send(keyMsg("home"))
	s.Send(keyMsg("tab"))
	s.Send(keyMsg("tab"))
	s.WaitFor(func(string) bool { return strings.Contains(reversedText(s), "b.go") })
	// enter: the details popover is drawn over the bottom rows.
	s.Send(keyMsg("enter"))
	text = s.WaitFor(func(text string) bool { return strings.Contains(text, "╰─") })
	lines = strings.Split(text, "\n")
	if !strings.HasPrefix(lines[len(lines)-1], "╰─") || !strings.Contains(text, "╭─ Details") || !strings.Contains(text, "name: b.go") {
		t.Fatalf("popover:\n%s", text)
	}
	s.Send(keyMsg("enter"))
	s.WaitFor(func(text string) bool { return strings.Contains(text, "╭─ Expanded") })
	s.Send(keyMsg("esc"))
	text = s.WaitFor(func(text string) bool { return !strings.Contains(text, "╭─") })
	if !strings.Contains(text, "first") {
		t.Fatalf("after esc:\n%s", text)
	}
	s.Send(keyMsg("o"))
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
		s := vtscreen.New(t, &host{m: m, opened: make(chan OpenMsg, 4)}, 44, 20)
		s.WaitFor(func(text string) bool { return strings.Contains(text, "example.com") })
		for _, k := range keys {
			s.Send(keyMsg(k))
		}
		// WaitFor fails showing the screen when it never matches; the view
		// is logged beside it.
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("noColor=%v: the view the screen should show:\n%s", noColor, want)
			}
		})
		s.WaitFor(func(text string) bool { return text == want })
	}
}
