package transcript

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

func toolRows(t *testing.T, tool message.Tool, surface chips.Surface, width int) []string {
	t.Helper()
	d := itemKinds[message.ItemTool]
	out, why := callItem(d.render(surface), message.Item{Kind: message.ItemTool, Tool: &tool}, ItemContext{Width: width, NoColor: true, Looks: newItemLooks(true)})
	if why != "" {
		t.Fatal(why)
	}
	rows := make([]string, len(out))
	for i, l := range out {
		rows[i] = strings.TrimRight(ansi.Strip(l), " ")
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("a row %d wide at %d: %q", w, width, rows[i])
		}
	}
	return rows
}

func rowIndex(rows []string, sub string) int {
	for i, r := range rows {
		if strings.Contains(r, sub) || strings.HasPrefix(sub, "=") && strings.TrimSpace(r) == sub[1:] {
			return i
		}
	}
	return -1
}

// A call's permission is a line inside its item, under its title and above
// its output; the option's kind is said only when its name does not.
func TestToolItemDrawsItsPermission(t *testing.T) {
	opts := []message.PermissionOption{{ID: "y", Name: "Yes", Kind: message.AllowOnce}, {ID: "o", Name: "Allow once", Kind: message.AllowOnce},
		{ID: "n", Name: "No", Kind: message.RejectOnce}}
	tool := message.Tool{CallID: "c1", Kind: "execute", Title: "seq 101 112", Status: message.ToolCompleted,
		Content: []message.ToolContent{{Type: message.ContentText, Text: "101\n102\n"}}}
	for _, c := range []struct {
		chosen, outcome, want, not string
	}{
		{"y", "selected", "? Yes  (allow once)", ""},
		{"o", "selected", "? Allow once", "(allow once)"},
		{"", "", "? waiting for your answer", ""},
		{"", "cancelled", "? cancelled", "(allow"},
	} {
		tool.Permission = &message.Permission{ToolCallID: "c1", Asked: "seq 101 112", Options: opts, Chosen: c.chosen, Outcome: c.outcome}
		for _, s := range []chips.Surface{chips.Compact, chips.Expanded} {
			rows := toolRows(t, tool, s, 60)
			p, out := rowIndex(rows, c.want), rowIndex(rows, "=101")
			if p != 1 || out <= p {
				t.Errorf("%s %+v: permission at row %d, output at %d:\n%s", s, c, p, out, strings.Join(rows, "\n"))
			}
			if c.not != "" && strings.Contains(rows[max(p, 0)], c.not) {
				t.Errorf("%s: %q says its kind twice", s, rows[p])
			}
		}
	}
	tool.Permission = &message.Permission{Options: opts, Chosen: "n", Outcome: "selected"}
	rows := toolRows(t, tool, chips.Details, 60)
	for _, want := range []string{"permission: No", "▸ No (reject once)", "  Allow once"} {
		if rowIndex(rows, want) < 0 {
			t.Errorf("details lack %q:\n%s", want, strings.Join(rows, "\n"))
		}
	}
	if rowIndex(rows, "Allow once (allow once)") >= 0 {
		t.Errorf("details repeat a kind:\n%s", strings.Join(rows, "\n"))
	}
	if !strings.Contains(pagerText(message.Item{Kind: message.ItemTool, Tool: &tool}), "permission: No") {
		t.Error("the pager text lacks the permission")
	}
}

// The permission item of its own (a question for no call) says an
// option's kind only when its name does not.
func TestPermissionDetailsKindHints(t *testing.T) {
	p := &message.Permission{Asked: "Fetch", Options: []message.PermissionOption{{ID: "a", Name: "Allow once", Kind: message.AllowOnce},
		{ID: "b", Name: "Yes", Kind: message.AllowOnce}, {ID: "c", Name: "Always allow", Kind: message.AllowAlways}}, Chosen: "a", Outcome: "selected"}
	out, _ := callItem(itemKinds[message.ItemPermission].render(chips.Details), message.Item{Kind: message.ItemPermission, Permission: p},
		ItemContext{Width: 60, NoColor: true, Looks: newItemLooks(true)})
	v := ansi.Strip(strings.Join(out, "\n"))
	for _, want := range []string{"▸ Allow once\n", "Yes (allow once)", "Always allow (remembered)"} {
		if !strings.Contains(v, want) {
			t.Errorf("%q missing:\n%s", want, v)
		}
	}
}

