package transcript

import (
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/chipchat/chipchat/message"
)

// TestRandomOperations drives the model with random keys, wheel steps,
// resizes, appends and streaming updates; after each step the frame has
// its exact shape and, while focused without a popover, the focused
// message is on screen after a focus key.
func TestRandomOperations(t *testing.T) {
	keys := []string{"up", "down", "k", "j", "pgup", "pgdown", "home", "end", "g", "G", "tab", "shift+tab", "left", "right", "enter", "esc", "o", "y"}
	for seed := uint64(1); seed <= 6; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		m := newTest(1+r.IntN(90), 1+r.IntN(30))
		m.SetMessages(benchThread(30 + r.IntN(60)))
		m.Focus()
		for step := 0; step < 400; step++ {
			switch op := r.IntN(20); {
			case op < 12:
				k := keys[r.IntN(len(keys))]
				press(m, k)
				if m.height > 2 && !m.PopoverOpen() && (k == "up" || k == "down") {
					if v := plain(m); m.gutterWidth() > 0 && !strings.Contains(v, gutterMark) {
						t.Fatalf("seed %d step %d: focused message %d off screen after %s\n%s", seed, step, m.sel, k, v)
					}
				}
			case op < 14:
				b := tea.MouseWheelUp
				if r.IntN(2) == 0 {
					b = tea.MouseWheelDown
				}
				m.Update(tea.MouseWheelMsg{Button: b})
			case op < 15:
				m.SetSize(1+r.IntN(90), 1+r.IntN(30))
			case op < 17:
				m.Append(agentMsg("x"+strconv.Itoa(step), strings.Repeat("grow ", r.IntN(40))))
			default:
				if n := m.Len(); n > 0 {
					id := m.ents[r.IntN(n)].msg.ID
					msg, _ := m.Message(id)
					if msg.Role == message.RoleAssistant {
						m.SetText(id, msg.Text+strings.Repeat(" more", r.IntN(30))+"\n\n- item", message.StatusStreaming)
					}
				}
			}
			checkFrame(t, m)
			if m.top.i < 0 || m.top.i >= max(1, m.Len()) || m.off < 0 {
				t.Fatalf("seed %d step %d: anchor %v/%d", seed, step, m.top, m.off)
			}
		}
	}
}

// TestImportBoundaries: the transcript never imports store, agent, ui or
// composer (DESIGN.md 2).
func TestImportBoundaries(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		af, err := parser.ParseFile(fset, f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			for _, banned := range []string{"store", "agent", "ui", "composer", "terminal", "clipboard"} {
				if p == "github.com/chipchat/chipchat/"+banned || strings.HasPrefix(p, "github.com/chipchat/chipchat/"+banned+"/") {
					t.Errorf("%s imports %s", f, p)
				}
			}
			if strings.HasPrefix(p, "github.com/charmbracelet/bubbletea") || strings.HasPrefix(p, "github.com/charmbracelet/lipgloss") ||
				strings.HasPrefix(p, "github.com/charmbracelet/glamour") || strings.HasPrefix(p, "github.com/charmbracelet/bubbles") {
				t.Errorf("%s imports the old path %s", f, p)
			}
		}
	}
}
