package composer

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/internal/vtscreen"
)

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

// newScreen runs a model in a virtual terminal (see internal/vtscreen).
func newScreen(t *testing.T, m tea.Model, w, h int) *vtscreen.Screen {
	t.Helper()
	return vtscreen.New(t, m, w, h)
}
