package composer

import (
	"strconv"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestQueueViewFoldsAndAsksOnlyShownTitles(t *testing.T) {
	if got := QueueView(0, nil, false, 80, lipgloss.NewStyle()); got != nil {
		t.Fatalf("empty queue: %q", got)
	}
	asked := 0
	title := func(i int) string { asked++; return "message " + strconv.Itoa(i) }
	lines := QueueView(1000, title, true, 40, lipgloss.NewStyle())
	if len(lines) != 5 || asked != 3 {
		t.Fatalf("1000 queued: %d lines, %d titles asked: %q", len(lines), asked, lines)
	}
	if !strings.Contains(lines[0], "queued (1000), paused") || !strings.Contains(lines[4], "… 997 more") || !strings.Contains(lines[1], "⏳ message 0") {
		t.Fatalf("lines: %q", lines)
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 40 {
			t.Fatalf("%q is %d cells wide", l, w)
		}
	}
	if lines = QueueView(4, title, false, 80, lipgloss.NewStyle()); len(lines) != 5 || !strings.Contains(lines[4], "message 3") || !strings.HasPrefix(lines[0], " queued (4) — alt+up") {
		t.Fatalf("4 queued: %q", lines)
	}
}
