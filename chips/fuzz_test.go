package chips

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

// FuzzRender draws chips of every kind (and unresolved ones) with random
// labels, texts and widths: no panic, never empty, never wider than the
// width, compact on one line, and no escape sequence from the input on the
// screen — the only sequences left are the SGR styles the package adds.
func FuzzRender(f *testing.F) {
	f.Add("label", "text", 20, uint8(0), false)
	f.Add("日本語のラベル", "👩‍💻 e\u0301", 4, uint8(2), true)
	f.Add("\x1b[2J", "\x1b]0;t\x07\x1b]8;;x\x1b\\y", 7, uint8(5), false)
	f.Add("\u009b31m", "\xc3\x1b[2J\r\n\t", 1, uint8(9), true)
	f.Add("", "", -3, uint8(10), false)
	f.Add("🇺🇸🇬🇧", "\u202eabc", 5, uint8(8), false)
	themes := []Theme{DefaultTheme(), NoColorTheme()}
	regs := []*Registry{Default(themes[0]), Default(themes[1])}
	f.Fuzz(func(t *testing.T, label, text string, width int, pick uint8, selected bool) {
		recs := sampleRecords(label, text)
		var c Chip
		switch i := int(pick) % 12; {
		case i < len(recs):
			c = chipOf(recs[i])
		case i == 8: // missing record
			c = Chip{Kind: text, ContextID: label}
		case i == 9: // unknown kind with a payload
			payload, _ := json.Marshal(map[string]string{"t": text})
			c = Chip{Kind: "future", ContextID: "u", Record: &contextref.UnknownRecord{
				Base: contextref.NewBase("future", "u", label), Payload: payload}}
		case i == 10: // kind mismatch
			c = chipOf(recs[int(pick)%len(recs)])
			c.Kind = contextref.KindSkill
			if c.Record.RecordBase().Kind == contextref.KindSkill {
				c.Kind = contextref.KindMention
			}
		default: // review comment with a pull request in some state
			c = chipOf(recs[5])
			pr := c.Record.(*contextref.ReviewCommentRecord).PullRequest
			pr.State = []string{"open", "merged", "closed", text}[int(pick/12)%4]
			pr.IsDraft = selected
		}
		c.Label = label
		c.Selected = selected
		w := width
		if w > 0 {
			w = 4 + w%200
		}
		reg := regs[int(pick/16)%2]
		for _, s := range surfaces {
			out := reg.Render(s, c, w)
			checkOutput(t, s.String(), out, s, w)
			for _, bad := range []string{"\x1b]", "\x1bP", "\x1b_", "\x1b[2J", "\x07"} {
				if strings.Contains(out, bad) {
					t.Fatalf("%s: %q survived: %q", s, bad, out)
				}
			}
		}
		for _, fn := range []func(string) string{Sanitize, SanitizeLine} {
			out := fn(label + text)
			if strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, '\r') {
				t.Fatalf("sanitize left a control: %q", out)
			}
		}
		if width > 0 {
			if got := Truncate(label, width%100+1); len(got) > 0 && checkWidth(got) > width%100+1 {
				t.Fatalf("Truncate too wide: %q", got)
			}
		}
	})
}
