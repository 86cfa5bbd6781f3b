package composer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/internal/vtscreen"
)

func press(e *Editor, keys ...string) tea.Cmd {
	var last tea.Cmd
	for _, k := range keys {
		_, last = e.Update(keyMsg(k))
	}
	return last
}

// keyMsg builds the key press a terminal would report for a key name.
func keyMsg(k string) tea.KeyPressMsg { return vtscreen.Key(k) }

func typeKeys(e *Editor, s string) {
	for _, r := range s {
		e.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func newTestEditor() *Editor {
	e := New(Options{Registry: chips.Default(chips.NoColorTheme())})
	e.SetWidth(40)
	return e
}

func TestEditorKeys(t *testing.T) {
	e := newTestEditor()
	typeKeys(e, "hello world")
	press(e, "ctrl+a", "alt+f", "ctrl+k")
	if got := e.Draft().Markdown(); got != "hello" {
		t.Fatalf("ctrl+a alt+f ctrl+k: %q", got)
	}
	press(e, "ctrl+z")
	if got := e.Draft().Markdown(); got != "hello world" {
		t.Fatalf("ctrl+z: %q", got)
	}
	press(e, "alt+z")
	if got := e.Draft().Markdown(); got != "hello" {
		t.Fatalf("alt+z redoes: %q", got)
	}
	press(e, "ctrl+shift+z") // nothing left to redo
	press(e, "shift+enter")
	typeKeys(e, "x")
	press(e, "alt+enter", "ctrl+j")
	if got := e.Draft().Markdown(); got != "hello\nx\n\n" {
		t.Fatalf("newline keys: %q", got)
	}
	press(e, "ctrl+w")
	if got := e.Draft().Markdown(); got != "hello\n" {
		t.Fatalf("ctrl+w: %q", got)
	}
	press(e, "alt+backspace")
	if got := e.Draft().Markdown(); got != "" {
		t.Fatalf("alt+backspace: %q", got)
	}
}

func TestEditorSubmit(t *testing.T) {
	e := newTestEditor()
	if cmd := press(e, "enter"); cmd != nil {
		t.Fatal("enter on an empty draft sends nothing")
	}
	typeKeys(e, "fix ")
	e.InsertContext(termRec("ctx_t"), "")
	cmd := press(e, "enter")
	if cmd == nil {
		t.Fatal("enter must submit")
	}
	sub, ok := cmd().(SubmitMsg)
	if !ok || sub.Markdown != "fix [Terminal 1 lines 1-2](t3-context://v1/terminal/ctx_t)" || len(sub.Records) != 1 {
		t.Fatalf("submit: %+v", sub)
	}
	e.Reset()
	if !e.Draft().IsEmpty() {
		t.Fatal("reset empties the draft")
	}
}

func TestEditorPasteIsOneStep(t *testing.T) {
	e := newTestEditor()
	typeKeys(e, "a")
	e.Update(tea.PasteMsg{Content: "line 1\r\nline 2\rline 3"})
	if got := e.Draft().Markdown(); got != "aline 1\nline 2\nline 3" {
		t.Fatalf("paste: %q", got)
	}
	press(e, "ctrl+z")
	if got := e.Draft().Markdown(); got != "a" {
		t.Fatalf("undo paste: %q", got)
	}
}

func TestEditorBlurredAppends(t *testing.T) {
	e := newTestEditor()
	typeKeys(e, "text")
	press(e, "ctrl+a")
	e.Blur()
	typeKeys(e, "ignored")
	e.InsertContext(termRec("t"), "")
	if got := e.Draft().Markdown(); got != "text [Terminal 1 lines 1-2](t3-context://v1/terminal/t)" {
		t.Fatalf("blurred editor appends context: %q", got)
	}
	e.Focus()
	e.InsertContext(fileRec("f"), "")
	if !strings.HasPrefix(e.Draft().Markdown(), "[a.txt](t3-context://v1/file/f)text") {
		t.Fatalf("focused editor inserts at the caret: %q", e.Draft().Markdown())
	}
}

func TestEditorGrowsThenScrolls(t *testing.T) {
	e := newTestEditor()
	e.SetMaxHeight(5)
	if e.Height() != 1 {
		t.Fatalf("an empty editor is one row, got %d", e.Height())
	}
	for i := 0; i < 3; i++ {
		press(e, "ctrl+j")
	}
	if e.Height() != 4 {
		t.Fatalf("four lines, four rows: %d", e.Height())
	}
	for i := 0; i < 20; i++ {
		typeKeys(e, "row")
		press(e, "ctrl+j")
	}
	typeKeys(e, "LAST")
	view := ansi.Strip(e.View())
	if e.Height() != 5 || strings.Count(view, "\n") != 4 || !strings.Contains(view, "LAST") {
		t.Fatalf("capped at 5 rows with the caret in view:\n%s", view)
	}
	press(e, "ctrl+home")
	view = ansi.Strip(e.View())
	if strings.Contains(view, "LAST") || !strings.HasPrefix(view, " ") && !strings.HasPrefix(view, "\n") {
		t.Fatalf("scrolled to the top:\n%q", view)
	}
	// A long wrapped line scrolls by visual rows.
	e2 := newTestEditor()
	e2.SetMaxHeight(3)
	typeKeys(e2, strings.Repeat("word ", 40)+"END")
	if v := ansi.Strip(e2.View()); !strings.Contains(v, "END") || strings.Count(v, "\n") != 2 {
		t.Fatalf("caret row visible in a wrapped line:\n%s", v)
	}
}

func TestEditorViewNeverWiderThanWidth(t *testing.T) {
	e := newTestEditor()
	e.SetWidth(20)
	typeKeys(e, "漢字漢字漢字漢字漢字漢字 emoji 😀😀😀😀😀😀😀😀 and\ttabs\tok ")
	e.InsertContext(mentionRec("m", strings.Repeat("very/long/path/", 8)+"x.go"), "")
	e.InsertContext(termRec("t"), strings.Repeat("label ", 20))
	for _, line := range strings.Split(e.View(), "\n") {
		if w := ansi.StringWidth(line); w > 20 {
			t.Fatalf("row %q is %d wide", ansi.Strip(line), w)
		}
	}
}

func TestEditorUnresolvedAndHostileLabels(t *testing.T) {
	e := newTestEditor()
	e.Draft().InsertMarkdown("see [\x1b[2Jboom](t3-context://v1/terminal/nope)", nil)
	v := e.View()
	if strings.Contains(v, "\x1b[2J") {
		t.Fatal("a label's control sequence reached the screen")
	}
	if !strings.Contains(ansi.Strip(v), "boom") {
		t.Fatalf("unresolved chip shows its label: %q", ansi.Strip(v))
	}
}

func TestMentionPicker(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"main.go", "README.md", "internal/app/model.go"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := New(Options{Registry: chips.Default(chips.NoColorTheme()), ProjectRoot: root})
	e.SetWidth(60)
	typeKeys(e, "look at")
	if cmd := e.maybeOpenPicker("x"); cmd != nil {
		t.Fatal("only @ and $ open pickers")
	}
	e.Update(tea.KeyPressMsg{Code: ' ', Text: " "})
	_, cmd := e.Update(tea.KeyPressMsg{Code: '@', Text: "@"})
	if !e.PickerOpen() || cmd == nil {
		t.Fatal("@ at a word start opens the file picker and loads files")
	}
	if !strings.Contains(ansi.Strip(e.View()), "loading") {
		t.Fatalf("picker shows loading:\n%s", ansi.Strip(e.View()))
	}
	e.Update(cmd()) // FilesLoadedMsg, loaded off the UI goroutine
	typeKeys(e, "mod")
	if item, ok := e.picker.Selected(); !ok || item.Value != "internal/app/model.go" {
		t.Fatalf("fuzzy match: %+v %v", item, ok)
	}
	press(e, "enter")
	want := "look at [internal/app/model.go](t3-context://v1/mention/" + contextref.ToContextID("mention-internal/app/model.go") + ") "
	if got := e.Draft().Markdown(); got != want || e.PickerOpen() {
		t.Fatalf("choosing inserts a mention chip:\n got %q\nwant %q", got, want)
	}
	// @ inside a word is just a character.
	typeKeys(e, "me@x")
	if e.PickerOpen() {
		t.Fatal("@ inside a word must not open the picker")
	}
	// esc closes and keeps the text.
	typeKeys(e, " @ma")
	press(e, "esc")
	if e.PickerOpen() || !strings.HasSuffix(e.Draft().Markdown(), "@ma") {
		t.Fatalf("esc closes the picker and keeps the text: %q", e.Draft().Markdown())
	}
	// A space closes it too.
	typeKeys(e, " @x y")
	if e.PickerOpen() {
		t.Fatal("a space ends the mention query")
	}
}

func TestSkillPicker(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".agents", "skills", "deploy")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: ship-it\ndescription: Deploys\n---\nbody"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := New(Options{Registry: chips.Default(chips.NoColorTheme()), ProjectRoot: root, Home: t.TempDir()})
	_, cmd := e.Update(tea.KeyPressMsg{Code: '$', Text: "$"})
	if !e.PickerOpen() || cmd == nil {
		t.Fatal("$ opens the skill picker")
	}
	e.Update(cmd())
	typeKeys(e, "sh")
	press(e, "tab")
	if got := e.Draft().Markdown(); got != "[$ship-it](t3-context://v1/skill/"+contextref.ToContextID("skill-ship-it")+") " {
		t.Fatalf("skill chip: %q", got)
	}
}

func TestExternalEditorRoundTrip(t *testing.T) {
	e := newTestEditor()
	e.InsertContext(termRec("t"), "")
	typeKeys(e, " and ")
	e.InsertContext(fileRec("f"), "")
	cmd := press(e, "ctrl+g")
	if cmd == nil {
		t.Fatal("ctrl+g starts the external editor")
	}
	fm, ok := cmd().(editorFileMsg)
	if !ok || fm.err != nil {
		t.Fatalf("draft file: %+v", fm)
	}
	defer os.Remove(fm.path)
	b, _ := os.ReadFile(fm.path)
	if string(b) != e.Draft().Markdown() {
		t.Fatalf("the file holds the canonical Markdown: %q", b)
	}
	// The user deletes the file chip, keeps the terminal one and adds a link
	// to an id the draft does not know.
	edited := "[Terminal 1 lines 1-2](t3-context://v1/terminal/t) then [x](t3-context://v1/skill/unknown)\n"
	e.Update(editorDoneMsg{text: edited})
	if got := e.Draft().Markdown(); got != strings.TrimSuffix(edited, "\n") {
		t.Fatalf("rebuilt: %q", got)
	}
	if _, ok := e.Draft().Record("t"); !ok {
		t.Fatal("links whose record exists become chips again")
	}
	if _, ok := e.Draft().Record("f"); ok {
		t.Fatal("records no longer referenced are dropped")
	}
	if e.Draft().References("unknown") != 1 {
		t.Fatal("links to unknown ids become unresolved chips")
	}
	press(e, "ctrl+z")
	if _, ok := e.Draft().Record("f"); !ok {
		t.Fatal("the external edit is one undo step")
	}
}

func TestEditorCommand(t *testing.T) {
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "nano -w")
	if got := EditorCommand(); strings.Join(got, " ") != "nano -w" {
		t.Fatalf("EDITOR: %v", got)
	}
	t.Setenv("VISUAL", "code --wait")
	if got := EditorCommand(); got[0] != "code" {
		t.Fatalf("VISUAL wins: %v", got)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "")
	if got := EditorCommand(); got[0] != "vi" {
		t.Fatalf("fallback: %v", got)
	}
	t.Setenv("EDITOR", "/nonexistent/editor")
	msg := runExternalEditor(filepath.Join(t.TempDir(), "x.md"))()
	if n, ok := msg.(NoticeMsg); !ok || !n.Err || !strings.Contains(n.Text, "EDITOR") {
		t.Fatalf("a missing editor is reported: %+v", msg)
	}
}

