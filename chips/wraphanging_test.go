package chips

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

// Issue 25 item 15: at 80 columns, where the description column leaves
// too little room, a wrapped description is indented under its row (it
// restarted at column 1); paging down stops with the last row at the
// bottom (it scrolled on into blank rows).
func TestHelpWrapAt80Columns(t *testing.T) {
	l := "   interrupt              ctrl+c                             cancel the running turn from anywhere (pending agent questions answered cancelled) / clear the draft / twice: quit"
	rows := wrapHanging(l, 80)
	if len(rows) < 2 {
		t.Fatalf("not wrapped: %q", rows)
	}
	for _, r := range rows[1:] {
		if ansi.StringWidth(r) > 80 || !strings.HasPrefix(r, strings.Repeat(" ", 7)) {
			t.Errorf("continuation %q restarts left of its row", r)
		}
	}
	if got := strings.Join(strings.Fields(strings.Join(rows, " ")), " "); got != strings.Join(strings.Fields(l), " ") {
		t.Errorf("words lost or reordered:\n%s", got)
	}
}

// A word cut at the edge (a long path) is not split by a space when the
// rest is wrapped again.
func TestHelpWrapKeepsACutWordWhole(t *testing.T) {
	l := "Keys (set any of them in /tmp/TestEndToEndHelpAt80Columns1622577352/001/home/.config/chipchat/config.toml, [keys] table)"
	rows := WrapHanging([]string{l}, 80)
	if got := strings.Join(strings.Fields(strings.Join(rows, "")), ""); got != strings.Join(strings.Fields(l), "") {
		t.Fatalf("the text changed:\n%q", rows)
	}
	for _, r := range rows[1:] {
		if !strings.HasPrefix(r, "    ") || ansi.StringWidth(r) > 80 {
			t.Errorf("row %q", r)
		}
	}
}
