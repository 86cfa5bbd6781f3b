package slash

import (
	"testing"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
)

func draft(text string, col int) *composer.Draft {
	d := composer.FromMarkdown(text, nil)
	d.SetCaret(composer.Pos{Line: 0, Col: col}, false)
	return d
}

// The query is the first word after "/" up to the caret, while the caret
// is in that word.
func TestQuery(t *testing.T) {
	for _, tc := range []struct {
		text string
		col  int
		want string
		ok   bool
	}{
		{"/", 1, "", true},
		{"/mo", 3, "mo", true},
		{"/mode plan", 3, "mo", true},
		{"/mode plan", 7, "", false}, // past the first word
		{"hello", 2, "", false},
		{"/x", 0, "", false},
	} {
		q, ok := Query(draft(tc.text, tc.col))
		if q != tc.want || ok != tc.ok {
			t.Errorf("Query(%q at %d) = %q, %v", tc.text, tc.col, q, ok)
		}
	}
}

// A picked command replaces the first word and leaves one space after it.
func TestWrite(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"/in", "/init "},
		{"/in more", "/init more"},
		{"/", "/init "},
	} {
		d := draft(tc.text, 1)
		Write(d, "init")
		if got := d.Markdown(); got != tc.want {
			t.Errorf("Write over %q = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// The picker lists chipchat's commands that apply, then the agent's that
// are not shadowed; the hint names an agent command in the draft.
func TestItemsAndHint(t *testing.T) {
	info := chat.Info{Commands: []chat.Command{{Name: "init", InputHint: "focus"}, {Name: "review"}, {Name: "compact"}}}
	values := map[string]bool{}
	for _, it := range Items(info, func(chat.SlashCommand) bool { return false }) {
		values[it.Value] = true
	}
	if !values["c:new"] || !values["c:review"] || values["a:review"] || !values["a:init"] || !values["a:compact"] || values["c:compact"] || values["c:mode"] {
		t.Fatalf("items %v", values)
	}
	if h := Hint(info, draft("/init x", 1)); h != "/init <focus> · the agent's command: enter sends it" {
		t.Fatalf("hint %q", h)
	}
	if h := Hint(info, draft("/review", 1)); h != "" {
		t.Fatalf("chipchat's /review hinted as the agent's: %q", h)
	}
}