// Enter with an @ or $ picker showing "no matches" closes the picker and
// sends the text as typed; while the list still loads it waits (issue 25
// item 2).
func TestPickerWithNoMatchesLetsEnterSend(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "main.go"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	skill := filepath.Join(root, ".agents", "skills", "deploy")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: ship-it\ndescription: Deploys\n---\nbody"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, text string }{
		{"file", "look at @nosuchfile"},
		{"skill", "echo $HOME costs $5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New(Options{Registry: chips.Default(chips.NoColorTheme()), ProjectRoot: root, Home: t.TempDir()})
			e.SetWidth(60)
			for _, r := range tc.text {
				if _, cmd := e.Update(tea.KeyPressMsg{Code: r, Text: string(r)}); cmd != nil {
					if msg := cmd(); msg != nil {
						e.Update(msg) // the list, loaded off the UI goroutine
					}
				}
			}
			if !e.PickerOpen() || !strings.Contains(ansi.Strip(e.View()), "no matches") {
				t.Fatalf("the picker shows no matches:\n%s", ansi.Strip(e.View()))
			}
			cmd := press(e, "enter")
			if e.PickerOpen() {
				t.Error("enter left the picker open")
			}
			if cmd == nil {
				t.Fatal("enter did nothing")
			}
			sub, ok := cmd().(SubmitMsg)
			if !ok || sub.Markdown != tc.text || len(sub.Records) != 0 {
				t.Fatalf("sent %+v, want the text as typed %q", sub, tc.text)
			}
		})
	}
	// While the list loads, enter does not send a query half typed.
	e := New(Options{Registry: chips.Default(chips.NoColorTheme()), ProjectRoot: root})
	typeKeys(e, "@mai")
	if cmd := press(e, "enter"); cmd != nil || !e.PickerOpen() {
		t.Fatal("enter while the files load sent or closed the picker")
	}
}

