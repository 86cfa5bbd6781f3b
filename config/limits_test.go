package config

import (
	"strings"
	"testing"
)

// A paste past either bound is long; a bound ≤ 0 is off.
func TestLongPaste(t *testing.T) {
	l := Limits{PasteChipChars: 10, PasteChipLines: 3}
	for text, want := range map[string]bool{"short": false, "ééééééééé": false, "elevenchars": true, "a\nb\nc": false, "a\nb\nc\nd": true} {
		if got := l.LongPaste(text); got != want {
			t.Errorf("LongPaste(%q) = %v", text, got)
		}
	}
	if (Limits{PasteChipChars: -1, PasteChipLines: 0}).LongPaste(strings.Repeat("x\n", 1000)) {
		t.Error("limits off, still long")
	}
}
