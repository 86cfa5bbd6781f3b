package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
)

// Issue 25 item 14: the echo agent's reply (a text fence) wrapped at the
// screen's width starts its continuation rows under the code, not one
// column right of it, also in colour (each token opens its style, so the
// space the wrap broke at came after an escape sequence).
func TestWrappedCodeRowsHaveNoStraySpace(t *testing.T) {
	m := New(chips.Default(chips.DefaultTheme()))
	m.SetSize(60, 30)
	m.SetMessages([]Message{agentMsg("a", "Echo agent:\n\n```text\n── 2 user · this message ──\n"+
		"the quick brown fox jumps over the lazy dog and then some more words to wrap around the edge of it all\n```\n")})
	v := ansi.Strip(m.View())
	rows := 0
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "some more words") || strings.Contains(l, "the edge") {
			rows++
			if !strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "     ") {
				t.Errorf("a wrapped code row is not under the code: %q\n%s", l, v)
			}
		}
	}
	if rows == 0 {
		t.Fatalf("no wrapped row:\n%s", v)
	}
}

func TestTrimLeftSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"  a b":                         "a b",
		"\x1b[31m some\x1b[m":           "\x1b[31msome\x1b[m",
		"\x1b[1m\x1b[31m  x":            "\x1b[1m\x1b[31mx",
		"\x1b]8;;http://x\x07 link":     "\x1b]8;;http://x\x07link",
		"   ":                           "",
		"no space":                      "no space",
		"\x1b[38;5;2m":                  "\x1b[38;5;2m",
		"\x1b]8;;u\x1b\\ a\x1b]8;;\x07": "\x1b]8;;u\x1b\\a\x1b]8;;\x07",
	} {
		if got := trimLeftSpaces(in); got != want {
			t.Errorf("trimLeftSpaces(%q) = %q, want %q", in, got, want)
		}
	}
}
