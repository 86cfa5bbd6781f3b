package dialog

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/ui/keymap"
)

// modeItems are the picker's rows for choices.
func modeItems(cs []chat.ModeChoice) []composer.PickerItem {
	items := make([]composer.PickerItem, len(cs))
	for i, c := range cs {
		title, detail := "  "+c.Label, c.Detail
		if c.Toggle { // an on/off option: its box, and space toggles it
			title = map[bool]string{true: "[x] ", false: "[ ] "}[c.Current] + c.Name
		} else if c.Current {
			title = "● " + c.Label
			detail = strings.TrimSuffix("current · "+detail, " · ")
		}
		items[i] = composer.PickerItem{Title: title, Detail: detail, Value: strconv.Itoa(i)}
	}
	return items
}

// Modes is the modes picker, drawn over the bottom of the main area:
// typing filters, up/down move, enter switches, esc closes.
type Modes struct {
	k         *composer.KeyMap // the composer's picker keys, as the config binds them
	interrupt key.Binding      // ctrl+c closes it and goes on (cancel, clear)
	p         *composer.Picker
	scope     chat.ModeScope
	values    []chat.ModeChoice
}

// NewModes lists choices (of scope), filtered by query.
func NewModes(k *composer.KeyMap, interrupt key.Binding, title string, scope chat.ModeScope, choices []chat.ModeChoice, query string) *Modes {
	p := composer.NewPicker(title)
	p.SetItems(modeItems(choices))
	p.SetQuery(query)
	return &Modes{k: k, interrupt: interrupt, p: p, scope: scope, values: choices}
}

// ModeChosen is the mode or value the picker chose.
type ModeChosen struct{ Choice chat.ModeChoice }

// Picker is the picker drawn.
func (m *Modes) Picker() *composer.Picker { return m.p }

// ModeScope is what the picker lists.
func (m *Modes) ModeScope() chat.ModeScope { return m.scope }

// Refresh lists choices anew (the current mark moves; the selection stays
// on its row).
func (m *Modes) Refresh(choices []chat.ModeChoice) {
	m.values = choices
	m.p.SetItems(modeItems(choices))
}

// selected is the choice at the caret (zero: none).
func (m *Modes) selected() chat.ModeChoice {
	it, ok := m.p.Selected()
	if i, err := strconv.Atoi(it.Value); ok && err == nil && i >= 0 && i < len(m.values) {
		return m.values[i]
	}
	return chat.ModeChoice{}
}
func (m *Modes) Placement() Placement { return AtBottom }
func (m *Modes) Scope() keymap.Scope  { return keymap.ScopePicker }
func (m *Modes) Hints() string {
	return "type to filter · " + keymap.PickerHints(m.k, "switch · space toggles")
}
func (m *Modes) View(width, height int) []string {
	return strings.Split(m.p.View(width, min(max(m.p.Len(), 1)+2, 12, height)), "\n")
}

func (m *Modes) Update(msg tea.Msg) (Overlay, tea.Cmd, any) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil, nil
	}
	k := m.k
	switch s := km.String(); {
	case key.Matches(km, m.interrupt):
		return nil, nil, PassKey{}
	case key.Matches(km, k.PickerClose):
		return nil, nil, nil
	case key.Matches(km, k.PickerPrev):
		m.p.Move(-1)
	case key.Matches(km, k.PickerNext) || s == "tab":
		m.p.Move(1)
	case key.Matches(km, k.PickerToggle) && m.selected().Toggle:
		return m, nil, ModeChosen{m.selected()} // the picker stays open; AgentInfo refreshes the box
	case s == "enter" || key.Matches(km, k.PickerChoose):
		if c := m.selected(); c.Value != "" {
			return nil, nil, ModeChosen{c}
		}
	case s == "backspace":
		q := []rune(m.p.Query())
		if len(q) > 0 {
			m.p.SetQuery(string(q[:len(q)-1]))
		}
	default:
		if km.Text != "" && km.Mod&^tea.ModShift == 0 {
			m.p.SetQuery(m.p.Query() + km.Text)
		}
	}
	return m, nil, nil
}
