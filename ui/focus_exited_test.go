package ui

import (
	"strings"
	"testing"
)

// Tab never moves focus to a terminal tab whose shell has exited: what
// the user types then would go nowhere. Focus goes composer → transcript
// → composer, and the text typed after it lands in the draft.
func TestFocusSkipsAnExitedTerminal(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.app.panes.pane.Shell = []string{"/bin/sh", "-c", "exit 0"}
	h.press("ctrl+t")
	h.pumpUntil("the shell to exit", func() bool { return strings.Contains(h.plain(), "process exited") })
	h.press("ctrl+t") // back to the composer
	if h.app.focus != paneComposer {
		t.Fatalf("focus %v after leaving the pane", h.app.focus)
	}
	h.press("tab")
	if h.app.focus != paneTranscript {
		t.Fatalf("tab from the composer: focus %v", h.app.focus)
	}
	h.press("tab")
	if h.app.focus != paneComposer {
		t.Fatalf("tab from the transcript went to the exited terminal (focus %v)", h.app.focus)
	}
	h.typeText("kept")
	if got := h.app.ed.Draft().Markdown(); got != "kept" {
		t.Fatalf("typed text after the tabs: draft %q", got)
	}
}