// A tool output wholly in one code fence draws its content without the
// fence lines (every folded line is output), in the language's colours;
// an output with a fence among other text keeps it.
func TestToolOutputFence(t *testing.T) {
	tool := message.Tool{CallID: "c", Kind: "execute", Title: "Terminal", Status: message.ToolCompleted,
		Content: []message.ToolContent{{Type: message.ContentText, Text: "```console\nl1\nl2\nl3\nl4\nl5\n```"}}}
	rows := toolRows(t, tool, chips.Compact, 60)
	if rowIndex(rows, "```") >= 0 || rowIndex(rows, "l5") < 0 || rowIndex(rows, "+") >= 0 {
		t.Errorf("fenced output:\n%s", strings.Join(rows, "\n"))
	}
	tool.Content[0].Text = "```console\nl1\nl2\nl3\nl4\nl5\nl6\nl7\n```\n"
	rows = toolRows(t, tool, chips.Compact, 60)
	if rowIndex(rows, "```") >= 0 || rowIndex(rows, "l5") < 0 || rowIndex(rows, "l6") >= 0 || rowIndex(rows, "+2 lines") < 0 {
		t.Errorf("folded fenced output:\n%s", strings.Join(rows, "\n"))
	}
	tool.Content[0].Text = "Read:\n```\n1\tthe old line\n```"
	rows = toolRows(t, tool, chips.Expanded, 60)
	if rowIndex(rows, "```") < 0 {
		t.Errorf("a fence among other text lost its fence lines:\n%s", strings.Join(rows, "\n"))
	}
	goTool := message.Tool{Kind: "read", Title: "Read a.go", Content: []message.ToolContent{{Type: message.ContentText, Text: "```go\nfunc main() { return }\n```"}}}
	col := strings.Join(RenderToolContent(goTool, 60), "\n")
	if !strings.Contains(col, "\x1b[38;2;") || strings.Contains(ansi.Strip(col), "```") {
		t.Errorf("a Go fence in colour: %q", col)
	}
	if plain := strings.Join(RenderToolContent(goTool, 60, ContentNoColor()), "\n"); strings.Contains(plain, "\x1b[38;2;") {
		t.Errorf("colour without colour: %q", plain)
	}
}

func TestWholeFence(t *testing.T) {
	for _, c := range []struct {
		in, lang, body string
		ok             bool
	}{
		{"```console\nchipchat-42\n```", "console", "chipchat-42", true},
		{"```\n1\tthe old line\n```\n", "", "1\tthe old line", true},
		{"\n~~~~ go extra\na\n~~~~~\n\n", "go", "a", true},
		{"````\n```\ninner\n```\n````", "", "```\ninner\n```", true},
		{"```\n```", "", "", true},
		{"```\na\n```\nb\n```", "", "", false},
		{"text\n```\na\n```", "", "", false},
		{"```\na\n~~~", "", "", false},
		{"``\na\n``", "", "", false},
		{"    ```\na\n```", "", "", false},
		{"```a`b\nx\n```", "", "", false},
		{"```", "", "", false},
	} {
		lang, body, ok := wholeFence(c.in)
		if ok != c.ok || ok && (lang != c.lang || body != c.body) {
			t.Errorf("%q: %q %q %v, want %q %q %v", c.in, lang, body, ok, c.lang, c.body, c.ok)
		}
	}
}

func FuzzWholeFence(f *testing.F) {
	f.Add("```console\nchipchat-42\n```")
	f.Add("~~~\n~~\n~~~")
	f.Add("```\n```")
	f.Fuzz(func(t *testing.T, s string) {
		lang, body, ok := wholeFence(s)
		if !ok {
			if lang != "" || body != "" {
				t.Fatalf("not a fence but %q %q", lang, body)
			}
			return
		}
		if !strings.Contains(s, body) || strings.ContainsAny(lang, " \n") {
			t.Fatalf("%q: body %q, lang %q", s, body, lang)
		}
		if len(body) >= len(s) {
			t.Fatalf("%q: the body %q holds the fences", s, body)
		}
		if utf8.ValidString(s) {
			RenderToolContent(message.Tool{Content: []message.ToolContent{{Type: message.ContentText, Text: s}}}, 20, ContentMaxLines(5))
		}
	})
}

// A thought whose first line says nothing ("****") previews its first
// words; emphasis and heading marks around them are not shown.
func TestThoughtPreview(t *testing.T) {
	for in, want := range map[string]string{
		"****\n\nAnalyzing the handler first": "Analyzing the handler first",
		"**Planning the fix**\n\nI will":      "Planning the fix",
		"## Plan\nread":                       "Plan",
		"\n\n  Let me look":                   "Let me look",
		"--- ...\n***\n42 files":              "42 files",
		"****":                                "",
	} {
		if got := thoughtPreview(in); got != want {
			t.Errorf("%q: preview %q, want %q", in, got, want)
		}
		line := ansi.Strip(strings.Join(renderThoughtLine(message.Item{Kind: message.ItemThought, Text: in}, ItemContext{Width: 80, NoColor: true, Looks: newItemLooks(true)}), ""))
		if strings.Contains(line, "· ****") || want != "" && !strings.Contains(line, want) {
			t.Errorf("%q: line %q", in, line)
		}
	}
}

