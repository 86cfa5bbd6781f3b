//go:build unix

package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
)

// Claude Code's edit diffs are the snippet it replaces, with no line: the
// file, read when the diff is first seen (before the write), numbers it;
// a snippet found nowhere in its file gets no numbers rather than wrong
// ones, on the item as on the prompt.
func TestACPClaudeSnippetNumberedFromTheFile(t *testing.T) {
	h := newFloodHarness(t, ACPOptions{})
	notes := filepath.Join(h.dir, "notes.txt")
	before := "one\ntwo\nthree\nfour\nfive\nthe old line\nseven\n"
	if err := os.WriteFile(notes, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("testdata", "acp_truth", "claude_edit_line6.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	fixture := filepath.Join(t.TempDir(), "claude.jsonl")
	if err := os.WriteFile(fixture, []byte(strings.ReplaceAll(string(b), "/proj/", h.dir+"/")), 0o644); err != nil {
		t.Fatal(err)
	}
	var asked []Permission
	h.answer = func(p Permission) PermissionAnswer {
		asked = append(asked, p)
		// The agent writes once allowed: the file no longer holds the old
		// text, nor its lines where they were.
		if err := os.WriteFile(notes, []byte("new first line\n"+strings.Replace(before, "the old line", "the line after an allowed edit", 1)), 0o644); err != nil {
			t.Error(err)
		}
		return PermissionAnswer{OptionID: p.Request.Options[0].ID, Outcome: "selected"}
	}
	evs, err := h.run("replay " + fixture)
	if err != nil {
		t.Fatal(err)
	}
	diffLine := func(cs []message.ToolContent) []int {
		var out []int
		for _, c := range cs {
			if c.Type == message.ContentDiff {
				out = append(out, c.Line)
			}
		}
		return out
	}
	tools := acpFoldTools(evs)
	for id, want := range map[string]int{"toolu_fake007_0": 6, "toolu_gone": message.LineUnknown} {
		if got := diffLine(tools[id].Content); len(got) != 1 || got[0] != want {
			t.Errorf("%s: the item's diff lines %v, want [%d]", id, got, want)
		}
	}
	if len(asked) != 2 {
		t.Fatalf("%d prompts", len(asked))
	}
	for i, want := range []int{6, message.LineUnknown} {
		if got := diffLine(asked[i].Tool.Content); len(got) != 1 || got[0] != want {
			t.Errorf("prompt %d: diff lines %v, want [%d]", i, got, want)
		}
	}
}

func TestACPLocate(t *testing.T) {
	file := "one\ntwo\nthree\n  c = 1 # x\nfive\nsix\nfive\n"
	for _, c := range []struct {
		name, old, new string
		want           int
	}{
		{"a whole line", "three\n", "3\n", 3},
		{"inside a line", "c = 1", "c = 2", 4},
		{"lines", "two\nthree", "2\n3", 2},
		{"the whole file", file, "x\n", 1},
		{"the last lines", "six\nfive\n", "6\n5\n", 6},
		{"written already: the new text", "gone", "six", 6},
		{"written already: the whole file", "old file\n", file, 1},
		{"twice: which one?", "five", "5", message.LineUnknown},
		{"nowhere", "gone", "also gone", message.LineUnknown},
		{"an empty snippet", "", "", message.LineUnknown},
	} {
		if got := acpLocate(file, c.old, c.new); got != c.want {
			t.Errorf("%s: line %d, want %d", c.name, got, c.want)
		}
	}
	// The location of the file comes after the file read, the file after the
	// hunks.
	old := "c = 1"
	d := message.ToolContent{Type: message.ContentDiff, Path: "/p/y.go", OldText: &old, NewText: "c = 2"}
	locs := []message.Location{{Path: "/p/y.go", Line: 12}}
	for _, c := range []struct {
		found, want int
	}{{4, 4}, {1, 0}, {message.LineUnknown, 12}, {0, 12}} {
		if got := acpDiffLine(d, nil, locs, c.found); got != c.want {
			t.Errorf("found %d: line %d, want %d", c.found, got, c.want)
		}
	}
	if got := acpDiffLine(d, nil, nil, message.LineUnknown); got != message.LineUnknown {
		t.Errorf("not found, no location: %d", got)
	}
}

func FuzzACPLocate(f *testing.F) {
	f.Add("one\ntwo\nthree\n", "two", "2")
	f.Add("a\na\n", "a", "b")
	f.Add("", "x", "")
	f.Add("x\ny", "\ny", "y")
	f.Fuzz(func(t *testing.T, file, old, new string) {
		l := acpLocate(file, old, new)
		if l == message.LineUnknown {
			return
		}
		lines := strings.Split(file, "\n")
		if l < 1 || l > len(lines) {
			t.Fatalf("line %d of %d", l, len(lines))
		}
		at := len(strings.Join(lines[:l-1], "\n"))
		if l > 1 {
			at++ // the newline before line l
		}
		s := old // the text located: old when found, else new
		if old == "" || !strings.Contains(file, old) {
			s = new
		}
		i := strings.Index(file, s)
		if s == "" || i < at || i > at+len(lines[l-1]) {
			t.Fatalf("line %d (at %d) does not hold the start of %q (at %d)", l, at, s, i)
		}
		if strings.Contains(file[i+1:], s) {
			t.Fatalf("%q is in the file more than once, yet located", s)
		}
	})
}