// ctrl+u deletes to the start of the logical line, however it wraps, as
// readline does; when it takes chips it says how many and that ctrl+z
// brings them back, and ctrl+z does (issue 25 item 18).
func TestCtrlUSaysWhichChipsItTook(t *testing.T) {
	e := newTestEditor() // 40 columns: the second line wraps
	typeKeys(e, "keep this line")
	press(e, "shift+enter")
	typeKeys(e, "a long second line that wraps past forty columns with ")
	e.InsertContext(termRec("ctx_t"), "")
	typeKeys(e, " and ")
	e.InsertContext(fileRec("ctx_f"), "")
	typeKeys(e, " end")
	before := e.Draft().Markdown()
	cmd := press(e, "ctrl+u")
	if got := e.Draft().Markdown(); got != "keep this line\n" {
		t.Fatalf("ctrl+u left %q, want the first line kept", got)
	}
	if cmd == nil {
		t.Fatal("ctrl+u took 2 chips without a word")
	}
	n, ok := cmd().(NoticeMsg)
	if !ok || n.Err || !strings.Contains(n.Text, "2 chips") || !strings.Contains(n.Text, "ctrl+z") {
		t.Fatalf("notice %+v, want how many chips and ctrl+z", n)
	}
	press(e, "ctrl+z")
	if got := e.Draft().Markdown(); got != before {
		t.Fatalf("ctrl+z gave %q, want %q", got, before)
	}
	// Without chips it says nothing.
	press(e, "ctrl+e")
	typeKeys(e, "x")
	press(e, "shift+enter")
	typeKeys(e, "plain words")
	if cmd := press(e, "ctrl+u"); cmd != nil {
		t.Fatalf("ctrl+u without chips said %+v", cmd())
	}
}

