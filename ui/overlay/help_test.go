package overlay

import (
	"strings"
	"testing"
)

// Issue 25 item 15: paging down stops with the help's last row at the
// bottom (it scrolled on into blank rows).
func TestHelpStopsAtItsLastPage(t *testing.T) {
	var lines []string
	for i := range 50 {
		lines = append(lines, "line "+strings.Repeat("x", i%7))
	}
	h := NewHelp(nil, lines)
	h.top = 1000
	if v := h.View(80, 20); len(v) != 20 || v[19] != lines[49] {
		t.Fatalf("the last page shows %d rows ending %q", len(v), v[len(v)-1])
	}
}
