package chat

import "testing"

// An agent with a "mode" config option and no modes has it listed as its
// modes; the models scope lists only the model option.
func TestModeAsConfigOption(t *testing.T) {
	info := Info{Options: []ConfigOption{
		{ID: "mode", Name: "Mode", Current: "build", Values: []ConfigValue{{ID: "build", Name: "Build"}, {ID: "plan", Name: "Plan"}}},
		{ID: "model", Name: "Model", Category: "model", Current: "x", Values: []ConfigValue{{ID: "x", Name: "X 1"}}},
	}}
	cs := ModeChoices(info, ScopeModes)
	if len(cs) != 2 || cs[1].Option != "mode" || cs[1].Value != "plan" || !cs[0].Current || cs[0].Label != "mode Build" {
		t.Fatalf("choices %+v", cs)
	}
	if got := ModeChoices(info, ScopeModels); len(got) != 1 || got[0].Option != "model" {
		t.Fatalf("models %+v", got)
	}
}

// With modes and a "mode" option, the option is listed (with the modes'
// names and descriptions) and the modes are not: each mode once; the mode
// option comes first, then the others in the agent's order.
func TestModeChoices(t *testing.T) {
	info := Info{
		Modes: Modes{Current: "default", Available: []Mode{{ID: "default", Name: "Default", Description: "asks"}, {ID: "plan"}}},
		Options: []ConfigOption{
			{ID: "model", Name: "Model", Category: "model", Current: "m1", Values: []ConfigValue{{ID: "m1", Name: "Fast", Description: "quick"}, {ID: "m2"}}},
			{ID: "mode", Category: "mode", Current: "default", Values: []ConfigValue{{ID: "default"}, {ID: "plan"}}},
		},
	}
	var got []string
	for _, c := range ModeChoices(info, ScopeAll) {
		got = append(got, c.Label+"|"+c.Detail)
	}
	want := []string{"mode Default|asks", "mode plan|", "Model: Fast|quick", "Model: m2|"}
	if len(got) != len(want) {
		t.Fatalf("choices %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("choices %q, want %q", got, want)
		}
	}
	if cs := ModeChoices(info, ScopeModes); len(cs) != 2 || cs[0].Mode || cs[0].Option != "mode" || !cs[0].Current || cs[1].Current {
		t.Fatalf("modes %+v", cs)
	}
	// Modes alone are listed as modes.
	info.Options = info.Options[:1]
	if cs := ModeChoices(info, ScopeModes); len(cs) != 2 || !cs[0].Mode || cs[0].Label != "mode Default" {
		t.Fatalf("modes alone %+v", cs)
	}
}

// An argument names a choice by id or name, in any case, within its scope.
func TestResolveMode(t *testing.T) {
	info := Info{
		Modes:   Modes{Available: []Mode{{ID: "plan", Name: "Plan mode"}}},
		Options: []ConfigOption{{ID: "model", Category: "model", Values: []ConfigValue{{ID: "m2", Name: "Big one"}}}},
	}
	for _, tc := range []struct {
		scope ModeScope
		arg   string
		value string
		ok    bool
	}{
		{ScopeModes, "PLAN", "plan", true},
		{ScopeModes, "plan mode", "plan", true},
		{ScopeModels, "big ONE", "m2", true},
		{ScopeModels, "m2", "m2", true},
		{ScopeModes, "m2", "", false}, // a model is not a mode
		{ScopeModels, "", "", false},
		{ScopeAll, "big", "", false}, // not a prefix match
	} {
		c, ok := ResolveMode(info, tc.scope, tc.arg)
		if ok != tc.ok || c.Value != tc.value {
			t.Errorf("ResolveMode(%v, %q) = %+v, %v", tc.scope, tc.arg, c, ok)
		}
	}
}

// The header's names: the "mode" option's value (named as its mode when
// the value is not), else the current mode's, and the model option's
// value, ids when unnamed.
func TestModeAndModelName(t *testing.T) {
	opts := []ConfigOption{
		{ID: "mode", Current: "build", Values: []ConfigValue{{ID: "build", Name: "Build"}}},
		{ID: "model", Category: "model", Current: "x"},
	}
	if m, n := (Info{Options: opts}).ModeName(), (Info{Options: opts}).ModelName(); m != "Build" || n != "x" {
		t.Fatalf("mode %q, model %q", m, n)
	}
	modes := Modes{Current: "plan", Available: []Mode{{ID: "plan", Name: "Plan"}}}
	if m := (Info{Modes: modes}).ModeName(); m != "Plan" {
		t.Fatalf("mode %q", m)
	}
	both := Info{Modes: modes, Options: []ConfigOption{{ID: "mode", Current: "plan", Values: []ConfigValue{{ID: "plan"}}}}}
	if m := both.ModeName(); m != "Plan" {
		t.Fatalf("mode of both %q", m)
	}
	if m := (Info{}).ModeName() + (Info{}).ModelName(); m != "" {
		t.Fatalf("names %q of nothing", m)
	}
}

// A boolean option is one row that toggles it; an agent without one has
// no such row.
func TestModeChoicesBoolean(t *testing.T) {
	info := Info{Options: []ConfigOption{
		{ID: "fast", Name: "Fast mode", Boolean: true, Current: "false", Values: []ConfigValue{{ID: "true", Name: "on"}, {ID: "false", Name: "off"}}},
		{ID: "effort", Name: "Effort", Current: "low", Values: []ConfigValue{{ID: "low"}, {ID: "high"}}},
	}}
	cs := ModeChoices(info, ScopeAll)
	if len(cs) != 3 || !cs[0].Toggle || cs[0].Current || cs[0].Value != "true" || cs[0].Label != "Fast mode: on" || cs[1].Toggle {
		t.Fatalf("choices %+v", cs)
	}
	info.Options[0].Current = "true"
	if c := ModeChoices(info, ScopeAll)[0]; !c.Current || c.Value != "false" || c.Label != "Fast mode: off" {
		t.Fatalf("on: %+v", c)
	}
	info.Options = info.Options[1:]
	for _, c := range ModeChoices(info, ScopeAll) {
		if c.Toggle {
			t.Errorf("a toggle without a boolean option: %+v", c)
		}
	}
}