// Backspace next to a chip selects it first (SelectedChip says so, for the
// hint bar) and deletes it on the second press (issue 25 item 18).
func TestBackspaceSelectsAChipFirst(t *testing.T) {
	e := newTestEditor()
	typeKeys(e, "see ")
	e.InsertContext(termRec("ctx_t"), "")
	withChip := e.Draft().Markdown()
	if _, ok := e.SelectedChip(); ok {
		t.Fatal("a chip is selected before any key")
	}
	press(e, "backspace")
	if got := e.Draft().Markdown(); got != withChip {
		t.Fatalf("the first backspace deleted: %q", got)
	}
	c, ok := e.SelectedChip()
	if !ok || c.ContextID != "ctx_t" {
		t.Fatalf("the first backspace did not select the chip: %+v %v", c, ok)
	}
	press(e, "backspace")
	if got := e.Draft().Markdown(); got != "see " {
		t.Fatalf("the second backspace left %q", got)
	}
	if _, ok := e.SelectedChip(); ok {
		t.Fatal("still selected after the delete")
	}
	// A move in between drops the selection: the next backspace selects again.
	press(e, "ctrl+z", "end")
	press(e, "backspace", "left", "right", "backspace")
	if got := e.Draft().Markdown(); got != withChip {
		t.Fatalf("backspace after a move deleted at once: %q", got)
	}
	if _, ok := e.SelectedChip(); !ok {
		t.Fatal("backspace after a move did not select the chip")
	}
	// Text is deleted at once, as before.
	press(e, "end")
	typeKeys(e, "ab")
	press(e, "backspace")
	if got := e.Draft().Markdown(); got != withChip+"a" {
		t.Fatalf("backspace on text: %q", got)
	}
}

