package export

import (
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/workspace"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// sample is a thread with chips (a mention and a terminal excerpt), a
// reply with a thought, a tool call with a diff and output, a new file, a
// terminal, a plan, a permission and a notice.
func sample() workspace.Opened {
	t0 := time.Date(2026, 3, 4, 9, 30, 0, 0, time.UTC)
	mention := &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "ctx_m1", "main.go"), Path: "main.go"}
	excerpt := &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, "ctx_t1", "make test"),
		TerminalID: "term1", TerminalLabel: "shell", LineStart: 3, LineEnd: 4, Text: "FAIL: TestX\n\x1b[31mexit 1\x1b[0m"}
	text := "Fix " + contextref.LinkFor(mention) + " so that " + contextref.LinkFor(excerpt) + " passes."
	old := "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"
	newText := "package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n"
	return workspace.Opened{
		Thread: workspace.Thread{ID: "th_1", Title: "Fix main.go so that make test passes.", Updated: t0.Add(time.Minute)},
		Messages: []store.Message{
			{ID: "m1", Seq: 1, Role: message.RoleUser, Text: text, Status: message.StatusDone, Created: t0,
				Context: &contextref.MessageContext{Version: 1, Records: []contextref.Record{mention, excerpt}}},
			{ID: "m2", Seq: 2, Role: message.RoleAssistant, Status: message.StatusDone, Created: t0.Add(5 * time.Second), Items: []message.Item{
				{ID: "i1", Kind: message.ItemThought, Text: "The test wants hello."},
				{ID: "i2", Kind: message.ItemText, Text: "I changed the greeting:"},
				{ID: "i3", Kind: message.ItemTool, Tool: &message.Tool{CallID: "c1", Kind: "edit", Title: "Edit main.go", Status: message.ToolCompleted,
					Locations: []message.Location{{Path: "main.go", Line: 4}},
					Content: []message.ToolContent{{Type: message.ContentDiff, Path: "main.go", OldText: &old, NewText: newText},
						{Type: message.ContentText, Text: "wrote 1 file\n```\nnested fence\n```"}}}},
				{ID: "i4", Kind: message.ItemTool, Tool: &message.Tool{CallID: "c2", Kind: "edit", Title: "Create notes.md", Status: message.ToolCompleted,
					Content: []message.ToolContent{{Type: message.ContentDiff, Path: "notes.md", NewText: "# notes\n"}}}},
				{ID: "i5", Kind: message.ItemTool, Tool: &message.Tool{CallID: "c3", Kind: "execute", Title: "go test ./...", Status: message.ToolFailed,
					Content: []message.ToolContent{{Type: message.ContentTerminal, TerminalID: "t1",
						Terminal: &message.TerminalState{Command: "go test ./...", Output: "ok  \tmain\t0.1s\n"}}}}},
				{ID: "i6", Kind: message.ItemPlan, Plan: []message.PlanEntry{{Content: "change the greeting", Status: "completed"}, {Content: "run the tests"}}},
				{ID: "i7", Kind: message.ItemPermission, Permission: &message.Permission{Asked: "Run go test", Chosen: "a",
					Options: []message.PermissionOption{{ID: "a", Name: "Allow once", Kind: message.AllowOnce}}}},
				{ID: "i8", Kind: message.ItemNotice, Level: "error", Text: "the agent exited with status 2", StderrTail: "panic: <nil>"},
			}},
			{ID: "m3", Seq: 3, Role: message.RoleUser, Text: "thanks", Status: message.StatusQueued, Created: t0.Add(time.Minute)},
		},
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test ./export -update rewrites it):\n%s", name, got)
	}
}

func TestMarkdownGolden(t *testing.T) {
	md := Markdown(sample(), time.UTC)
	golden(t, "thread.md.golden", md)
	// What a user relies on, said outright beside the golden file.
	for _, want := range []string{
		"## You · 2026-03-04 09:30:00 UTC",
		"Fix [main.go](t3-context://v1/mention/ctx_m1) so that [make test](t3-context://v1/terminal/ctx_t1) passes.",
		"<summary>Tool: Edit main.go (completed)</summary>",
		"```diff\n--- a/main.go\n+++ b/main.go\n",
		"-\tprintln(\"hi\")\n+\tprintln(\"hello\")\n",
		"--- /dev/null\n+++ b/notes.md\n",
		"````text\nwrote 1 file\n```\nnested fence\n```\n````",
		"## What the agent read",
		"<t3_context version=\"1\">",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q", want)
		}
	}
	if strings.ContainsRune(md, 0x1b) {
		t.Error("an escape sequence reached the export")
	}
	if strings.Contains(md, "thanks") {
		t.Error("a queued message (not sent yet) was exported")
	}
}

