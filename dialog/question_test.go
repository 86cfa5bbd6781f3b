package dialog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/message"
)

// A permission for a call whose input is no command (an MCP tool's
// arguments) shows the input, sanitized; a command is shown once, as
// "$ command".
func TestPermissionShowsTheRawInput(t *testing.T) {
	ask := func(raw string) string {
		e := chat.PermissionAsked{Request: message.Permission{ToolCallID: "c", Asked: "mcp__chipchat__t3_thread_read",
			Options: []message.PermissionOption{{ID: "ok", Name: "Allow", Kind: message.AllowOnce}}},
			Tool: message.Tool{CallID: "c", Kind: "other", Title: "mcp__chipchat__t3_thread_read", RawInput: json.RawMessage(raw)}}
		return strings.Join(NewQuestionBox(QuestionKeys{}, Question{Permission: &e}).View(80, 30), "\n")
	}
	scr := ask(`{"threadId":"thr_42\u001b[2J"}`)
	if !strings.Contains(scr, `"threadId": "thr_42`) || strings.Contains(scr, "\x1b[2J") {
		t.Errorf("the prompt lacks the arguments, or shows them unsanitized:\n%s", scr)
	}
	scr = ask(`{"command":"ls -la"}`)
	if !strings.Contains(scr, "$ ls -la") || strings.Contains(scr, `"command"`) {
		t.Errorf("a command is shown once, as a command line:\n%s", scr)
	}
	if scr := ask(`{}`); strings.Contains(scr, "input:") {
		t.Errorf("an empty input is shown:\n%s", scr)
	}
}

// The prompt's content (the diff, the input as JSON) is rendered once per
// question and width, not on every frame: a later view at that width shows
// what the first rendered; another width renders it again.
func TestPermissionContentRenderedOncePerWidth(t *testing.T) {
	e := chat.PermissionAsked{Request: message.Permission{ToolCallID: "c", Asked: "read",
		Options: []message.PermissionOption{{ID: "ok", Name: "Allow", Kind: message.AllowOnce}}},
		Tool: message.Tool{CallID: "c", Kind: "other", Title: "read", RawInput: json.RawMessage(`{"path":"first.txt"}`)}}
	b := NewQuestionBox(QuestionKeys{}, Question{Permission: &e})
	view := func(w int) string { return strings.Join(b.View(w, 30), "\n") }
	if scr := view(80); !strings.Contains(scr, "first.txt") {
		t.Fatalf("the input is not shown:\n%s", scr)
	}
	b.ask.Permission.Tool.RawInput = json.RawMessage(`{"path":"second.txt"}`)
	if scr := view(80); !strings.Contains(scr, "first.txt") || strings.Contains(scr, "second.txt") {
		t.Errorf("the content was rendered again for a frame at the same width:\n%s", scr)
	}
	if scr := view(60); !strings.Contains(scr, "second.txt") {
		t.Errorf("another width did not render the content again:\n%s", scr)
	}
}
