package dialog

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/ui/keymap"
)

// Help is F1: the whole keymap and what the app says of its habits, as
// lines the app gives it, scrolled.
type Help struct {
	k     *keymap.Keys
	lines []string
	top   int
}

// NewHelp shows lines.
func NewHelp(k *keymap.Keys, lines []string) *Help { return &Help{k: k, lines: lines} }

func (h *Help) Scope() keymap.Scope { return keymap.ScopeHelp }

func (h *Help) Hints() string {
	k := h.k
	return keymap.Join(keymap.Hint2(k.HelpUp, k.HelpDown, "scroll"), keymap.Hint(k.HelpPageDown, "page"), keymap.Hint(k.HelpClose, "close"))
}

func (h *Help) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	msg, ok := m.(tea.KeyPressMsg)
	if !ok {
		return h, nil, nil
	}
	k := h.k
	switch {
	case key.Matches(msg, k.HelpClose) || key.Matches(msg, k.Help):
		return nil, nil, nil
	case key.Matches(msg, k.HelpDown):
		h.top++
	case key.Matches(msg, k.HelpUp):
		h.top--
	case key.Matches(msg, k.HelpPageDown):
		h.top += 10
	case key.Matches(msg, k.HelpPageUp):
		h.top -= 10
	}
	h.top = max(0, h.top) // View keeps it within the wrapped rows (more than the lines when narrow)
	return h, nil, nil
}

// Lines is the help's text, unwrapped.
func (h *Help) Lines() []string { return h.lines }

// View wraps the help to width (nothing is cut) and shows height rows of
// it from the scroll position.
func (h *Help) View(width, height int) []string {
	rows := chips.WrapHanging(h.lines, width)
	h.top = max(0, min(h.top, len(rows)-height)) // the last page ends with the last row
	end := min(len(rows), h.top+height)
	return rows[h.top:end]
}