// An MCP call's item shows its server, tool and arguments (what the user
// approved), on every surface; another call's raw input stays in details.
func TestMCPCallShowsItsArguments(t *testing.T) {
	tool := message.Tool{CallID: "c", Kind: "other", Title: "mcp__chipchat__t3_thread_read", Status: message.ToolCompleted,
		RawInput: json.RawMessage(`{"threadId":"thr_<1>"}`), Content: []message.ToolContent{{Type: message.ContentText, Text: "the thread"}}}
	for _, s := range []chips.Surface{chips.Compact, chips.Expanded, chips.Details} {
		rows := toolRows(t, tool, s, 60)
		v := strings.Join(rows, "\n")
		if !strings.Contains(v, `"threadId": "thr_<1>"`) && !strings.Contains(v, `arguments: {"threadId":"thr_<1>"}`) || rowIndex(rows, "the thread") < 0 {
			t.Errorf("%s:\n%s", s, v)
		}
		if s != chips.Details && rowIndex(rows, "mcp: chipchat · t3_thread_read") < 0 {
			t.Errorf("%s: no server and tool:\n%s", s, v)
		}
	}
	read := message.Tool{CallID: "r", Kind: "read", Title: "Read notes.txt", Status: message.ToolCompleted,
		RawInput: json.RawMessage(`{"file_path":"/p/notes.txt"}`), Content: []message.ToolContent{{Type: message.ContentText, Text: "x"}}}
	if rows := toolRows(t, read, chips.Compact, 60); rowIndex(rows, "file_path") >= 0 {
		t.Errorf("a read call's input on its compact item:\n%s", strings.Join(rows, "\n"))
	}
	if in := ansi.Strip(strings.Join(RenderToolInput(read, 60), "\n")); !strings.Contains(in, `"file_path": "/p/notes.txt"`) {
		t.Errorf("RenderToolInput of a read call: %q", in)
	}
	if in := RenderToolInput(message.Tool{RawInput: json.RawMessage(`{"command":"ls"}`)}, 60); in != nil {
		t.Errorf("a command's input is drawn as its command line, not JSON: %q", in)
	}
}

// A diff of a snippet is numbered by the lines of the file it is in
// (ToolContent.Line), in the item, the pager and the rows a review comment
// is made of.
func TestDiffNumbersAreTheFilesLines(t *testing.T) {
	old := "b = 1\nc = 2\n"
	c := message.ToolContent{Type: message.ContentDiff, Path: "main.py", OldText: &old, NewText: "b = 1\nc = 3\n", Line: 5}
	v := ansi.Strip(strings.Join(RenderToolContent(message.Tool{Kind: "edit", Content: []message.ToolContent{c}}, 60, ContentNoColor()), "\n"))
	for _, want := range []string{"5   b = 1", "6 - c = 2", "6 + c = 3", "@@ -5,2 +5,2 @@"} {
		if !strings.Contains(v, want) {
			t.Errorf("%q missing:\n%s", want, v)
		}
	}
	var changed []diffLine
	for _, r := range unifiedLines(c) {
		if !r.hunk && r.kind != diffEqual {
			changed = append(changed, r)
		}
	}
	if len(changed) != 2 || changed[0].old != 6 || changed[1].new != 6 {
		t.Errorf("rows %+v", changed)
	}
	if p := pagerText(message.Item{Kind: message.ItemTool, Tool: &message.Tool{Content: []message.ToolContent{c}}}); !strings.Contains(p, "@@ -5,2 +5,2 @@") {
		t.Errorf("pager: %s", p)
	}
	c.Line = 0
	if v := ansi.Strip(strings.Join(RenderToolContent(message.Tool{Content: []message.ToolContent{c}}, 60, ContentNoColor()), "\n")); !strings.Contains(v, "2 - c = 2") {
		t.Errorf("without a line: %s", v)
	}
}

// A snippet not found in its file (message.LineUnknown) is drawn without
// line numbers, in the item and the pager, and a review comment on its rows
// carries none, rather than numbers counted in the snippet.
func TestDiffOfAnUnplacedSnippetHasNoNumbers(t *testing.T) {
	old := "b = 1\nc = 2\n"
	c := message.ToolContent{Type: message.ContentDiff, Path: "main.py", OldText: &old, NewText: "b = 1\nc = 3\n", Line: message.LineUnknown}
	v := ansi.Strip(strings.Join(RenderToolContent(message.Tool{Kind: "edit", Content: []message.ToolContent{c}}, 70, ContentNoColor()), "\n"))
	for _, want := range []string{"    b = 1", "  - c = 2", "  + c = 3", "no line numbers"} {
		if !strings.Contains(v, want) {
			t.Errorf("%q missing:\n%s", want, v)
		}
	}
	for _, bad := range []string{"1   b = 1", "2 - c = 2", "@@ -1,"} {
		if strings.Contains(v, bad) {
			t.Errorf("%q drawn, counted in the snippet:\n%s", bad, v)
		}
	}
	for _, r := range unifiedLines(c) {
		if !r.hunk && (r.number != 0 || r.old != 0 || r.new != 0) {
			t.Errorf("row %+v numbered", r)
		}
	}
	if p := pagerText(message.Item{Kind: message.ItemTool, Tool: &message.Tool{Content: []message.ToolContent{c}}}); strings.Contains(p, "@@ -1,") || !strings.Contains(p, "no line numbers") {
		t.Errorf("pager: %s", p)
	}
}
