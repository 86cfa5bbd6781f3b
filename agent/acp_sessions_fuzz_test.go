package agent

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"
)

// FuzzACPTitle: whatever title the agent sends (session_info_update,
// session/list), chipchat keeps one line without control characters or
// runs of spaces, and a title with visible text keeps that text.
func FuzzACPTitle(f *testing.F) {
	for _, s := range []string{"Fix login bug", "a\nb\r\nc", "\x1b[31mred\x1b[0m", "  \t ", "é\u0085\u2028x", string([]byte{0xff, 'a'})} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := acpTitle(&s)
		if strings.ContainsFunc(got, unicode.IsControl) || strings.Contains(got, "  ") || strings.TrimSpace(got) != got {
			t.Fatalf("acpTitle(%q) = %q", s, got)
		}
		if utf8.ValidString(s) && strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsSpace(r) && !unicode.IsControl(r) }) && got == "" {
			t.Fatalf("acpTitle(%q) lost the visible text", s)
		}
		u := acpUsage(acp.SessionUsageUpdate{Used: len(s), Size: len(got), Cost: &acp.Cost{Amount: 1, Currency: got}})
		if u.Currency != got && got != "" {
			t.Fatalf("usage %+v", u)
		}
	})
}
