package composer

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
)

// Issue 25 item 7: the @ list is read again each time the picker opens (a
// file created after the first look is offered), the last list shown
// meanwhile; directories are offered, marked "/", and a directory chosen
// is a mention of "dir/" (sent as its listing).
func TestFilePickerRefreshesAndOffersDirectories(t *testing.T) {
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, "main.go"))
	writeTestFile(t, filepath.Join(root, "internal", "app", "model.go"))
	e := New(Options{Registry: chips.Default(chips.NoColorTheme()), ProjectRoot: root})
	e.SetWidth(60)

	_, cmd := e.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	if cmd == nil {
		t.Fatal("@ loads the files")
	}
	e.Update(cmd())
	if got := e.files; !slices.Equal(got, []string{"internal/", "internal/app/", "internal/app/model.go", "main.go"}) {
		t.Fatalf("the @ list: %q", got)
	}
	press(e, "esc")

	// Created after the first look (by the user or the agent).
	writeTestFile(t, filepath.Join(root, "notes", "todo.md"))
	typeKeys(e, " ")
	_, cmd = e.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	if cmd == nil {
		t.Fatal("opening the picker again reads the files again")
	}
	typeKeys(e, "todo")
	if v := ansi.Strip(e.View()); !strings.Contains(v, "loading") || !strings.Contains(v, "of 4 loading") {
		t.Fatalf("while the list is read again, the last one is shown, loading:\n%s", v)
	}
	e.Update(cmd())
	if it, ok := e.picker.Selected(); !ok || it.Value != "notes/todo.md" {
		t.Fatalf("the new file is offered: %+v %v\n%s", it, ok, ansi.Strip(e.View()))
	}
	for range 4 {
		press(e, "backspace")
	}
	typeKeys(e, "notes")
	if it, ok := e.picker.Selected(); !ok || it.Value != "notes/" {
		t.Fatalf("the directory is offered first for its name: %+v %v\n%s", it, ok, ansi.Strip(e.View()))
	}
	if v := ansi.Strip(e.View()); !strings.Contains(v, " notes/ ") {
		t.Fatalf("the directory is drawn with its /:\n%s", v)
	}
	press(e, "enter")
	want := "[notes/](t3-context://v1/mention/" + contextref.ToContextID("mention-notes/") + ") "
	if got := e.Draft().Markdown(); !strings.HasSuffix(got, want) {
		t.Fatalf("choosing the directory: %q, want it to end with %q", got, want)
	}
}

// The picker opened again while the listing its last opening began still
// runs: that listing may predate a file made in between, so another one
// follows it, and the file is offered (CI saw "0 of 2" for 15 s: the new
// file was never listed until the picker opened once more).
func TestFilePickerOpenedDuringAListingListsAgain(t *testing.T) {
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, "main.go"))
	e := New(Options{Registry: chips.Default(chips.NoColorTheme()), ProjectRoot: root})
	e.SetWidth(60)
	_, cmd := e.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	if cmd == nil {
		t.Fatal("@ loads the files")
	}
	early := cmd() // the listing runs now; its answer comes later
	press(e, "esc")
	writeTestFile(t, filepath.Join(root, "later", "notes-later.md"))
	typeKeys(e, " ")
	e.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	typeKeys(e, "later")
	_, again := e.Update(early)
	if again == nil {
		t.Fatal("the listing begun before the picker opened ended, and no other followed")
	}
	if _, more := e.Update(again()); more != nil {
		t.Fatal("a listing begun after the opening is followed by yet another")
	}
	if it, ok := e.picker.Selected(); !ok || it.Value != "later/notes-later.md" && it.Value != "later/" {
		t.Fatalf("the file made in between is not offered: %+v %v\n%s", it, ok, ansi.Strip(e.View()))
	}
	if v := ansi.Strip(e.View()); !strings.Contains(v, "later/notes-later.md") {
		t.Fatalf("the new file is not in the picker:\n%s", v)
	}
}

// A refresh that fails keeps the list shown.
func TestFilePickerFailedRefreshKeepsTheList(t *testing.T) {
	e := New(Options{Registry: chips.Default(chips.NoColorTheme()), ProjectRoot: "/p"})
	e.Update(FilesLoadedMsg{Root: "/p", Paths: []string{"a.go"}})
	e.Update(FilesLoadedMsg{Root: "/p", Err: os.ErrPermission})
	if !slices.Equal(e.files, []string{"a.go"}) {
		t.Fatalf("after a failed refresh: %q", e.files)
	}
}

func writeTestFile(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Issue 25 item 1: in ! shell mode (SetPlain) @, $ and # are characters.
func TestPlainEditorOpensNoPicker(t *testing.T) {
	e := New(Options{Registry: chips.Default(chips.NoColorTheme()), ProjectRoot: t.TempDir(),
		Threads: func() ([]ThreadItem, error) { return nil, nil }})
	typeKeys(e, "x $")
	if !e.PickerOpen() {
		t.Fatal("$ opens the skill picker in a normal draft")
	}
	e.SetPlain(true)
	if e.PickerOpen() {
		t.Fatal("SetPlain closes the open picker")
	}
	for _, c := range []string{" $", " @", " #"} {
		typeKeys(e, c)
		if e.PickerOpen() {
			t.Fatalf("%q opened a picker in plain mode", c)
		}
	}
	if got := e.Draft().Markdown(); got != `x $ $ @ #` {
		t.Fatalf("the characters typed: %q", got)
	}
	e.SetPlain(false)
	typeKeys(e, " @")
	if !e.PickerOpen() {
		t.Fatal("@ opens the picker again after SetPlain(false)")
	}
}
