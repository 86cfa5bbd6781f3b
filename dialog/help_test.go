package dialog

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
	// Narrow, the rows outnumber the lines: the last page is still reached.
	long := strings.Repeat("word ", 40)
	h = NewHelp(nil, []string{long, long, long, "the end"})
	h.top = 1000
	if v := h.View(20, 5); v[len(v)-1] != "the end" {
		t.Fatalf("the last page ends %q", v[len(v)-1])
	}
}
