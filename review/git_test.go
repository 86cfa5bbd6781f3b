package review

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/contextref"
)

func stripANSI(s string) string { return ansi.Strip(s) }

const mainGo = `package main

import "fmt"

func main() {
	fmt.Println("hello")
	fmt.Println("world")
}

func helper() int {
	return 1
}
`

func modifiedRepo(t *testing.T) string {
	dir := gitRepo(t, map[string]string{"main.go": mainGo, "docs/readme.md": "# Title\n\ntext\n", "old.txt": "gone\n"})
	writeFile(t, dir, "main.go", strings.Replace(strings.Replace(mainGo,
		`fmt.Println("hello")`, `fmt.Println("hello, there")`, 1),
		"return 1", "return 2", 1))
	writeFile(t, dir, "new.txt", "brand\nnew\n")
	if err := os.Remove(filepath.Join(dir, "old.txt")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func loadedPane(t *testing.T, opts Options) *Model {
	t.Helper()
	m := New(opts)
	m.SetSize(100, 30)
	run(m, m.Init())
	if m.err != nil {
		t.Fatal(m.err)
	}
	if m.doc == nil {
		t.Fatal("not loaded")
	}
	return m
}

func TestLoadWorkingTree(t *testing.T) {
	dir := modifiedRepo(t)
	d, err := Git{}.Load(context.Background(), dir, Comparison{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range d.Files {
		names = append(names, string(statusLetter(f))+" "+f.Path())
	}
	got := strings.Join(names, ", ")
	if got != "M main.go, D old.txt, ? new.txt" {
		t.Fatalf("files: %s", got)
	}
	if d.Head == "" || len(d.Head) != 40 {
		t.Fatalf("head %q", d.Head)
	}
	if n := len(d.Files[0].Hunks); n != 1 {
		t.Fatalf("main.go: %d hunks", n)
	}
	nt := d.Files[2]
	if len(nt.Hunks) != 1 || nt.Hunks[0].Header() != "@@ -0,0 +1,2 @@" || nt.Hunks[0].Lines[1].Text != "new" {
		t.Fatalf("untracked file: %+v", nt.Hunks)
	}
}

func TestLoadStagedAndRef(t *testing.T) {
	dir := modifiedRepo(t)
	git(t, dir, "add", "main.go")
	d, err := Git{}.Load(context.Background(), dir, Comparison{Kind: Staged})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) != 1 || d.Files[0].Path() != "main.go" {
		t.Fatalf("staged: %+v", d.Files)
	}
	// A branch with one more commit: against main shows what it adds.
	git(t, dir, "checkout", "-q", "-b", "topic")
	git(t, dir, "commit", "-q", "-m", "topic", "main.go")
	git(t, dir, "checkout", "-q", "--", ".")
	d, err = Git{}.Load(context.Background(), dir, Comparison{Kind: AgainstRef, Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) == 0 || d.Files[0].Path() != "main.go" {
		t.Fatalf("against main: %+v", d.Files)
	}
	if _, err := (Git{}).Load(context.Background(), dir, Comparison{Kind: AgainstRef, Ref: "nope"}); err == nil {
		t.Fatal("a missing ref loads")
	}
}

func TestLoadNoCommitAndNoRepo(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q")
	writeFile(t, dir, "a.txt", "x\n")
	d, err := Git{}.Load(context.Background(), dir, Comparison{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Head != "" || len(d.Files) != 1 || !d.Files[0].Untracked {
		t.Fatalf("repository without commits: %+v", d)
	}
	if _, err := (Git{}).Load(context.Background(), t.TempDir(), Comparison{}); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Fatalf("outside a repository: %v", err)
	}
}

func TestCommentOnTwoLines(t *testing.T) {
	dir := modifiedRepo(t)
	head := git(t, dir, "rev-parse", "HEAD")
	m := loadedPane(t, Options{ProjectDir: dir, NoPullRequest: true, NewID: func() string { return "ctx_1" }})
	// The cursor starts on the first line of main.go's hunk; go to the
	// deleted "hello" line and select it and the added one below.
	for i := 0; i < 10 && !strings.HasPrefix(m.lineAt(m.cursor), `-	fmt.Println("hello")`); i++ {
		press(m, "j")
	}
	press(m, "v", "j", "c")
	if !m.Editing() {
		t.Fatal("c opened no editor")
	}
	typeText(m, "Say hello")
	press(m, "ctrl+j")
	typeText(m, "properly")
	msgs := press(m, "enter")
	if len(msgs) != 1 {
		t.Fatalf("messages %#v", msgs)
	}
	rec := msgs[0].(CommentMsg).Record
	if rec.ContextID != "ctx_1" || rec.Kind != contextref.KindReviewComment || rec.Label != "main.go L6" {
		t.Fatalf("record base %+v", rec.Base)
	}
	if rec.FilePath != "main.go" || rec.StartIndex != 6 || rec.EndIndex != 6 || rec.RangeLabel != "L6" {
		t.Fatalf("range %+v", rec)
	}
	if rec.SectionTitle != "Working tree vs HEAD" || !strings.HasPrefix(rec.SectionID, "diff-") {
		t.Fatalf("section %q %q", rec.SectionTitle, rec.SectionID)
	}
	if rec.Text != "Say hello\nproperly" {
		t.Fatalf("text %q", rec.Text)
	}
	wantDiff := "@@ -3,7 +3,7 @@\n import \"fmt\"\n \n func main() {\n-\tfmt.Println(\"hello\")\n+\tfmt.Println(\"hello, there\")\n \tfmt.Println(\"world\")\n }\n "
	if rec.Diff != wantDiff {
		t.Fatalf("diff %q", rec.Diff)
	}
	if rec.FenceLanguage == nil || *rec.FenceLanguage != "diff" {
		t.Fatal("fence language")
	}
	if rec.SourceRevision == nil || *rec.SourceRevision != head {
		t.Fatalf("source revision %v, HEAD %s", rec.SourceRevision, head)
	}
	if m.Editing() || m.selecting {
		t.Fatal("the editor or the selection stayed open")
	}
	// Fresh: not stale. After an edit of those lines: stale.
	if stale, err := Stale(dir, rec); err != nil || stale {
		t.Fatalf("stale %v %v", stale, err)
	}
	writeFile(t, dir, "main.go", strings.Replace(mainGo, `fmt.Println("hello")`, `fmt.Println("bye")`, 1))
	if stale, err := Stale(dir, rec); err != nil || !stale {
		t.Fatalf("after an edit: stale %v %v", stale, err)
	}
	if err := MarkStale(dir, rec); err != nil || rec.SourceStale == nil || !*rec.SourceStale {
		t.Fatalf("MarkStale: %v %v", err, rec.SourceStale)
	}
}

// lineAt is the diff text of row r ("-text", " text"), or "".
func (m *Model) lineAt(r int) string {
	rw := m.doc.rows[r]
	if rw.kind != rowLine {
		return ""
	}
	l := m.doc.diff.Files[rw.file].Hunks[rw.hunk].Lines[rw.line]
	return string(l.Kind) + l.Text
}

func TestLoadOddFiles(t *testing.T) {
	long := strings.Repeat("a line that stays the same in the renamed file\n", 20)
	dir := gitRepo(t, map[string]string{
		"before.txt": long, "crlf.txt": "one\r\ntwo\r\n", "bin.dat": "\x00\x01\x02", "café.txt": "x\n",
	})
	git(t, dir, "mv", "before.txt", "after.txt")
	writeFile(t, dir, "after.txt", long+"one more\n")
	writeFile(t, dir, "crlf.txt", "one\r\nTWO\r\n")
	writeFile(t, dir, "bin.dat", "\x00\x01\x03")
	writeFile(t, dir, "café.txt", "y")
	writeFile(t, dir, "we\"ird\tname.txt", "q\n")
	m := loadedPane(t, Options{ProjectDir: dir, NoPullRequest: true, NewID: func() string { return "o" }})
	byPath := map[string]*File{}
	for _, f := range m.doc.diff.Files {
		byPath[f.Path()] = f
	}
	if f := byPath["after.txt"]; f == nil || f.Status != Renamed || f.OldPath != "before.txt" || len(f.Hunks) != 1 {
		t.Fatalf("rename: %+v", f)
	}
	if f := byPath["bin.dat"]; f == nil || !f.Binary {
		t.Fatalf("binary: %+v", f)
	}
	if f := byPath["crlf.txt"]; f == nil || f.Hunks[0].Lines[1].Text != "two\r" {
		t.Fatalf("crlf: %+v", f.Hunks[0].Lines)
	}
	if f := byPath["café.txt"]; f == nil || !f.Hunks[0].Lines[1].NoNewline {
		t.Fatalf("no newline: %+v", f)
	}
	if f := byPath["we\"ird\tname.txt"]; f == nil || !f.Untracked {
		t.Fatalf("odd untracked name: %v", byPath)
	}
	view := plainView(m)
	if strings.Contains(view, "\r") || !strings.Contains(view, "before.txt → after.txt") {
		t.Fatalf("view:\n%s", view)
	}
	// A comment on the CRLF file is not stale while the file is unchanged.
	for m.doc.diff.Files[m.doc.fileOf(m.cursor)].Path() != "crlf.txt" {
		press(m, "}")
	}
	press(m, "j", "v", "j", "c")
	typeText(m, "case")
	rec := press(m, "enter")[0].(CommentMsg).Record
	if stale, err := Stale(dir, rec); err != nil || stale {
		t.Fatalf("crlf stale %v %v (%q)", stale, err, rec.Diff)
	}
}

func TestManyUntracked(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.txt": "a\n"})
	for i := 0; i < maxUntracked+20; i++ {
		writeFile(t, dir, "gen/"+strconv.Itoa(i)+".txt", "x\n")
	}
	d, err := Git{}.Load(context.Background(), dir, Comparison{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) != maxUntracked {
		t.Fatalf("%d files", len(d.Files))
	}
	// More names than the list may hold: cut at the last whole name, not
	// an error.
	defer func(n int64) { untrackedListBytes = n }(untrackedListBytes)
	untrackedListBytes = 100
	d, err = Git{}.Load(context.Background(), dir, Comparison{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(d.Files); n == 0 || n > 100/len("gen/0.txt") {
		t.Fatalf("%d files from 100 bytes of names", n)
	}
	for _, f := range d.Files {
		if !strings.HasPrefix(f.Path(), "gen/") || !strings.HasSuffix(f.Path(), ".txt") {
			t.Fatalf("cut name %q", f.Path())
		}
	}
}
