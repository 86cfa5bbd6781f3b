package dialog

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
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

// HelpText is what F1 shows: the key table by scope as k binds it, the
// app's habits (history, ! and /, where skills come from) and chipchat's
// slash commands; configPath is the file whose [keys] table rebinds them.
func HelpText(k *keymap.Keys, configPath string) []string {
	lines := []string{"Keys (set any of them in " + configPath + ", [keys] table, by the names below; a key acts only in its scope)", ""}
	lines = append(lines, k.HelpByScope()...)
	lines = append(lines, habitsHelp...)
	return append(append(lines, ""), chat.SlashHelp()...)
}

// habitsHelp is what F1 says of history, ! and /, and where skills come
// from.
var habitsHelp = []string{
	"History: up on an empty draft (or on its first line) shows the previous prompt of this project with its chips,",
	"  down the next one and at last the draft you had typed; ctrl+r searches the history by any words.",
	"! on an empty draft: shell mode. enter runs the line in the project directory in a terminal pane; when it exits,",
	"  its command line and output become a terminal chip at the caret (esc or ctrl+c kills it and keeps what it printed).",
	"/ on an empty draft lists the agent's and chipchat's commands; @ a file of the project; $ a skill.",
	"Skills are read from <project>/.claude/skills, <project>/.codex/skills, <project>/.agents/skills,",
	"  ~/.claude/skills, ~/.codex/skills and ~/.agents/skills (each skill a directory with a SKILL.md).",
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
