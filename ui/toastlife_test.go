package ui

import (
	"strings"
	"testing"
)

// Issue 25 item 10: "switching to mode Plan" goes when the switch lands
// (the header says mode Plan), not 4 s later.
func TestModeToastEndsWithTheSwitch(t *testing.T) {
	b := &acpLike{}
	h := openACPLike(t, b)
	h.press("alt+m")
	h.typeText("plan")
	h.press("enter")
	h.pumpUntil("the new mode in the header", func() bool {
		return strings.Contains(strings.Split(h.plain(), "\n")[0], "mode Plan")
	})
	if scr := h.plain(); strings.Contains(scr, "switching to mode Plan") {
		t.Fatalf("the toast outlived the switch:\n%s", scr)
	}
}
