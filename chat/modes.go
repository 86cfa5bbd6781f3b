package chat

import "strings"

// Modes and config options (issue 12 item 3): what the modes picker — alt+m,
// /mode, /model — offers from a thread's Info, and how a `/mode x` argument
// resolves.
//
// Decisions: when the agent offers both modes and a config option of
// category "mode" (Claude Code and Codex send both, kept in step by the
// agent), the option is listed and the modes are not (ACP deprecates
// modes), so each mode is listed once; an agent with only modes has them
// listed. A boolean option is one row that toggles it (its Value is the
// value it sets: the other one). An argument names a choice by its id or
// its name, in any case.

// ModeScope is what the modes picker lists.
type ModeScope int

const (
	ScopeAll    ModeScope = iota // the modes and every config option
	ScopeModes                   // the modes (or the "mode" option)
	ScopeModels                  // the options of category "model"
)

// ModeChoice is one row of the modes picker: a mode, or a value of a
// config option.
type ModeChoice struct {
	Mode    bool   // a session mode (else a config option's value)
	Option  string // config option id
	Value   string // mode id or option value id
	Name    string // the mode's or the value's name (its id when unnamed)
	Label   string // for the toast: "mode Plan", "Model: gpt-5"
	Detail  string // the agent's description of the mode or value
	Current bool
	// Toggle: the row of a boolean option; Current says it is on, and
	// choosing it sets Value, the other state (space toggles it).
	Toggle bool
}

// IsModeOption says whether a config option stands for the session mode.
func IsModeOption(o ConfigOption) bool {
	return o.Category == "mode" || o.ID == "mode"
}

// ModeChoices lists what the picker offers in scope: the modes, then the
// mode option, then the other options in the agent's order.
func ModeChoices(info Info, scope ModeScope) []ModeChoice {
	var out []ModeChoice
	hasModeOption := false
	for _, o := range info.Options {
		hasModeOption = hasModeOption || (IsModeOption(o) && len(o.Values) > 0)
	}
	if scope != ScopeModels && !hasModeOption {
		for _, m := range info.Modes.Available {
			name := or(m.Name, m.ID)
			out = append(out, ModeChoice{Mode: true, Value: m.ID, Name: name, Label: "mode " + name,
				Detail: m.Description, Current: m.ID == info.Modes.Current})
		}
	}
	opts := make([]ConfigOption, 0, len(info.Options))
	for _, o := range info.Options {
		if IsModeOption(o) {
			opts = append(opts, o)
		}
	}
	for _, o := range info.Options {
		if !IsModeOption(o) {
			opts = append(opts, o)
		}
	}
	for _, o := range opts {
		isMode, isModel := IsModeOption(o), o.Category == "model"
		switch {
		case scope == ScopeModes && !isMode:
			continue
		case scope == ScopeModels && !isModel:
			continue
		}
		name := or(o.Name, o.ID)
		if o.Boolean {
			on := o.Current == "true"
			c := ModeChoice{Option: o.ID, Value: "true", Name: name, Label: name + ": on", Current: on, Toggle: true}
			if on {
				c.Value, c.Label = "false", name+": off"
			}
			out = append(out, c)
			continue
		}
		for _, v := range o.Values {
			vn, detail, label := or(v.Name, v.ID), v.Description, ""
			if isMode {
				// Listed as the modes are: the mode's own name and
				// description where the value has none.
				vn, detail = info.modeValueName(v), or(detail, info.modeDescription(v.ID))
				label = "mode " + vn
			} else {
				label = name + ": " + vn
			}
			out = append(out, ModeChoice{Option: o.ID, Value: v.ID, Name: vn, Label: label,
				Detail: detail, Current: v.ID == o.Current})
		}
	}
	return out
}

// ResolveMode is the choice in scope that arg names (its id or name, any
// case); false when none does (the picker opens filtered by arg).
func ResolveMode(info Info, scope ModeScope, arg string) (ModeChoice, bool) {
	if arg == "" {
		return ModeChoice{}, false
	}
	for _, c := range ModeChoices(info, scope) {
		if strings.EqualFold(arg, c.Value) || strings.EqualFold(arg, c.Name) {
			return c, true
		}
	}
	return ModeChoice{}, false
}

// IsCurrent says whether the agent reports c as current (a switch to it
// landed).
func (info Info) IsCurrent(c ModeChoice) bool {
	for _, x := range ModeChoices(info, ScopeAll) {
		if x.Mode == c.Mode && x.Option == c.Option && x.Value == c.Value {
			return x.Current
		}
	}
	return false
}

// Choose switches the thread to c: its mode, or its option's value.
func (s *Service) Choose(threadID string, c ModeChoice) {
	if c.Mode {
		s.SetMode(threadID, c.Value)
		return
	}
	s.SetConfigOption(threadID, c.Option, c.Value)
}

// or is s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ModeName is the name of the session's current mode ("" none): the
// mode's, else the "mode" option's value.
func (info Info) ModeName() string {
	for _, o := range info.Options {
		if IsModeOption(o) && o.Current != "" && len(o.Values) > 0 {
			for _, v := range o.Values {
				if v.ID == o.Current {
					return info.modeValueName(v)
				}
			}
			return o.Current
		}
	}
	if m := info.Modes.Current; m != "" {
		for _, x := range info.Modes.Available {
			if x.ID == m && x.Name != "" {
				return x.Name
			}
		}
		return m
	}
	for _, o := range info.Options {
		if IsModeOption(o) && o.Current != "" {
			return o.valueName(o.Current)
		}
	}
	return ""
}

// ModelName is the name of the current model ("" none): the value of the
// first option of category "model".
func (info Info) ModelName() string {
	for _, o := range info.Options {
		if o.Category == "model" && o.Current != "" {
			return o.valueName(o.Current)
		}
	}
	return ""
}

// valueName is the name an option gives one of its values.
func (o ConfigOption) valueName(id string) string {
	for _, v := range o.Values {
		if v.ID == id && v.Name != "" {
			return v.Name
		}
	}
	return id
}

// modeValueName is the name of a value of the mode option: its own, else
// the mode's of that id, else the id.
func (info Info) modeValueName(v ConfigValue) string {
	if v.Name != "" {
		return v.Name
	}
	for _, m := range info.Modes.Available {
		if m.ID == v.ID && m.Name != "" {
			return m.Name
		}
	}
	return v.ID
}

// modeDescription is the description of the mode id ("" none).
func (info Info) modeDescription(id string) string {
	for _, m := range info.Modes.Available {
		if m.ID == id {
			return m.Description
		}
	}
	return ""
}

// Names are what the modes picker lists in scope, in words ("models") and
// as its title ("model").
func (scope ModeScope) Names() (what, title string) {
	switch scope {
	case ScopeModes:
		return "modes", "mode"
	case ScopeModels:
		return "models", "model"
	}
	return "modes or settings", "mode · model"
}

// Status is the header's part for the agent's state: " · mode X · model
// Y · ctx 42% · $0.12", the names the agent gives them and the usage it
// reported (UsageLine).
func (info Info) Status() string {
	var s string
	if m := info.ModeName(); m != "" {
		s += " · mode " + m
	}
	if m := info.ModelName(); m != "" {
		s += " · model " + m
	}
	if u := info.UsageLine(); u != "" {
		s += " · " + u
	}
	return s
}
