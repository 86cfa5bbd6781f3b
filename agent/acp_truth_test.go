//go:build unix

package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
)

func replayTruth(t *testing.T, name string) (map[string]message.Tool, []Permission) {
	t.Helper()
	h := newFloodHarness(t, ACPOptions{})
	var asked []Permission
	h.answer = func(p Permission) PermissionAnswer {
		asked = append(asked, p)
		return PermissionAnswer{OptionID: p.Request.Options[0].ID, Outcome: "selected"}
	}
	fixture, err := filepath.Abs(filepath.Join("testdata", "acp_truth", name))
	if err != nil {
		t.Fatal(err)
	}
	evs, err := h.run("replay " + fixture)
	if err != nil {
		t.Fatal(err)
	}
	return acpFoldTools(evs), asked
}

// What the agents send in shapes the recordings lack (testdata/acp_truth):
// opencode's snippet diff of a file's second line is numbered from its
// hunk in rawOutput; Claude's MCP call keeps the arguments its permission
// request carried, on the item as on the prompt.
func TestACPTruthFromAgentShapes(t *testing.T) {
	t.Run("opencode-line-2", func(t *testing.T) {
		tools, asked := replayTruth(t, "opencode_edit_line2.jsonl")
		tool := tools["call_e"]
		var diffs []message.ToolContent
		for _, c := range tool.Content {
			if c.Type == message.ContentDiff {
				diffs = append(diffs, c)
			}
		}
		if len(diffs) != 1 || diffs[0].Line != 2 || diffs[0].NewText != "the line after an allowed edit" {
			t.Errorf("the item's diff %+v, want the snippet at line 2", diffs)
		}
		if len(asked) != 1 || len(asked[0].Tool.Content) != 1 || asked[0].Tool.Content[0].Type != message.ContentDiff {
			t.Fatalf("prompt %+v", asked)
		}
	})
	t.Run("claude-mcp", func(t *testing.T) {
		tools, asked := replayTruth(t, "claude_mcp.jsonl")
		tool := tools["toolu_m"]
		if string(tool.RawInput) != `{"threadId":"thr_<7>"}` {
			t.Errorf("the item's raw input %s", tool.RawInput)
		}
		if c, ok := tool.MCP(); !ok || c.Server != "chipchat" || c.Tool != "t3_thread_read" || string(c.Arguments) != `{"threadId":"thr_<7>"}` {
			t.Errorf("the item's MCP call %+v %v", c, ok)
		}
		if len(asked) != 1 || string(asked[0].Tool.RawInput) != `{"threadId":"thr_<7>"}` {
			t.Errorf("prompt %+v", asked)
		}
		if tool.Status != message.ToolCompleted || len(tool.Content) != 1 || tool.Content[0].Text != "<thread>…</thread>" {
			t.Errorf("the item %+v", tool)
		}
	})
}

