package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// A call chipchat settled shows its status and, when it failed unfinished,
// why.
func TestSettledToolLine(t *testing.T) {
	render := func(tool message.Tool) string {
		lines := DefaultItems().Render(chips.Compact, message.Item{Kind: message.ItemTool, Tool: &tool}, ItemContext{Width: 80, NoColor: true})
		return ansi.Strip(strings.Join(lines, "\n"))
	}
	if v := render(message.Tool{CallID: "c", Kind: "edit", Title: "Edit a.go", Status: message.ToolCancelled}); !strings.Contains(v, "⊘ cancelled") || strings.Contains(v, "pending") {
		t.Errorf("cancelled:\n%s", v)
	}
	v := render(message.Tool{CallID: "c", Kind: "execute", Title: "make", Status: message.ToolFailed, Reason: message.ReasonAgentDied})
	if !strings.Contains(v, "✗ failed") || !strings.Contains(v, message.ReasonAgentDied) {
		t.Errorf("failed:\n%s", v)
	}
}
