package transcript

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/internal/vtscreen"
	"github.com/chipchat/chipchat/message"
)

// itemHost runs a transcript as a program and reports the pager requests.
type itemHost struct {
	m     *Model
	pager chan PagerMsg
}

// setItemMsg is a streaming update sent to the program.
type setItemMsg struct {
	id  string
	k   int
	it  message.Item
	end bool
}

// focusMsg gives the transcript the keyboard inside the program (Focus
// from the test goroutine would race with View).
type focusMsg struct{}

func (h *itemHost) Init() tea.Cmd { return nil }

func (h *itemHost) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.m.SetSize(msg.Width, msg.Height)
		return h, nil
	case PagerMsg:
		h.pager <- msg
		return h, nil
	case focusMsg:
		h.m.Focus()
		return h, nil
	case setItemMsg:
		h.m.SetItem(msg.id, msg.k, msg.it)
		if msg.end {
			h.m.SetStatus(msg.id, message.StatusDone)
		}
		return h, nil
	}
	var cmd tea.Cmd
	h.m, cmd = h.m.Update(msg)
	return h, cmd
}

func (h *itemHost) View() tea.View { return tea.NewView(h.m.View()) }

// viewText is what a terminal should show for the model's view.
func viewText(m *Model) string {
	var lines []string
	for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// TestScreenItems: every item kind through a terminal at widths 40, 80
// and 120, in colour: the screen is the view row for row (nothing wraps
// or spills) and matches its golden screen; then the item keys.
func TestScreenItems(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			h := 60
			if w == 40 {
				h = 80
			}
			twin := New(nil)
			twin.SetSize(w, h)
			twin.SetMessages(itemThread())
			want := viewText(twin)

			m := New(nil)
			m.SetMessages(itemThread())
			host := &itemHost{m: m, pager: make(chan PagerMsg, 4)}
			s := vtscreen.New(t, host, w, h)
			got := s.WaitFor(func(text string) bool { return text == want })
			for _, sub := range []string{"Thought", "go test", "Edit main.go", "Allow once", "Plan", "status 2", "hologram"} {
				if !strings.Contains(got, sub) {
					t.Fatalf("%q not on screen:\n%s", sub, got)
				}
			}
			s.Golden(fmt.Sprintf("items-%d", w))

			// Keys: focus moves by item; space expands the tool; enter
			// opens its details; o asks for the pager.
			s.Send(focusMsg{})
			for i := 0; i < 5; i++ {
				s.Send(vtscreen.Key("up"))
			}
			s.Send(vtscreen.Key("space"))
			s.WaitForText("ok g")
			s.Send(vtscreen.Key("enter"))
			s.WaitForText("call: c1")
			s.Send(vtscreen.Key("o"))
			pm := <-host.pager
			if !strings.Contains(pm.Text, "FAIL d") {
				t.Fatalf("pager text %q", pm.Text)
			}
			s.Send(vtscreen.Key("esc"))
			s.WaitFor(func(text string) bool { return !strings.Contains(text, "call: c1") })
		})
	}
}

// TestScreenStreaming: a reply streamed through the program in chunks is
// drawn as the same reply drawn whole.
func TestScreenStreaming(t *testing.T) {
	text := benchReply(12 << 10)
	m := New(nil)
	m.SetMessages([]Message{userMsg("u", "go"), {ID: "r", Role: message.RoleAssistant, Status: message.StatusStreaming}})
	host := &itemHost{m: m, pager: make(chan PagerMsg, 1)}
	s := vtscreen.New(t, host, 80, 30)
	s.WaitForText("streaming")
	for n := 512; ; n += 512 {
		n = min(n, len(text))
		s.Send(setItemMsg{id: "r", k: 0, it: message.Item{Kind: message.ItemText, Text: text[:n]}, end: n == len(text)})
		if n == len(text) {
			break
		}
	}
	twin := New(nil)
	twin.SetSize(80, 30)
	twin.SetMessages([]Message{userMsg("u", "go"), {ID: "r", Role: message.RoleAssistant, Status: message.StatusDone,
		Items: []message.Item{{Kind: message.ItemText, Text: text}}}})
	want := viewText(twin)
	s.WaitFor(func(text string) bool { return text == want })
}
