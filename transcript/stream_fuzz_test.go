package transcript

import (
	"slices"
	"testing"

	"github.com/chipchat/chipchat/message"
)

// FuzzStreamIncremental: the open block drawn line by line as the text
// grows, in any chunks, is the drawing of its final text from scratch
// (the rows kept from earlier frames are the rows it would draw now).
func FuzzStreamIncremental(f *testing.F) {
	f.Add("# h\n\n```go\nx := 1\n\ty := \"a\"\n```\n- a\n  b\n\npara **b** `c`", 40, 7)
	f.Add("```\n\n\n```\n\t\tx\r\n~~~py\nprint(1)\n", 12, 1)
	f.Add("| a | b |\n|---|---|\n| 1 | 2 |\n", 80, 3)
	f.Fuzz(func(t *testing.T, text string, w, chunk int) {
		if len(text) > 8<<10 {
			return
		}
		w = 8 + abs(w)%130
		chunk = 1 + len(text)/64 + abs(chunk)%300
		m := New(nil)
		m.SetSize(w, 30)
		m.SetMessages([]Message{{ID: "r", Role: message.RoleAssistant, Status: message.StatusStreaming}})
		for n := 0; n < len(text); {
			n = min(len(text), n+chunk)
			m.SetItem("r", 0, message.Item{Kind: message.ItemText, Text: text[:n]})
			m.View()
		}
		i, ok := m.index("r")
		if !ok || len(m.views(i)) == 0 {
			return
		}
		tv := m.textOf(i, 0)
		if tv == nil || tv.mode != modeMarkdown || tv.open.hi <= tv.open.lo {
			return
		}
		cw := m.contentWidth()
		got := slices.Clone(m.drawStream(&tv.stream, tv.src, &tv.open, cw, false))
		var fresh streamDraw
		want := m.drawStream(&fresh, tv.src, &tv.open, cw, false)
		if !slices.Equal(got, want) {
			t.Fatalf("drawn as it grew:\n%q\nfrom scratch:\n%q", got, want)
		}
	})
}
