package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
)

// Modes and config options (issue 12 item 3): one picker — alt+m, /mode,
// /model — lists the session modes and the config options the agent
// offers, from a.info (chat's AgentInfo events). Choosing calls
// chat.Service.SetMode or SetConfigOption (the backend's session/set_mode,
// session/set_config_option, or session/set_model for chat.ModelOption);
// the header shows the current mode and model (agentStatus).
//
// Decisions: when the agent offers modes, a config option of category
// "mode" (Claude Code sends both, kept in step by the agent) is left out so
// each mode is listed once; an agent with a "mode" option and no modes has
// it listed as its modes. /mode and /model with an argument switch at once
// when it names a mode or value (id or name, any case), else they open the
// picker filtered by it.

// modeScope is what the modes picker lists.
type modeScope int

const (
	scopeAll modeScope = iota
	scopeModes
	scopeModels
)

// modeChoice is one row of the modes picker: a mode, or a value of a
// config option.
type modeChoice struct {
	mode    bool
	option  string // config option id
	value   string // mode id or option value id
	label   string // for the toast: "mode Plan", "Model: gpt-5"
	current bool
}

// isModeOption says whether a config option stands for the session mode.
func isModeOption(o chat.ConfigOption) bool {
	return o.Category == "mode" || o.ID == "mode"
}

// modeChoices lists what the picker offers in scope.
func modeChoices(info chat.Info, scope modeScope) []modeChoice {
	var out []modeChoice
	hasModes := len(info.Modes.Available) > 0
	if scope != scopeModels {
		for _, m := range info.Modes.Available {
			name := m.Name
			if name == "" {
				name = m.ID
			}
			out = append(out, modeChoice{mode: true, value: m.ID, label: "mode " + name, current: m.ID == info.Modes.Current})
		}
	}
	// The mode option first (the modes' place), then the others in the
	// agent's order.
	opts := make([]chat.ConfigOption, 0, len(info.Options))
	for _, o := range info.Options {
		if isModeOption(o) {
			opts = append(opts, o)
		}
	}
	for _, o := range info.Options {
		if !isModeOption(o) {
			opts = append(opts, o)
		}
	}
	for _, o := range opts {
		isMode, isModel := isModeOption(o), o.Category == "model"
		switch {
		case isMode && hasModes:
			continue
		case scope == scopeModes && !isMode:
			continue
		case scope == scopeModels && !isModel:
			continue
		}
		name := o.Name
		if name == "" {
			name = o.ID
		}
		for _, v := range o.Values {
			vn := v.Name
			if vn == "" {
				vn = v.ID
			}
			out = append(out, modeChoice{option: o.ID, value: v.ID, label: name + ": " + vn, current: v.ID == o.Current})
		}
	}
	return out
}

// modeItems are the picker's rows for choices.
func modeItems(info chat.Info, cs []modeChoice) []composer.PickerItem {
	items := make([]composer.PickerItem, len(cs))
	for i, c := range cs {
		detail := ""
		if c.mode {
			for _, m := range info.Modes.Available {
				if m.ID == c.value {
					detail = m.Description
				}
			}
		} else {
			for _, o := range info.Options {
				if o.ID != c.option {
					continue
				}
				for _, v := range o.Values {
					if v.ID == c.value {
						detail = v.Description
					}
				}
			}
		}
		title := "  " + c.label
		if c.current {
			title = "● " + c.label
			detail = strings.TrimSuffix("current · "+detail, " · ")
		}
		items[i] = composer.PickerItem{Title: title, Detail: detail, Value: strconv.Itoa(i)}
	}
	return items
}

