//go:build !race

package transcript

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
)

// A tool's output of one very long line (ACP's replace-content pattern
// resends it whole, up to [limits] reply_bytes) costs a frame the rows
// shown, not the line: drawing a 4 MiB line costs about what an 8 KiB line
// costs (wrapping it whole is ~1,000×).
func TestToolLongLineRatio(t *testing.T) {
	tool := func(n int) message.Tool {
		return message.Tool{CallID: "g", Kind: "execute", Title: "Grow", Status: message.ToolInProgress,
			Content: []message.ToolContent{{Type: message.ContentText, Text: "HEAD" + strings.Repeat("z", n) + "TAIL\nsecond line\n"}}}
	}
	small, big := tool(8<<10), tool(4<<20)
	var rows []string
	draw := func(tl message.Tool) func() func() {
		return func() func() {
			return func() {
				for range 20 {
					rows = RenderToolContent(tl, 100, ContentMaxLines(5))
				}
			}
		}
	}
	best := cheapest(t, 5, draw(small), draw(big))
	ratio := float64(best[1]) / float64(max(best[0], 1))
	t.Logf("20 frames of a tool with an 8 KiB line %v, with a 4 MiB line %v: ratio %.2f", best[0], best[1], ratio)
	if ratio > 3 {
		t.Errorf("a 4 MiB line costs %.1f× an 8 KiB line", ratio)
	}
	// What is drawn: the line's first rows, the rest counted.
	if len(rows) != 6 || !strings.HasPrefix(rows[0], "HEADzzz") || !strings.Contains(rows[5], "+2 lines") {
		t.Errorf("rows = %q", rows)
	}
}
