package review

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/internal/vtscreen"
)

func samplePane(t *testing.T, diff string) *Model {
	t.Helper()
	files, err := ParseUnified([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	m := NewFromDiff(Options{NoPullRequest: true, NewID: func() string { return "id1" }}, &Diff{Files: files})
	m.SetSize(100, 30)
	run(m, m.Init())
	return m
}

// at is "file:hunk:line" of the cursor.
func (m *Model) at() string {
	rw := m.doc.rows[m.cursor]
	return m.doc.diff.Files[rw.file].Path() + ":" + string(rune('0'+rw.hunk)) + ":" + string(rune('0'+rw.line))
}

func TestNavigation(t *testing.T) {
	m := samplePane(t, gitSample)
	if m.at() != "main.go:0:0" {
		t.Fatalf("start %s", m.at())
	}
	steps := []struct{ key, want string }{
		{"k", "main.go:0:0"}, {"j", "main.go:0:1"}, {"down", "main.go:0:2"}, {"up", "main.go:0:1"},
		{"]", "main.go:1:0"}, {"]", "new name.txt:0:0"}, {"[", "main.go:1:0"}, {"j", "main.go:1:1"},
		{"[", "main.go:1:0"}, {"[", "main.go:0:0"}, {"}", "new name.txt:0:0"}, {"}", "gone.txt:0:0"},
		{"}", "img.png:0:0"}, {"{", "gone.txt:0:0"}, {"j", "gone.txt:0:1"}, {"{", "gone.txt:0:0"},
		{"G", "elsewhere/moved.txt:0:0"}, {"j", "elsewhere/moved.txt:0:0"}, {"g", "main.go:0:0"},
	}
	for i, s := range steps {
		press(m, s.key)
		if m.at() != s.want {
			t.Fatalf("step %d (%s): at %s, want %s", i, s.key, m.at(), s.want)
		}
	}
	// Binary files, mode changes and renames without content get a note row.
	press(m, "}", "}", "}")
	view := plainView(m)
	for _, want := range []string{"binary file, not shown", "mode 100644 → 100755", "renamed, content unchanged", "empty file"} {
		if !strings.Contains(view, want) {
			t.Fatalf("no %q:\n%s", want, view)
		}
	}
	// c on a note row says there is nothing to comment on.
	press(m, "c")
	if m.Editing() || !strings.Contains(plainView(m), "Nothing to comment on here") {
		t.Fatal("c on a binary file")
	}
}

func TestSelectionStaysInHunk(t *testing.T) {
	m := samplePane(t, gitSample)
	press(m, "j", "v", "j", "j", "j", "j", "j", "j", "j", "j")
	if m.at() != "main.go:0:5" {
		t.Fatalf("the selection left its hunk: %s", m.at())
	}
	press(m, "]", "}")
	if m.at() != "main.go:0:5" {
		t.Fatalf("jumps left the hunk: %s", m.at())
	}
	press(m, "g")
	if m.at() != "main.go:0:0" {
		t.Fatalf("g: %s", m.at())
	}
	from, to := m.selection()
	if m.selectedLines(from, to) != 2 {
		t.Fatalf("%d lines", m.selectedLines(from, to))
	}
	// v ends the selection; esc ends it too, and only then closes.
	press(m, "v")
	if m.selecting {
		t.Fatal("v did not end the selection")
	}
	press(m, "v", "j")
	if msgs := press(m, "esc"); len(msgs) != 0 || m.selecting {
		t.Fatalf("esc with a selection: %v %v", msgs, m.selecting)
	}
	if msgs := press(m, "esc"); len(msgs) != 1 || msgs[0] != (ClosedMsg{}) {
		t.Fatalf("esc without one: %v", msgs)
	}
}

func TestEditorInnermost(t *testing.T) {
	m := samplePane(t, gitSample)
	press(m, "j", "v", "j", "c")
	typeText(m, "draft")
	// esc drops the comment and gives the selection back.
	if msgs := press(m, "esc"); len(msgs) != 0 || m.Editing() || !m.selecting {
		t.Fatalf("esc in the editor: %v editing=%v selecting=%v", msgs, m.Editing(), m.selecting)
	}
	// A blank comment is not confirmed.
	press(m, "c")
	typeText(m, "   ")
	if msgs := press(m, "enter"); len(msgs) != 0 || !m.Editing() || !strings.Contains(plainView(m), "write a comment") {
		t.Fatalf("blank enter: %v", msgs)
	}
	// The editor starts empty each time.
	press(m, "esc", "c")
	if m.editor.Value() != "" {
		t.Fatalf("editor holds %q", m.editor.Value())
	}
	typeText(m, "one")
	press(m, "shift+enter")
	typeText(m, "two")
	msgs := press(m, "enter")
	rec := msgs[0].(CommentMsg).Record
	if rec.Text != "one\ntwo" || rec.RangeLabel != "L2" || rec.StartIndex != 2 || rec.EndIndex != 2 {
		t.Fatalf("%+v", rec)
	}
	// Several comments in one pass: each is its own record.
	press(m, "]", "c")
	typeText(m, "second")
	msgs = press(m, "enter")
	if r2 := msgs[0].(CommentMsg).Record; r2.Text != "second" || r2.SectionID == rec.SectionID {
		t.Fatalf("second record %+v", r2)
	}
}

func TestRecordRanges(t *testing.T) {
	m := samplePane(t, gitSample)
	// The deleted line alone names its old-side number.
	press(m, "j", "c")
	typeText(m, "why")
	rec := press(m, "enter")[0].(CommentMsg).Record
	if rec.RangeLabel != "L2" || rec.StartIndex != 2 || rec.Label != "main.go L2" {
		t.Fatalf("%+v", rec)
	}
	if rec.Diff != "@@ -1,3 +1,4 @@\n package main\n-var a = 1\n+var a = 2\n+var b = 3\n " {
		t.Fatalf("diff %q", rec.Diff)
	}
	// Same hunk, same section id; the title names the comparison.
	press(m, "j", "j", "c")
	typeText(m, "b")
	rec2 := press(m, "enter")[0].(CommentMsg).Record
	if rec2.SectionID != rec.SectionID || rec2.SectionTitle != "Working tree vs HEAD" || rec2.RangeLabel != "L3" {
		t.Fatalf("%+v", rec2)
	}
	// No-newline markers ride along in the excerpt.
	press(m, "}", "c")
	typeText(m, "eol")
	rec3 := press(m, "enter")[0].(CommentMsg).Record
	if rec3.FilePath != "new name.txt" || rec3.Diff != "@@ -1 +1 @@\n-one\n\\ No newline at end of file\n+one" {
		t.Fatalf("%+v", rec3)
	}
	for _, r := range []*contextref.ReviewCommentRecord{rec, rec2, rec3} {
		raw, err := contextref.MarshalRecord(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := contextref.DecodeRecord(raw); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSectionTitles(t *testing.T) {
	for _, c := range []struct {
		args, title string
	}{{"", "Working tree vs HEAD"}, {"--staged", "Staged vs HEAD"}, {"--cached", "Staged vs HEAD"}, {"main", "Working tree vs main"}, {"abc123", "Working tree vs abc123"}} {
		cmp, err := ParseArgs(c.args)
		if err != nil || cmp.Title() != c.title {
			t.Errorf("%q: %v %q", c.args, err, cmp.Title())
		}
	}
	for _, bad := range []string{"a b", "--nope"} {
		if _, err := ParseArgs(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRebindKeys(t *testing.T) {
	files, _ := ParseUnified([]byte(gitSample))
	km := DefaultKeyMap()
	km.Down = key.NewBinding(key.WithKeys("n"))
	km.Comment = key.NewBinding(key.WithKeys("m"))
	km.Confirm = key.NewBinding(key.WithKeys("ctrl+s"))
	m := NewFromDiff(Options{NoPullRequest: true, KeyMap: km, NewID: func() string { return "x" }}, &Diff{Files: files})
	m.SetSize(100, 30)
	run(m, m.Init())
	press(m, "j")
	if m.at() != "main.go:0:0" {
		t.Fatal("j still moves")
	}
	press(m, "n", "m")
	typeText(m, "hi")
	if msgs := press(m, "enter"); len(msgs) != 0 {
		t.Fatal("enter still confirms")
	}
	msgs := press(m, "ctrl+s")
	if len(msgs) != 1 || msgs[0].(CommentMsg).Record.RangeLabel != "L2" {
		t.Fatalf("%v", msgs)
	}
}

var sgrRE = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func TestSanitized(t *testing.T) {
	evil := "diff --git a/x\x1b]0;pwn\x07.go b/x\x1b]0;pwn\x07.go\n--- a/x\x1b]0;pwn\x07.go\n+++ b/x\x1b]0;pwn\x07.go\n@@ -1 +1 @@\n-\x1b[2Jold\u202e\n+new\x1b]8;;http://x\x07link\x1b]8;;\x07\t\x9b31m\n"
	m := samplePane(t, evil)
	out := sgrRE.ReplaceAllString(m.View(), "")
	if strings.Contains(out, "\x1b") || strings.Contains(out, "\x07") || strings.Contains(out, "\u202e") || strings.Contains(out, "\u009b") || strings.Contains(out, "[2J") {
		t.Fatalf("control characters reach the screen: %q", out)
	}
	if !strings.Contains(out, "old") || !strings.Contains(out, "newlink") {
		t.Fatalf("text lost: %q", out)
	}
}

func TestOnlyVisibleRowsRendered(t *testing.T) {
	m := coldPane(t, 20)
	_ = m.View()
	if n := len(m.rowCache); n > m.h {
		t.Fatalf("%d rows drawn for a %d-row screen", n, m.h)
	}
	if n := len(m.hl.files); n != 0 {
		t.Fatalf("View lexed %d files on the UI goroutine", n)
	}
	press(m, "G")
	_ = m.View()
	if n := len(m.rowCache); n > 2*m.h {
		t.Fatalf("%d rows drawn after a jump to the end", n)
	}
	// A resize draws again at the new width.
	m.SetSize(80, 20)
	v := m.View()
	for _, l := range strings.Split(v, "\n") {
		if w := len([]rune(sgrRE.ReplaceAllString(l, ""))); w > 80 {
			t.Fatalf("line of %d columns at width 80", w)
		}
	}
}

func TestWordChanges(t *testing.T) {
	o, n := wordChanges("return compute(a, b)", "return compute(a, c)")
	if len(o) != 1 || len(n) != 1 || "return compute(a, b)"[o[0].from:o[0].to] != "b" || "return compute(a, c)"[n[0].from:n[0].to] != "c" {
		t.Fatalf("%v %v", o, n)
	}
	// Unrelated lines get no word highlights.
	if o, n := wordChanges("alpha beta gamma", "one two three"); o != nil || n != nil {
		t.Fatalf("%v %v", o, n)
	}
}

func TestStaleWithoutHeader(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.txt", "1\n2\nthree\nfour\n5\n")
	rec := &contextref.ReviewCommentRecord{FilePath: "a.txt", StartIndex: 3, EndIndex: 4, Diff: " 2\n-3\n+three\n+four\n 5"}
	if stale, err := Stale(dir, rec); err != nil || stale {
		t.Fatalf("%v %v", stale, err)
	}
	rec.StartIndex = 1
	if stale, _ := Stale(dir, rec); !stale {
		t.Fatal("a range the lines are not at is not stale")
	}
	rec.Diff = "-gone"
	if stale, _ := Stale(dir, rec); stale {
		t.Fatal("a deletion-only record is stale")
	}
}

func TestTooLargeSelection(t *testing.T) {
	long := strings.Repeat("x", 33000)
	m := samplePane(t, "--- a/big.txt\n+++ b/big.txt\n@@ -1 +1 @@\n-a\n+"+long+"\n")
	press(m, "j", "c")
	typeText(m, "too big")
	if msgs := press(m, "enter"); len(msgs) != 0 || !m.Editing() || !strings.Contains(plainView(m), "too large") {
		t.Fatalf("%v\n%s", msgs, plainView(m))
	}
}

func TestSubdirectoryProject(t *testing.T) {
	dir := gitRepo(t, map[string]string{"web/src/app.js": "let a = 1;\n", "top.txt": "t\n"})
	writeFile(t, dir, "web/src/app.js", "let a = 2;\n")
	writeFile(t, dir, "top.txt", "u\n")
	m := loadedPane(t, Options{ProjectDir: dir + "/web", NoPullRequest: true, NewID: func() string { return "s" }})
	var paths []string
	for _, f := range m.doc.diff.Files {
		paths = append(paths, f.Path())
	}
	if strings.Join(paths, " ") != "top.txt web/src/app.js" {
		t.Fatalf("%v", paths)
	}
	press(m, "}", "j", "c")
	typeText(m, "x")
	rec := press(m, "enter")[0].(CommentMsg).Record
	if rec.FilePath != "src/app.js" {
		t.Fatalf("path %q", rec.FilePath)
	}
	if stale, err := Stale(dir+"/web", rec); err != nil || stale {
		t.Fatalf("%v %v", stale, err)
	}
	if d, _ := (Git{}).Load(context.Background(), dir+"/web", Comparison{}); d.Prefix != "web/" {
		t.Fatalf("prefix %q", d.Prefix)
	}
}

func TestThemes(t *testing.T) {
	for name, th := range map[string]Theme{"dark": DefaultTheme(), "light": LightTheme(), "none": NoColorTheme()} {
		files, _ := ParseUnified([]byte(gitSample))
		m := NewFromDiff(Options{NoPullRequest: true, Theme: &th}, &Diff{Files: files})
		m.SetSize(90, 20)
		run(m, m.Init())
		out := m.View()
		if !strings.Contains(sgrRE.ReplaceAllString(out, ""), "+ var a = 2") {
			t.Fatalf("%s: %q", name, out)
		}
		if hasColour := strings.Contains(out, ";2;"); hasColour != (name != "none") {
			t.Fatalf("%s: colour %v", name, hasColour)
		}
	}
}

func TestReload(t *testing.T) {
	dir := modifiedRepo(t)
	m := loadedPane(t, Options{ProjectDir: dir, NoPullRequest: true, NewID: func() string { return "r" }})
	press(m, "j", "j", "j", "j", "c")
	typeText(m, "mark")
	press(m, "enter")
	place := m.at()
	if len(m.marks) != 1 {
		t.Fatal("no mark")
	}
	// A new line at the top of the file: after r the cursor is on the same
	// line of the file, one row further down, and the marks are gone.
	text := "// header\n" + strings.Replace(strings.Replace(mainGo,
		`fmt.Println("hello")`, `fmt.Println("hello, there")`, 1), "return 1", "return 2", 1)
	writeFile(t, dir, "main.go", text)
	path, line := m.cursorPlace()
	press(m, "r")
	if p, l := m.cursorPlace(); p != path || l != line {
		t.Fatalf("after reload at %s:%d, was %s:%d (%s)", p, l, path, line, place)
	}
	if len(m.marks) != 0 || m.doc.diff.Files[0].Hunks[0].Lines[0].Text != "// header" {
		t.Fatalf("reload kept stale state: marks %v", m.marks)
	}
}

// FuzzPaneKeys presses random keys on a pane and checks what must always
// hold: the cursor rests on a selectable row, a selection stays in one
// hunk, the view is exactly Size's lines (the app takes it unmeasured),
// every one fitting the width.
func FuzzPaneKeys(f *testing.F) {
	keys := []string{"j", "k", "down", "up", "pgdown", "pgup", "g", "G", "]", "[", "}", "{", "v", "c", "x", "enter", "esc", "ctrl+j", "r", "q"}
	f.Add([]byte{0, 12, 0, 13, 14, 15, 16}, uint8(80))
	f.Add([]byte{10, 10, 11, 9, 12, 0, 0, 0, 13, 14, 14, 15}, uint8(40))
	files, err := ParseUnified([]byte(gitSample))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, seq []byte, width uint8) {
		if len(seq) > 64 {
			seq = seq[:64]
		}
		m := NewFromDiff(Options{NoPullRequest: true, NewID: func() string { return "f" }}, &Diff{Files: files})
		w := int(width)%150 + 1
		m.SetSize(w, int(width)%30+1)
		run(m, m.Init())
		for _, b := range seq {
			press(m, keys[int(b)%len(keys)])
			if !m.doc.selectable(m.cursor) {
				t.Fatalf("cursor on row %d (%v)", m.cursor, m.doc.rows[m.cursor].kind)
			}
			if m.selecting {
				a, c := m.doc.rows[m.anchor], m.doc.rows[m.cursor]
				if a.file != c.file || a.hunk != c.hunk || a.kind != rowLine || c.kind != rowLine {
					t.Fatalf("selection %v..%v", a, c)
				}
			}
			lines := strings.Split(m.View(), "\n")
			if sw, sh := m.Size(); sw != w || len(lines) != sh {
				t.Fatalf("%d lines, Size %d×%d, set %d×%d", len(lines), sw, sh, w, int(width)%30+1)
			}
			for _, l := range lines {
				if lw := ansi.StringWidth(l); lw > w {
					t.Fatalf("line of %d columns at width %d: %q", lw, w, l)
				}
			}
		}
	})
}

func TestReloadWhileEditing(t *testing.T) {
	dir := modifiedRepo(t)
	m := loadedPane(t, Options{ProjectDir: dir, NoPullRequest: true, NewID: func() string { return "p" }})
	_, reload := m.Update(vtscreen.Key("r"))
	press(m, "j", "c")
	typeText(m, "kept")
	// The reload's result arrives while the editor is open: it waits.
	writeFile(t, dir, "main.go", "// header\n"+mainGo)
	run(m, reload)
	if !m.Editing() || m.pending == nil {
		t.Fatal("the reload replaced the diff under the editor")
	}
	msgs := press(m, "enter")
	if len(msgs) != 1 || msgs[0].(CommentMsg).Record.Text != "kept" {
		t.Fatalf("%v", msgs)
	}
	if m.pending != nil || m.doc.diff.Files[0].Hunks[0].Lines[0].Text != "// header" {
		t.Fatal("the waiting diff was not shown after the editor closed")
	}
	// An empty diff can be read again too.
	m2 := loadedPane(t, Options{ProjectDir: gitRepo(t, map[string]string{"a": "a\n"}), NoPullRequest: true})
	if !strings.Contains(plainView(m2), "No changes.") {
		t.Fatal(plainView(m2))
	}
	if _, cmd := m2.Update(vtscreen.Key("r")); cmd == nil {
		t.Fatal("r does nothing on an empty diff")
	}
}
