package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// Issue 22 item 6: a review comment on an agent's diff of a snippet (as
// Claude Code sends them, numbered by the file: ToolContent.Line) carries
// the file's line numbers, not the snippet's: v and c in the transcript
// open the pane on those lines and the comment says "L6".
func TestAgentSnippetDiffCommentCarriesTheFilesLines(t *testing.T) {
	e := newTestEnv(t)
	withReviewOptions(e, "")
	file := "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 60\ng = 7\n"
	e.gitInit(map[string]string{"main.py": strings.Replace(file, "f = 60", "f = 6", 1)})
	e.writeFile("main.py", []byte(file))
	old := "f = 6\n"
	th := e.newThread("edits",
		store.Message{Role: message.RoleUser, Text: "change it", Status: message.StatusDone},
		store.Message{Role: message.RoleAssistant, Status: message.StatusDone, Items: []message.Item{
			{ID: "t1", Kind: message.ItemText, Text: "Changing f."},
			{ID: "e1", Kind: message.ItemTool, Tool: &message.Tool{CallID: "call_1", Kind: "edit", Title: "Edit main.py", Status: message.ToolCompleted,
				Content: []message.ToolContent{{Type: "diff", Path: filepath.Join(e.dir, "main.py"), OldText: &old, NewText: "f = 60\n", Line: 6}}}},
		}})
	h := e.open(th.ID)
	if scr := h.plain(); !strings.Contains(scr, "6 - f = 6") || !strings.Contains(scr, "6 + f = 60") {
		t.Fatalf("the item's diff is not numbered by the file:\n%s", scr)
	}
	h.focusTranscriptItem(1)
	h.press("v", "j", "c")
	h.pumpUntil("the editor", func() bool { return h.app.rv.shown() && h.app.rv.m.Editing() })
	h.typeText("why 60?")
	h.press("enter")
	h.pumpUntil("the chip", func() bool { return len(h.reviewRecords()) == 1 })
	if rec := h.reviewRecords()[0]; rec.FilePath != "main.py" || rec.RangeLabel != "L6" || rec.Label != "main.py L6" {
		t.Fatalf("record %+v", rec)
	}
}
