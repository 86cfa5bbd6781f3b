package dialog

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
		q, ok := CommandQuery(draft(tc.text, tc.col))
		if q != tc.want || ok != tc.ok {
			t.Errorf("CommandQuery(%q at %d) = %q, %v", tc.text, tc.col, q, ok)
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
		WriteCommand(d, "init")
		if got := d.Markdown(); got != tc.want {
			t.Errorf("Write over %q = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// The picker lists chipchat's commands that apply, then every command of
// the agent's: where the names meet the agent's keeps the name and
// chipchat's is /chipchat:<name>; the hint names an agent command in the
// draft, the agent's /review included.
func TestItemsAndHint(t *testing.T) {
	info := chat.Info{Commands: []chat.Command{{Name: "init", InputHint: "focus"}, {Name: "review"}, {Name: "compact"}}}
	titles := map[string]string{}
	for _, it := range CommandItems(info, func(c chat.SlashCommand) bool { return c.Needs == nil }) {
		titles[it.Value] = it.Title
	}
	if titles["c:new"] != "/new" || titles["c:review"] != "/chipchat:review [--staged | <ref>]" || titles["a:review"] != "/review" ||
		titles["a:init"] != "/init <focus>" || titles["a:compact"] != "/compact" || titles["c:compact"] != "" || titles["c:mode"] != "" {
		t.Fatalf("items %v", titles)
	}
	if h := CommandHint(info, draft("/init x", 1)); h != "/init <focus> · the agent's command: enter sends it" {
		t.Fatalf("hint %q", h)
	}
	if h := CommandHint(info, draft("/review", 1)); h != "/review · the agent's command: enter sends it" {
		t.Fatalf("the agent's /review is not hinted as the agent's: %q", h)
	}
}
