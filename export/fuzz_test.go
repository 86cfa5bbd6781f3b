package export

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/workspace"
)

var safeName = regexp.MustCompile(`^[A-Za-z0-9_-][A-Za-z0-9._-]{0,79}-2026-03-04\.md$`)

// FuzzExport: whatever the title and the agent wrote, the file name stays
// one safe name in the exports dir, and the Markdown holds no control
// character but newline and tab (nothing a `cat` of it would obey).
func FuzzExport(f *testing.F) {
	f.Add("Fix main.go", "text\x1b]52;c;eA==\x07", "out\r\nput\x1b[2J")
	f.Add("../..", "```\n````", "\x9b31m")
	f.Fuzz(func(t *testing.T, title, text, output string) {
		day := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
		if n := FileName(title, day, "md"); !safeName.MatchString(n) {
			t.Fatalf("FileName(%q) = %q", title, n)
		}
		o := workspace.Opened{Thread: workspace.Thread{ID: "th", Title: title}, Messages: []store.Message{
			{ID: "m1", Role: message.RoleUser, Text: text, Created: day},
			{ID: "m2", Role: message.RoleAssistant, Created: day, Items: []message.Item{
				{Kind: message.ItemText, Text: text},
				{Kind: message.ItemTool, Tool: &message.Tool{Title: title, Content: []message.ToolContent{{Type: message.ContentText, Text: output},
					{Type: message.ContentDiff, Path: title, OldText: &text, NewText: output}}}},
			}},
		}}
		md := Markdown(o, time.UTC)
		for _, r := range md {
			if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0) {
				t.Fatalf("control %U in the Markdown:\n%q", r, md)
			}
		}
		if !strings.HasPrefix(md, "# ") {
			t.Fatalf("the title line is gone: %q", md)
		}
	})
}
