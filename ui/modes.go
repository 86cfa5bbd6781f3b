package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/ui/keymap"
)

// Modes and config options (issue 12 item 3): one picker — alt+m, /mode,
// /model — lists the session modes and the config options the agent
// offers (chat.ModeChoices over the thread's chat.Info: which ones, and how
// an argument resolves, are chat's rules). Choosing calls
// chat.Service.Choose; the header shows the current mode and model
// (agentStatus). /mode and /model with an argument switch at once when it
// names a choice, else they open the picker filtered by it.

// modeItems are the picker's rows for choices.
func modeItems(cs []chat.ModeChoice) []composer.PickerItem {
	items := make([]composer.PickerItem, len(cs))
	for i, c := range cs {
		title, detail := "  "+c.Label, c.Detail
		if c.Current {
			title = "● " + c.Label
			detail = strings.TrimSuffix("current · "+detail, " · ")
		}
		items[i] = composer.PickerItem{Title: title, Detail: detail, Value: strconv.Itoa(i)}
	}
	return items
}

// openModes opens the modes picker on scope, filtered by query.
func (c *conversation) openModes(scope chat.ModeScope, query string) tea.Cmd {
	if !c.chat.Capabilities().Modes {
		return c.notify(chips.SanitizeLine(c.chat.AgentName())+" has no modes or models to switch", true)
	}
	cs := chat.ModeChoices(c.info(), scope)
	what, title := "modes or settings", "mode · model"
	switch scope {
	case chat.ScopeModes:
		what, title = "modes", "mode"
	case chat.ScopeModels:
		what, title = "models", "model"
	}
	if len(cs) == 0 {
		return c.notify("the agent has told of no "+what+" yet (it does once a turn has started the session)", false)
	}
	p := composer.NewPicker(title)
	p.SetItems(modeItems(cs))
	p.SetQuery(query)
	c.ovs.Remove(is[*commandPicker]) // the modes picker takes its place
	c.ovs.Push(&modesPicker{k: &c.ed.Keys, interrupt: c.keys.Interrupt, p: p, scope: scope, values: cs})
	return nil
}

// modesPicker is the modes picker, drawn over the bottom of the main area:
// typing filters, up/down move, enter switches, esc closes.
type modesPicker struct {
	k         *composer.KeyMap // the composer's picker keys, as the config binds them
	interrupt key.Binding      // ctrl+c closes it and goes on (cancel, clear)
	p         *composer.Picker
	scope     chat.ModeScope
	values    []chat.ModeChoice
}

// modeChosen is the mode or value the picker chose.
type modeChosen struct{ c chat.ModeChoice }

func (m *modesPicker) placement() placement { return atBottom }
func (m *modesPicker) Scope() keymap.Scope  { return keymap.ScopePicker }
func (m *modesPicker) Hints() string {
	return "type to filter · ↑↓ choose · enter switch · esc close"
}
func (m *modesPicker) View(width, height int) []string {
	return strings.Split(m.p.View(width, min(m.p.Len()+2, 12, height)), "\n")
}

// modeCommand is /mode and /model: switch at once when args names a
// choice, else open the picker.
func (c *conversation) modeCommand(scope chat.ModeScope, args string) tea.Cmd {
	if ch, ok := chat.ResolveMode(c.info(), scope, args); ok {
		return c.applyMode(ch)
	}
	return c.openModes(scope, args)
}

// applyMode switches to ch.
func (c *conversation) applyMode(ch chat.ModeChoice) tea.Cmd {
	if ch.Current {
		return c.notify(chips.SanitizeLine(ch.Label)+" is already on", false)
	}
	c.chat.Choose(c.thread.ID, ch)
	return c.notify("switching to "+chips.SanitizeLine(ch.Label), false)
}

func (m *modesPicker) Update(msg tea.Msg) (Overlay, tea.Cmd, any) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil, nil
	}
	k := m.k
	switch s := km.String(); {
	case key.Matches(km, m.interrupt):
		return nil, nil, passKey{}
	case key.Matches(km, k.PickerClose):
		return nil, nil, nil
	case key.Matches(km, k.PickerPrev):
		m.p.Move(-1)
	case key.Matches(km, k.PickerNext) || s == "tab":
		m.p.Move(1)
	case s == "enter" || key.Matches(km, k.PickerChoose):
		it, ok := m.p.Selected()
		if !ok {
			return m, nil, nil
		}
		i, err := strconv.Atoi(it.Value)
		if err != nil || i < 0 || i >= len(m.values) {
			return m, nil, nil
		}
		return nil, nil, modeChosen{m.values[i]}
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

// refreshModes re-reads an open modes picker after AgentInfo (the current
// mark moves; the selection stays on its row).
func (c *conversation) refreshModes() {
	m, ok := overlayOf[*modesPicker](c.ovs)
	if !ok {
		return
	}
	m.values = chat.ModeChoices(c.info(), m.scope)
	m.p.SetItems(modeItems(m.values))
}

// agentStatus is the header's part for the agent's state: " · mode X ·
// model Y", the names the agent gives them.
func agentStatus(info chat.Info) string {
	var s string
	if m := info.ModeName(); m != "" {
		s += " · mode " + m
	}
	if m := info.ModelName(); m != "" {
		s += " · model " + m
	}
	return s
}
