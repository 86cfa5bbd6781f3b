package ui

import (
	"strings"
	"testing"
)

// A key bound only in another scope, pressed in the composer, says where
// it acts instead of doing nothing without a word; the composer's own keys
// and esc never toast, and nothing is typed into the draft.
func TestKeyOfAnotherScopeSaysWhereItActs(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	for k, want := range map[string]string{
		"alt+o":      "alt+o works in the terminal pane",
		"ctrl+space": "ctrl+space works in the terminal pane",
		"alt+n":      "alt+n works in the terminal pane",
	} {
		h.clearToast()
		h.press(k)
		if got := h.app.Toast(); got != want {
			t.Errorf("%s in the composer: toast %q, want %q", k, got, want)
		}
	}
	if !h.app.ed.Draft().IsEmpty() {
		t.Errorf("the keys typed into the draft: %q", h.app.ed.Draft().Markdown())
	}
	h.clearToast()
	h.typeText("hi")
	h.press("ctrl+a", "esc")
	if got := h.app.Toast(); strings.Contains(got, "works in") {
		t.Errorf("a composer key or esc toasted %q", got)
	}
}
