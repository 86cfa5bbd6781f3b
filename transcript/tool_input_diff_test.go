package transcript

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/message"
)

// An edit whose content has its diff shows the diff, not its raw input
// again as JSON (issue 22: "the diff, the command line, and otherwise the
// raw input"): opencode's input holds the whole diff as one escaped string,
// Claude's and Codex's the old and new text.
func TestEditWithADiffShowsNoRawInput(t *testing.T) {
	old := "old\n"
	edit := message.Tool{CallID: "e", Kind: "edit", Title: "Edit notes.txt", Status: message.ToolPending,
		RawInput: json.RawMessage(`{"filepath":"/p/notes.txt","diff":"--- a\n+++ b\n@@ -1 +1 @@\n-old\n+new\n"}`),
		Content:  []message.ToolContent{{Type: message.ContentDiff, Path: "/p/notes.txt", OldText: &old, NewText: "new\n", Line: 1}}}
	if in := RenderToolInput(edit, 80); in != nil {
		t.Errorf("the prompt draws the edit's raw input beside its diff: %q", ansi.Strip(strings.Join(in, "\n")))
	}
	body := ansi.Strip(strings.Join(RenderToolContent(edit, 80, ContentInput()), "\n"))
	if strings.Contains(body, "input:") || strings.Contains(body, `"filepath"`) {
		t.Errorf("the edit's content draws its raw input:\n%s", body)
	}
	if !strings.Contains(body, "- old") || !strings.Contains(body, "+ new") {
		t.Errorf("the diff is not drawn:\n%s", body)
	}
	// Without a diff, the raw input is what the prompt shows.
	edit.Content = nil
	if in := ansi.Strip(strings.Join(RenderToolInput(edit, 80), "\n")); !strings.Contains(in, `"filepath": "/p/notes.txt"`) {
		t.Errorf("an edit without a diff does not show its input: %q", in)
	}
}
