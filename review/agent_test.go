package review

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

func TestAgentDiffComment(t *testing.T) {
	dir := gitRepo(t, map[string]string{"src/app.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n"})
	head := git(t, dir, "rev-parse", "HEAD")
	old := "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
	new := "def f():\n    return 10\n\n\ndef g():\n    return 2\n\n\ndef h():\n    pass\n"
	writeFile(t, dir, "src/app.py", new)
	m := NewAgent(Options{ProjectDir: dir, NoPullRequest: true, NewID: func() string { return "agent_1" }},
		AgentDiff{Path: filepath.Join(dir, "src", "app.py"), OldText: &old, NewText: new})
	m.SetSize(80, 20)
	run(m, m.Init())
	if m.err != nil {
		t.Fatal(m.err)
	}
	view := plainView(m)
	if !strings.Contains(view, "Agent edit") || !strings.Contains(view, "src/app.py") || strings.Contains(view, dir) {
		t.Fatalf("view:\n%s", view)
	}
	if m.listWidth() != 0 {
		t.Fatal("one file: no file list")
	}
	// Select the three added lines of h (the last lines of the hunk).
	press(m, "G", "v", "k", "k", "c")
	typeText(m, "Why h?")
	msgs := press(m, "enter")
	if len(msgs) != 1 {
		t.Fatalf("%#v", msgs)
	}
	rec := msgs[0].(CommentMsg).Record
	if rec.FilePath != "src/app.py" || rec.SectionTitle != "Agent edit" || rec.RangeLabel != "L8-L10" || rec.StartIndex != 8 || rec.EndIndex != 10 {
		t.Fatalf("%+v", rec)
	}
	if rec.Label != "app.py L8-L10" {
		t.Fatalf("label %q", rec.Label)
	}
	if !strings.HasSuffix(rec.Diff, "+\n+def h():\n+    pass") {
		t.Fatalf("diff %q", rec.Diff)
	}
	if rec.SourceRevision == nil || *rec.SourceRevision != head {
		t.Fatalf("revision %v", rec.SourceRevision)
	}
	if stale, err := Stale(dir, rec); err != nil || stale {
		t.Fatalf("stale %v %v", stale, err)
	}
	// The projection shows it as the agent will read it.
	text := "Look " + contextref.LinkFor(rec)
	proj := contextref.Project(text, []contextref.Record{rec})
	for _, want := range []string{`<context kind="review-comment" id="agent_1">`, "file: src/app.py", "range: L8-L10 (8-10)", "section: Agent edit", "  Why h?", "+def h():"} {
		if !strings.Contains(proj, want) {
			t.Fatalf("projection lacks %q:\n%s", want, proj)
		}
	}
}

func TestAgentDiffOutsideRepo(t *testing.T) {
	dir := t.TempDir()
	m := NewAgent(Options{ProjectDir: dir, NoPullRequest: true, NewID: func() string { return "a" }},
		AgentDiff{Path: "notes.txt", NewText: "one\ntwo\n"})
	m.SetSize(80, 12)
	run(m, m.Init())
	msgs := press(m, "c")
	typeText(m, "ok")
	msgs = append(msgs, press(m, "enter")...)
	rec := msgs[0].(CommentMsg).Record
	if rec.SourceRevision != nil || rec.FilePath != "notes.txt" || rec.RangeLabel != "L1" {
		t.Fatalf("%+v", rec)
	}
	// The file is not on disk: the excerpt's lines are gone, so stale.
	if stale, err := Stale(dir, rec); err != nil || !stale {
		t.Fatalf("stale %v %v", stale, err)
	}
}

func TestAgentPath(t *testing.T) {
	for _, c := range [][3]string{
		{"/p", "/p/a/b.go", "a/b.go"},
		{"/p", "a/./b.go", "a/b.go"},
		{"/p", "/elsewhere/x", "/elsewhere/x"},
		{"/p", "", ""},
	} {
		if got := AgentPath(c[0], c[1]); got != c[2] {
			t.Errorf("AgentPath(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestRelPath(t *testing.T) {
	for _, c := range [][3]string{
		{"", "a/b.go", "a/b.go"},
		{"sub/", "sub/x.go", "x.go"},
		{"sub/dir/", "sub/other/x.go", "../other/x.go"},
		{"sub/", "top.go", "../top.go"},
	} {
		if got := RelPath(c[0], c[1]); got != c[2] {
			t.Errorf("RelPath(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// An agent's diff of a snippet (Claude's old_string/new_string) is
// numbered by its file's lines in the pane, and so is a comment on it: the
// line the agent diff carries (AgentDiff.Line), or, when that is unknown,
// where the file holds the snippet now.
func TestAgentSnippetCommentCarriesTheFilesLines(t *testing.T) {
	dir := t.TempDir()
	file := "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 60\ng = 7\n"
	writeFile(t, dir, "main.py", file)
	old := "f = 6\n"
	for _, c := range []struct {
		name string
		line int
	}{{"the diff's line", 6}, {"unknown: found in the file", -1}} {
		t.Run(c.name, func(t *testing.T) {
			m := NewAgent(Options{ProjectDir: dir, NoPullRequest: true, NewID: func() string { return "a" }},
				AgentDiff{Path: filepath.Join(dir, "main.py"), OldText: &old, NewText: "f = 60\n", Line: c.line})
			m.SetSize(80, 12)
			run(m, m.Init())
			if m.err != nil {
				t.Fatal(m.err)
			}
			cmd, ok := m.CommentOn("", 6, 6, 0, 0)
			if !ok {
				t.Fatalf("line 6 is not in the pane:\n%s", plainView(m))
			}
			run(m, cmd)
			typeText(m, "why 60?")
			msgs := press(m, "enter")
			if len(msgs) != 1 {
				t.Fatalf("%#v", msgs)
			}
			rec := msgs[0].(CommentMsg).Record
			if rec.RangeLabel != "L6" || rec.StartIndex != 6 || rec.Label != "main.py L6" {
				t.Fatalf("%+v", rec)
			}
			if stale, err := Stale(dir, rec); err != nil || stale {
				t.Fatalf("stale %v %v", stale, err)
			}
		})
	}
}
