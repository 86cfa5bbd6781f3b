package overlay

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

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
	h.top = max(0, min(h.top, len(h.lines)-1))
	return h, nil, nil
}

// Lines is the help's text, unwrapped.
func (h *Help) Lines() []string { return h.lines }

// View wraps the help to width (nothing is cut) and shows height rows of
// it from the scroll position.
func (h *Help) View(width, height int) []string {
	var rows []string
	for _, l := range h.lines {
		rows = append(rows, wrapHanging(l, width)...)
	}
	h.top = max(0, min(h.top, len(rows)-height)) // the last page ends with the last row
	end := min(len(rows), h.top+height)
	return rows[h.top:end]
}

// wrapHanging wraps a help line to width, its continuation rows indented
// to where its last column starts (the help text after the key names), so
// a long help stays in its column; where that column leaves less than 20
// columns (80 wide), or the line has none, they are indented four past the
// line's own indent — never back at the left edge.
func wrapHanging(l string, width int) []string {
	if ansi.StringWidth(l) <= width {
		return []string{l}
	}
	start := -1
	for i := 1; i+1 < len(l); i++ {
		if l[i] == ' ' && l[i-1] == ' ' && l[i+1] != ' ' {
			start = i + 1
		}
	}
	col := 0
	if start > 0 {
		col = ansi.StringWidth(l[:start])
	}
	if col == 0 || col > width-20 {
		ind := min(len(l)-len(strings.TrimLeft(l, " "))+4, width/2)
		parts := strings.Split(ansi.Wrap(l, width, ""), "\n")
		rest := strings.Split(ansi.Wrap(strings.Join(parts[1:], " "), width-ind, ""), "\n")
		rows := []string{parts[0]}
		for _, p := range rest {
			rows = append(rows, strings.Repeat(" ", ind)+p)
		}
		return rows
	}
	parts := strings.Split(ansi.Wrap(l[start:], width-col, ""), "\n")
	rows := []string{l[:start] + parts[0]}
	for _, p := range parts[1:] {
		rows = append(rows, strings.Repeat(" ", col)+p)
	}
	return rows
}
