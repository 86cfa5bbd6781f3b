package overlay

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A long help line wraps under its own column, not under the key names.
func TestHelpWrapsUnderItsColumn(t *testing.T) {
	l := "   cancel                 esc                                close the innermost open thing (picker, popup, prompt, selection, pane); with nothing open, cancel the running turn"
	rows := wrapHanging(l, 100)
	if len(rows) < 2 {
		t.Fatalf("not wrapped: %q", rows)
	}
	col := strings.Index(l, "close")
	for _, r := range rows[1:] {
		if ansi.StringWidth(r) > 100 || !strings.HasPrefix(r, strings.Repeat(" ", col)) || r[col] == ' ' {
			t.Errorf("continuation %q is not under column %d", r, col)
		}
	}
	if short := wrapHanging("   quit  ctrl+q  quit", 80); len(short) != 1 {
		t.Errorf("a short line was wrapped: %q", short)
	}
}