// The recorded agents' edits keep their numbering: each diff of the four
// is of a one-line file, line 1 (Line 0).
func TestACPRecordedDiffsNumbered(t *testing.T) {
	for _, name := range []string{"claude", "codex", "gemini", "opencode"} {
		h := newFloodHarness(t, ACPOptions{})
		h.answer = func(p Permission) PermissionAnswer {
			return PermissionAnswer{OptionID: p.Request.Options[0].ID, Outcome: "selected"}
		}
		// The recordings' project: notes.txt as it was before their edits.
		b, err := os.ReadFile(filepath.Join("testdata", "acp_output", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(h.dir, "notes.txt"), []byte("the old line\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		fixture := filepath.Join(t.TempDir(), name+".jsonl")
		if err := os.WriteFile(fixture, []byte(strings.ReplaceAll(string(b), "/proj/", h.dir+"/")), 0o644); err != nil {
			t.Fatal(err)
		}
		evs, err := h.run("replay " + fixture)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range acpFoldTools(evs) {
			for _, c := range tool.Content {
				if c.Type == message.ContentDiff && c.Line != 0 {
					t.Errorf("%s %s: a diff of line 1 numbered from %d", name, tool.CallID, c.Line)
				}
			}
		}
	}
}

func TestACPHunks(t *testing.T) {
	codex := json.RawMessage(`{"call_id":"c","changes":{"/proj/main.py":{"type":"update","unified_diff":"@@ -4,5 +4,5 @@\n a\n b\n-c = 1\n+c = 2\n d\n e\n"},"/proj/other.py":{"unified_diff":"@@ -10 +10 @@\n-c = 1\n+c = 3\n"}}}`)
	hs := acpHunks(codex)
	if len(hs) != 2 || hs[0].file != "/proj/main.py" || hs[0].oldStart != 4 || !slices.Equal(hs[0].old, []string{"a", "b", "c = 1", "d", "e"}) ||
		!slices.Equal(hs[0].new, []string{"a", "b", "c = 2", "d", "e"}) || hs[1].file != "/proj/other.py" {
		t.Fatalf("codex hunks %+v", hs)
	}
	old := "c = 1"
	for _, c := range []struct {
		path string
		want int
	}{{"/proj/main.py", 6}, {"/proj/other.py", 10}, {"main.py", 6}, {"/elsewhere/x.py", 0}} {
		if got := acpDiffLine(message.ToolContent{Type: message.ContentDiff, Path: c.path, OldText: &old, NewText: "c = 2"}, hs, nil, 0); got != c.want {
			t.Errorf("%s: line %d, want %d", c.path, got, c.want)
		}
	}
	// An insertion is found on the new side; a header names the file.
	git := json.RawMessage(`{"diff":"diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -7,2 +7,3 @@\n one\n+-- two\n three\n\\ No newline at end of file\n"}`)
	empty := ""
	if got := acpDiffLine(message.ToolContent{Type: message.ContentDiff, Path: "/p/x.go", OldText: &empty, NewText: "-- two\n"}, acpHunks(git), nil, 0); got != 8 {
		t.Errorf("insertion at %d, want 8", got)
	}
	// No hunk: a location with a line gives it; a new file starts at 1.
	locs := []message.Location{{Path: "/p/y.go", Line: 12}}
	if got := acpDiffLine(message.ToolContent{Type: message.ContentDiff, Path: "/p/y.go", OldText: &old}, nil, locs, 0); got != 12 {
		t.Errorf("from the location: %d", got)
	}
	if got := acpDiffLine(message.ToolContent{Type: message.ContentDiff, Path: "/p/y.go", NewText: "x"}, nil, locs, 0); got != 0 {
		t.Errorf("a new file at %d", got)
	}
	// A hunk that holds fewer lines than its header counts is dropped at
	// the first line that does not fit; a bad header is no hunk.
	for _, s := range []string{"@@ -x +1 @@\n-a\n", "@@ -1 +1\n-a\n", "no hunk at all"} {
		if hs := acpParseUnified(s, ""); len(hs) != 0 {
			t.Errorf("%q: %+v", s, hs)
		}
	}
}

func FuzzACPHunks(f *testing.F) {
	f.Add(`{"changes":{"/a.py":{"unified_diff":"@@ -1,2 +1,2 @@\n a\n-b\n+c\n"}}}`, "/a.py", "b")
	f.Add(`{"diff":"--- a/x\n+++ b/x\n@@ -3 +3,2 @@\n-q\n+r\n+s\n"}`, "x", "q")
	f.Add(`["@@ -0,0 +1 @@\n+new"]`, "n", "")
	f.Fuzz(func(t *testing.T, raw, path, old string) {
		hs := acpHunks(json.RawMessage(raw))
		for _, h := range hs {
			if h.oldStart < 0 || h.newStart < 0 {
				t.Fatalf("negative start %+v", h)
			}
		}
		line := acpDiffLine(message.ToolContent{Type: message.ContentDiff, Path: path, OldText: &old, NewText: "x"}, hs, nil, 0)
		if line < 0 || line == 1 {
			t.Fatalf("line %d (line 1 is 0)", line)
		}
		if line > 1 && !strings.Contains(raw, "@@ -") {
			t.Fatalf("line %d from no hunk", line)
		}
	})
}
