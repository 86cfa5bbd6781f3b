package transcript

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/message"
)

// FuzzRenderItems: whatever an agent sends — Markdown or plain text,
// streamed in any chunks, tool output, diffs — every drawn row fits the
// width and nothing but styles and links reaches the terminal.
func FuzzRenderItems(f *testing.F) {
	f.Add("# h\n\n```go\nx\n```\n| a |\n|---|\n| 1 |\n- a\n  b", "old\n", "new\n", 40, 7, false)
	f.Add("\x1b]0;title\x07\x1b[2Jtext\r\n\t\tx", "", "", 20, 1, true)
	f.Fuzz(func(t *testing.T, text, old, new string, w, chunk int, plainHint bool) {
		if len(text) > 8<<10 || len(old) > 2<<10 || len(new) > 2<<10 {
			return
		}
		w = 1 + abs(w)%130
		chunk = 1 + len(text)/64 + abs(chunk)%200
		m := New(nil)
		m.SetSize(w, 30)
		m.SetMessages([]Message{{ID: "r", Role: message.RoleAssistant, Status: message.StatusStreaming, PlainText: plainHint}})
		tool := message.Item{Kind: message.ItemTool, Tool: &message.Tool{Kind: "edit", Title: text[:min(len(text), 40)],
			Content: []message.ToolContent{{Type: "text", Text: text}, {Type: "diff", Path: "a.go", OldText: &old, NewText: new}}}}
		check := func() {
			for _, l := range strings.Split(m.View(), "\n") {
				if ansi.StringWidth(l) > w {
					t.Fatalf("row of %d columns at width %d: %q", ansi.StringWidth(l), w, l)
				}
				if !utf8.ValidString(l) {
					t.Fatalf("invalid UTF-8 reached the view: %q", l)
				}
				for _, r := range ansi.Strip(l) {
					if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
						t.Fatalf("control character %U reached the view: %q", r, l)
					}
				}
			}
		}
		for n := 0; n < len(text); {
			n = min(len(text), n+chunk)
			m.SetItem("r", 0, message.Item{Kind: message.ItemText, Text: text[:n]})
			check()
		}
		m.SetItem("r", 1, tool)
		m.SetItem("r", 2, message.Item{Kind: message.ItemThought, Text: text})
		m.SetStatus("r", message.StatusDone)
		check()
		m.Focus()
		press(m, "space", "up", "space", "enter")
		check()
	})
}
