package ui

import (
	"strings"
	"testing"
)

// Backspace next to a chip selects it first; while it is selected the
// hint bar says the next backspace deletes it (issue 25 item 18).
func TestHintBarSaysBackspaceDeletesTheSelectedChip(t *testing.T) {
	e := newTestEnv(t)
	e.writeFile("notes.txt", []byte("hello\n"))
	h := e.open("")
	h.attach("notes.txt")
	h.clearToast()
	h.press("backspace")
	if f := h.footer(); !strings.Contains(f, "backspace deletes the chip") {
		t.Fatalf("with the chip selected the hint bar says %q", f)
	}
	h.press("backspace")
	if f := h.footer(); strings.Contains(f, "deletes the chip") || len(h.app.ed.Draft().Records()) != 0 {
		t.Fatalf("after the second backspace: footer %q, records %d", f, len(h.app.ed.Draft().Records()))
	}
}