// openModes opens the modes picker on scope, filtered by query.
func (a *App) openModes(scope modeScope, query string) tea.Cmd {
	if !a.chat.Capabilities().Modes {
		return a.notify(chips.SanitizeLine(a.chat.AgentName())+" has no modes or models to switch", true)
	}
	cs := modeChoices(a.info, scope)
	if len(cs) == 0 {
		what := "modes or settings"
		switch scope {
		case scopeModes:
			what = "modes"
		case scopeModels:
			what = "models"
		}
		return a.notify("the agent has told of no "+what+" yet (it does once a turn has started the session)", false)
	}
	title := "mode · model"
	switch scope {
	case scopeModes:
		title = "mode"
	case scopeModels:
		title = "model"
	}
	p := composer.NewPicker(title)
	p.SetItems(modeItems(a.info, cs))
	p.SetQuery(query)
	a.ovs.Remove(is[*commandPicker]) // the modes picker takes its place
	a.ovs.Push(&modesPicker{k: &a.ed.Keys, interrupt: a.keys.Interrupt, p: p, scope: scope, values: cs})
	return nil
}

// modesPicker is the modes picker, drawn over the bottom of the main area:
// typing filters, up/down move, enter switches, esc closes.
type modesPicker struct {
	k         *composer.KeyMap // the composer's picker keys, as the config binds them
	interrupt key.Binding      // ctrl+c closes it and goes on (cancel, clear)
	p         *composer.Picker
	scope     modeScope
	values    []modeChoice
}

// modeChosen is the mode or value the picker chose.
type modeChosen struct{ c modeChoice }

func (m *modesPicker) placement() placement { return atBottom }
func (m *modesPicker) Scope() Scope         { return ScopePicker }
func (m *modesPicker) Hints() string {
	return "type to filter · ↑↓ choose · enter switch · esc close"
}
func (m *modesPicker) View(width, height int) []string {
	return strings.Split(m.p.View(width, min(m.p.Len()+2, 12, height)), "\n")
}

// modeCommand is /mode and /model: switch at once when args names a
// choice, else open the picker.
func (a *App) modeCommand(scope modeScope, args string) tea.Cmd {
	if args != "" {
		for _, c := range modeChoices(a.info, scope) {
			_, vname, _ := strings.Cut(c.label, ": ")
			if c.mode {
				vname = strings.TrimPrefix(c.label, "mode ")
			}
			if strings.EqualFold(args, c.value) || strings.EqualFold(args, vname) {
				return a.applyMode(c)
			}
		}
	}
	return a.openModes(scope, args)
}

// applyMode switches to c.
func (a *App) applyMode(c modeChoice) tea.Cmd {
	if c.current {
		return a.notify(chips.SanitizeLine(c.label)+" is already on", false)
	}
	if c.mode {
		a.chat.SetMode(a.thread.ID, c.value)
	} else {
		a.chat.SetConfigOption(a.thread.ID, c.option, c.value)
	}
	return a.notify("switching to "+chips.SanitizeLine(c.label), false)
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
func (a *App) refreshModes() {
	m, ok := overlayOf[*modesPicker](a.ovs)
	if !ok {
		return
	}
	cs := modeChoices(a.info, m.scope)
	m.values = cs
	m.p.SetItems(modeItems(a.info, cs))
}

// agentStatus is the header's part for the agent's state: " · mode X ·
// model Y", the names the agent gives them.
func agentStatus(info chat.Info) string {
	var b strings.Builder
	if m := info.Modes.Current; m != "" {
		b.WriteString(" · mode " + modeName(info.Modes, m))
	} else {
		for _, o := range info.Options {
			if isModeOption(o) && o.Current != "" {
				b.WriteString(" · mode " + valueName(o, o.Current))
				break
			}
		}
	}
	for _, o := range info.Options {
		if o.Category == "model" && o.Current != "" {
			b.WriteString(" · model " + valueName(o, o.Current))
			break
		}
	}
	return b.String()
}

// valueName is the name an option gives one of its values.
func valueName(o chat.ConfigOption, id string) string {
	for _, v := range o.Values {
		if v.ID == id && v.Name != "" {
			return v.Name
		}
	}
	return id
}
