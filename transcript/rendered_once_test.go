//go:build !race

// Not under -race: it renders 3,000 messages (seconds without it).

package transcript

import (
	"testing"

	"github.com/chipchat/chipchat/chips"
)

// A long thread is rendered once per width: paging from the bottom to the
// top of 3,000 messages (some 5,000 text blocks) and back renders nothing
// on the way back, and a resize renders again what is drawn.
func TestLongThreadRenderedOncePerWidth(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 3,000 messages")
	}
	msgs := benchThread(3000)
	m := New(chips.Default(chips.DefaultTheme()))
	m.SetSize(120, 40)
	m.SetMessages(msgs)
	m.Focus()
	m.View()
	pages := 0
	for ; m.top != m.firstPart(0) || m.off != 0; pages++ {
		if pages > 100000 {
			t.Fatal("paging up never reached the top")
		}
		press(m, "pgup")
		m.View()
	}
	first := m.renders
	for range pages + 10 {
		press(m, "pgdown")
		m.View()
	}
	if !m.AtBottom() {
		t.Fatal("paging down did not reach the bottom")
	}
	if n := m.renders - first; n != 0 {
		t.Fatalf("paging back down through %d pages rendered %d parts again (of %d)", pages, n, first)
	}
	m.SetSize(100, 40)
	m.View()
	if m.renders == first {
		t.Fatal("a new width rendered nothing")
	}
}
