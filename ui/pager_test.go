package ui

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/transcript"
)

// `o` hands the item to $PAGER through a private file holding its text,
// with escape sequences stripped.
func TestPagerGetsTheWholeItemSanitized(t *testing.T) {
	e := newTestEnv(t)
	h := e.open("")
	h.hold = func(m tea.Msg) bool { _, ok := m.(pagerFileMsg); return ok }
	text := strings.Repeat("line of the reply\n", 1000) + "end \x1b[2J\x1b]0;owned\x07 done"
	h.update(transcript.PagerMsg{Title: "reply", Text: text})
	h.pumpUntil("the file for the pager", func() bool { return len(h.held) == 1 })
	m := h.held[0].(pagerFileMsg)
	if m.err != nil {
		t.Fatal(m.err)
	}
	defer os.Remove(m.path)
	b, err := os.ReadFile(m.path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	if strings.Contains(got, "\x1b") || !strings.Contains(got, "end ") || !strings.Contains(got, " done") || strings.Count(got, "line of the reply") != 1000 {
		t.Fatalf("pager file: %d bytes, escapes %v", len(got), strings.Contains(got, "\x1b"))
	}
	if fi, _ := os.Stat(m.path); fi.Mode().Perm() != 0o600 {
		t.Errorf("pager file mode %v, want 0600", fi.Mode().Perm())
	}
}
