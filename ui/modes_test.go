package ui

import (
	"github.com/chipchat/chipchat/dialog"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/chat"
)

// alt+m lists the agent's modes and options (the "mode" option left out:
// the agent has modes); choosing one calls the backend's SetMode, and the
// header shows the new mode at once (AgentInfo after the switch).
func TestModesPickerSwitchesMode(t *testing.T) {
	b := &acpLike{}
	h := openACPLike(t, b)
	if hd := strings.Split(h.plain(), "\n")[0]; !strings.Contains(hd, "mode Default") || !strings.Contains(hd, "model Fast one") {
		t.Fatalf("header %q", hd)
	}
	h.press("alt+m")
	if (bottomPicker(h.app) == nil) || !onTop[*dialog.Modes](h.app) {
		t.Fatal("alt+m did not open the modes picker")
	}
	screen := h.plain()
	for _, want := range []string{"● mode Default", "mode Plan", "read only", "Model: Big one", "● Model: Fast one"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the picker lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "Mode: plan") {
		t.Errorf("the mode option is listed beside the modes:\n%s", screen)
	}
	h.typeText("plan")
	h.press("enter")
	h.pumpUntil("the new mode in the header", func() bool {
		return strings.Contains(strings.Split(h.plain(), "\n")[0], "mode Plan")
	})
	if _, calls := b.seen(); len(calls) != 1 || calls[0] != "mode=plan" {
		t.Fatalf("backend calls %q", calls)
	}
	if bottomPicker(h.app) != nil {
		t.Fatal("the picker stayed open")
	}
}

// /model lists only the models and, with an argument naming one, switches
// at once through SetConfigOption; esc closes the picker.
func TestModelCommand(t *testing.T) {
	b := &acpLike{}
	h := openACPLike(t, b)
	h.typeText("/model")
	h.press("esc", "enter")
	h.pumpUntil("the models picker", func() bool { return (bottomPicker(h.app) != nil) })
	if !onTop[*dialog.Modes](h.app) || bottomPicker(h.app).Total() != 2 {
		t.Fatalf("/model: picker %+v", h.app.ovs.Top())
	}
	h.press("esc")
	if bottomPicker(h.app) != nil {
		t.Fatal("esc did not close the modes picker")
	}
	h.typeText("/model big one")
	h.press("enter")
	h.pumpUntil("the new model in the header", func() bool {
		return strings.Contains(strings.Split(h.plain(), "\n")[0], "model Big one")
	})
	if _, calls := b.seen(); len(calls) != 1 || calls[0] != "model=m2" {
		t.Fatalf("backend calls %q", calls)
	}
	if prompts, _ := b.seen(); len(prompts) != 1 {
		t.Fatalf("/model reached the agent as a prompt: %q", prompts)
	}
}

// The header names a "mode" config option's value when the agent has no
// modes (which options the picker lists: chat's TestModeChoices).
func TestModeAsConfigOption(t *testing.T) {
	info := chat.Info{Options: []chat.ConfigOption{
		{ID: "mode", Name: "Mode", Current: "build", Values: []chat.ConfigValue{{ID: "build", Name: "Build"}, {ID: "plan", Name: "Plan"}}},
		{ID: "model", Name: "Model", Category: "model", Current: "x", Values: []chat.ConfigValue{{ID: "x", Name: "X 1"}}},
	}}
	if got := info.Status(); got != " · mode Build · model X 1" {
		t.Fatalf("status %q", got)
	}
}

// Without modes the key says so instead of opening an empty picker.
func TestModesKeyWithoutModes(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.press("alt+m")
	if (bottomPicker(h.app) != nil) || !strings.Contains(h.app.Toast(), "no modes") {
		t.Fatalf("picker %v, toast %q", (bottomPicker(h.app) != nil), h.app.Toast())
	}
}

// ctrl+c acts from the open picker too: the picker closes and the draft
// is cleared, as ctrl+c does anywhere.
func TestModesPickerCtrlC(t *testing.T) {
	b := &acpLike{}
	h := openACPLike(t, b)
	h.typeText("draft")
	h.press("alt+m")
	if bottomPicker(h.app) == nil {
		t.Fatal("alt+m did not open the picker")
	}
	h.press("ctrl+c")
	if (bottomPicker(h.app) != nil) || h.app.ed.Draft().Markdown() != "" {
		t.Fatalf("after ctrl+c: picker %v, draft %q", (bottomPicker(h.app) != nil), h.app.ed.Draft().Markdown())
	}
}
