package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/workspace"
)

// Attach is the attach prompt: a path with completion (tab), relative to
// the project, ~ for home.
type Attach struct {
	k         *keymap.Keys
	dir, home string // a relative path is the project's; ~ is home
	input     composer.Field
	matches   []string
	err       string
	busy      bool
}

// NewAttach is an empty prompt over the project dir and the home dir.
func NewAttach(k *keymap.Keys, dir, home string) *Attach { return &Attach{k: k, dir: dir, home: home} }

// AttachChosen is the path the user chose to attach.
type AttachChosen struct{ Path string }

// AttachDone is the end of storing the chosen file, delivered by the app:
// nil Err closes the prompt (the chip is in the composer), else it says why.
type AttachDone struct{ Err error }

// Completion is a path completion's result, from the prompt's own command
// (the app delivers it back to the prompt).
type Completion struct {
	input   string
	matches []string
}

func (p *Attach) Scope() keymap.Scope { return keymap.ScopeAttach }

func (p *Attach) Hints() string {
	k := p.k
	return keymap.Join(keymap.Hint(k.AttachComplete, "complete"), keymap.Hint(k.AttachChoose, "attach"), keymap.Hint(k.FieldClear, "clear"), keymap.Hint(k.AttachCancel, "cancel"))
}

// Input, Matches and Err are the prompt's text, the completions listed and
// the error shown.
func (p *Attach) Input() string     { return p.input.String() }
func (p *Attach) Matches() []string { return p.matches }
func (p *Attach) Err() string       { return p.err }

func (p *Attach) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	switch msg := m.(type) {
	case tea.PasteMsg:
		p.input.Insert(strings.TrimSpace(chips.SanitizeLine(msg.Content)))
	case Completion:
		p.complete(msg)
	case AttachDone:
		if msg.Err == nil {
			return nil, nil, nil // the chip is in the composer
		}
		p.busy, p.err = false, chips.SanitizeLine(msg.Err.Error())
	case tea.KeyPressMsg:
		return p.key(msg)
	}
	return p, nil, nil
}

func (p *Attach) key(msg tea.KeyPressMsg) (Overlay, tea.Cmd, any) {
	k := p.k
	switch {
	case key.Matches(msg, k.AttachCancel):
		return nil, nil, nil
	case key.Matches(msg, k.AttachChoose):
		path := strings.TrimSpace(p.input.String())
		if path == "" || p.busy {
			return p, nil, nil
		}
		p.busy = true
		return p, nil, AttachChosen{workspace.ExpandPath(path, p.dir, p.home)}
	case key.Matches(msg, k.AttachComplete):
		input, dir, home := p.input.String(), p.dir, p.home
		return p, func() tea.Msg { return Completion{input, workspace.CompletePath(input, dir, home)} }, nil
	default:
		p.input.Key(k.FieldKeys(), msg)
	}
	p.matches, p.err = nil, ""
	return p, nil, nil
}

// complete applies a completion result: one match completes it, several
// complete their common prefix and are listed.
func (p *Attach) complete(m Completion) {
	if p.input.String() != m.input {
		return
	}
	p.matches = m.matches
	switch len(m.matches) {
	case 0:
		p.err = "no such file"
	case 1:
		p.input.Set(m.matches[0])
		p.matches = nil
	default:
		p.input.Set(workspace.CommonPrefix(m.matches))
	}
}

func (p *Attach) View(width, _ int) []string {
	lines := []string{"Attach a file:", p.input.View("> ", width)}
	if p.busy {
		lines = append(lines, "storing…")
	}
	if p.err != "" {
		lines = append(lines, p.err)
	}
	for i, m := range p.matches {
		if i == 8 {
			lines = append(lines, fmt.Sprintf("… and %d more", len(p.matches)-8))
			break
		}
		lines = append(lines, "  "+m)
	}
	for i := range lines {
		lines[i] = chips.Truncate(chips.SanitizeLine(lines[i]), width)
	}
	return lines
}