func TestJSON(t *testing.T) {
	b, err := JSON(sample())
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Version  int
		Thread   struct{ ID, Title string }
		Messages []struct {
			ID      string
			Role    string
			Context json.RawMessage
			Items   []struct {
				Kind string
				Data json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Version != 1 || got.Thread.ID != "th_1" || len(got.Messages) != 3 {
		t.Fatalf("JSON export: %s", b)
	}
	m1, m2 := got.Messages[0], got.Messages[1]
	if !strings.Contains(string(m1.Context), `"path": "main.go"`) {
		t.Errorf("the user message's context: %s", m1.Context)
	}
	if len(m2.Items) != 8 || m2.Items[2].Kind != "tool" || !strings.Contains(string(m2.Items[2].Data), `"oldText"`) {
		t.Errorf("the reply's items: %+v", m2.Items)
	}
	// The context decodes with contextref (DESIGN.md 3.2).
	if ctx, _, err := contextref.DecodeContext(m1.Context); err != nil || len(ctx.Records) != 2 {
		t.Errorf("the context does not decode: %v", err)
	}
}

func TestFileName(t *testing.T) {
	day := time.Date(2026, 3, 4, 23, 0, 0, 0, time.UTC)
	for title, want := range map[string]string{
		"Fix main.go so that make test passes.": "Fix-main.go-so-that-make-test-passes-2026-03-04.md",
		"../../etc/passwd":                      "etc-passwd-2026-03-04.md",
		"":                                      "thread-2026-03-04.md",
		"日本語":                                   "thread-2026-03-04.md",
		strings.Repeat("a", 100):                strings.Repeat("a", 80) + "-2026-03-04.md",
	} {
		if got := FileName(title, day, "md"); got != want {
			t.Errorf("FileName(%q) = %q, want %q", title, got, want)
		}
	}
}

func TestDirAndWrite(t *testing.T) {
	if d, _ := Dir(func(k string) string { return map[string]string{"XDG_DATA_HOME": "/x/data", "HOME": "/h"}[k] }); d != "/x/data/chipchat/exports" {
		t.Errorf("Dir with XDG_DATA_HOME = %q", d)
	}
	if d, _ := Dir(func(k string) string { return map[string]string{"HOME": "/h"}[k] }); d != "/h/.local/share/chipchat/exports" {
		t.Errorf("Dir without XDG_DATA_HOME = %q", d)
	}
	p := filepath.Join(t.TempDir(), "exports", "a.md")
	if err := Write(p, []byte("one"), false); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("two"), false); !errors.Is(err, ErrExists) {
		t.Errorf("a second write without overwrite: %v, want ErrExists", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Errorf("the refused write changed the file: %q", b)
	}
	if err := Write(p, []byte("two"), true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Errorf("overwrite: %q", b)
	}
}

func TestToFileAndForCopy(t *testing.T) {
	load := func(o workspace.Opened) func() (workspace.Opened, error) {
		return func() (workspace.Opened, error) { return o, nil }
	}
	p := filepath.Join(t.TempDir(), "t.md")
	if err := ToFile(load(workspace.Opened{Thread: workspace.Thread{ID: "th"}}), p, false); !errors.Is(err, ErrEmpty) {
		t.Errorf("an empty thread: %v, want ErrEmpty", err)
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("an empty thread left a file")
	}
	if err := ToFile(load(sample()), p, false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); !strings.HasPrefix(string(b), "# Fix main.go") {
		t.Errorf("the file: %q", b)
	}
	md, recs, err := ForCopy(load(sample()))
	if err != nil || !strings.Contains(md, "## What the agent read") || len(recs) != 2 || recs[0].RecordBase().ContextID != "ctx_m1" {
		t.Errorf("ForCopy: %d records, %v", len(recs), err)
	}
}