// Pasting a T3 Code link of a kind chipchat does not know makes an
// unresolved chip that says its kind, written back byte for byte; a known
// kind's link without its record stays prose (the app's clipboard lookup
// decides those); a quote link still becomes its chip (issue 25 item 21).
func TestPasteUnknownKindLinkBecomesAChip(t *testing.T) {
	e := newTestEditor()
	e.SetWidth(80)
	text := "see [Sketch 2](t3-context://v1/whiteboard/ctx_w1) and [a.txt](t3-context://v1/file/ctx_f) ok"
	e.Update(tea.PasteMsg{Content: text})
	d := e.Draft()
	if got := d.Markdown(); got != text {
		t.Fatalf("Markdown %q, want the paste back byte for byte %q", got, text)
	}
	var kinds []string
	for i := 0; i < d.LineCount(); i++ {
		for _, atom := range d.Line(i) {
			if c, ok := d.ChipAt(atom); ok {
				kinds = append(kinds, c.Kind)
			}
		}
	}
	if len(kinds) != 1 || kinds[0] != "whiteboard" {
		t.Fatalf("chips %v, want one whiteboard chip (the file link stays prose)", kinds)
	}
	view := ansi.Strip(e.View())
	if !strings.Contains(view, "whiteboard: Sketch 2") || strings.Contains(view, "t3-context://v1/whiteboard") {
		t.Fatalf("the chip does not say its kind, or the link shows raw:\n%s", view)
	}
	if !strings.Contains(view, "t3-context://v1/file/ctx_f") {
		t.Fatalf("the known kind's link is no longer prose:\n%s", view)
	}
	// One undo step takes the whole paste.
	press(e, "ctrl+z")
	if got := e.Draft().Markdown(); got != "" {
		t.Fatalf("undo left %q", got)
	}
}
