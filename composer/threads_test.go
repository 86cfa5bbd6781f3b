package composer

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
)

var testNow = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func threadEditor(t *testing.T, calls *int) *Editor {
	t.Helper()
	e := New(Options{Registry: chips.Default(chips.NoColorTheme()), Threads: func() ([]ThreadItem, error) {
		*calls++
		return []ThreadItem{
			{EnvironmentID: "env_a", ThreadID: "thread_42", Title: "Fix login bug", Updated: testNow.Add(-3 * time.Hour)},
			{EnvironmentID: "env_a", ThreadID: "thread_7", Title: "Refactor the store", Updated: testNow.Add(-50 * time.Hour)},
		}, nil
	}})
	e.SetWidth(60)
	return e
}

// loadWithClock runs the load command and fixes its clock for the ages.
func loadWithClock(e *Editor, cmd tea.Cmd) {
	msg := cmd().(ThreadsLoadedMsg)
	msg.Now = testNow
	e.Update(msg)
}

func TestThreadPicker(t *testing.T) {
	calls := 0
	e := threadEditor(t, &calls)
	typeKeys(e, "see ")
	_, cmd := e.Update(tea.KeyPressMsg{Code: '#', Text: "#"})
	if !e.PickerOpen() || cmd == nil || calls != 0 {
		t.Fatalf("# at a word start opens the picker and asks for threads off the UI goroutine (open %v, calls %d)", e.PickerOpen(), calls)
	}
	loadWithClock(e, cmd)
	if calls != 1 {
		t.Fatalf("provider called %d times", calls)
	}
	view := ansi.Strip(e.View())
	if !strings.Contains(view, "Fix login bug") || !strings.Contains(view, "3h") || !strings.Contains(view, "2d") {
		t.Fatalf("picker lists titles and ages:\n%s", view)
	}
	typeKeys(e, "login")
	press(e, "enter")
	id := contextref.ToContextID("thread-env_a-thread_42")
	want := "see [Fix login bug](t3-context://v1/thread/" + id + ") "
	if got := e.Draft().Markdown(); got != want || e.PickerOpen() {
		t.Fatalf("choosing inserts a thread chip:\n got %q\nwant %q", got, want)
	}
	rec, ok := e.Draft().Record(id)
	th, _ := rec.(*contextref.ThreadRecord)
	if !ok || th == nil || th.ThreadID != "thread_42" || th.EnvironmentID != "env_a" || th.Title != "Fix login bug" {
		t.Fatalf("thread record %+v", rec)
	}
	if !strings.Contains(ansi.Strip(e.View()), "# Fix login bug") {
		t.Fatalf("the chip shows its title:\n%s", ansi.Strip(e.View()))
	}
	// The projection is exactly DESIGN.md 3.5's.
	out := contextref.Project(e.Draft().Markdown(), e.Draft().Records())
	if !strings.Contains(out, "<context kind=\"thread\" id=\""+id+"\">\ntitle: Fix login bug\nthreadId: thread_42\nenvironmentId: env_a\n"+contextref.ThreadInstruction+"\n</context>") {
		t.Fatalf("projection:\n%s", out)
	}
}

func TestThreadPickerLeavesLiteralHash(t *testing.T) {
	calls := 0
	e := threadEditor(t, &calls)
	// esc leaves the '#'.
	_, cmd := e.Update(tea.KeyPressMsg{Code: '#', Text: "#"})
	loadWithClock(e, cmd)
	press(e, "esc")
	if e.PickerOpen() || e.Draft().Markdown() != "#" {
		t.Fatalf("esc: %q open=%v", e.Draft().Markdown(), e.PickerOpen())
	}
	// A Markdown heading types through.
	e.Reset()
	typeKeys(e, "# Title")
	if e.PickerOpen() || e.Draft().Markdown() != "# Title" {
		t.Fatalf("heading: %q open=%v", e.Draft().Markdown(), e.PickerOpen())
	}
	// "#123" with nothing matching: Enter closes the picker and submits.
	e.Reset()
	_, cmd = e.Update(tea.KeyPressMsg{Code: '#', Text: "#"})
	loadWithClock(e, cmd)
	typeKeys(e, "123")
	_, sub := e.Update(keyMsg("enter"))
	if e.PickerOpen() || sub == nil {
		t.Fatal("enter with no matching thread must close the picker and submit")
	}
	if m, ok := sub().(SubmitMsg); !ok || m.Markdown != "#123" {
		t.Fatalf("submitted %+v", sub())
	}
	// Inside a word '#' is a character.
	e.Reset()
	typeKeys(e, "a#b")
	if e.PickerOpen() {
		t.Fatal("# inside a word opened the picker")
	}
	// Without a provider there is no picker.
	plain := newTestEditor()
	typeKeys(plain, "#")
	if plain.PickerOpen() {
		t.Fatal("no provider, no picker")
	}
}

func TestThreadPickerError(t *testing.T) {
	e := New(Options{Registry: chips.Default(chips.NoColorTheme()), Threads: func() ([]ThreadItem, error) {
		return nil, errors.New("store closed")
	}})
	e.SetWidth(60)
	_, cmd := e.Update(tea.KeyPressMsg{Code: '#', Text: "#"})
	e.Update(cmd())
	if v := ansi.Strip(e.View()); !strings.Contains(v, "store closed") {
		t.Fatalf("the error shows:\n%s", v)
	}
}

func TestThreadAge(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Second: "now", 5 * time.Minute: "5m", 3 * time.Hour: "3h", 49 * time.Hour: "2d",
		15 * 24 * time.Hour: "2w", 800 * 24 * time.Hour: "2y",
	} {
		if got := ThreadAge(testNow.Add(-d), testNow); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
	if ThreadAge(time.Time{}, testNow) != "" {
		t.Error("zero time has no age")
	}
}

const citeHref = "t3-citation://v1/env-1/thread-1/message-1?text=Use+a+mutex+here.&start=6&end=23&prefix=I+think+you+should+&suffix=+It+avoids+races"

func TestCitationChips(t *testing.T) {
	link := "[Assistant quote](" + citeHref + ")"
	// Odd but valid encoding: kept byte for byte.
	odd := "[Assistant quote](t3-citation://v1/env-1/thread-1/message-1?suffix=&prefix=&end=5&start=0&text=q%20r)"
	md := "Explain " + link + " and " + odd + " [Assistant quote](t3-citation://v1/bad) ![x](t3-context://v1/image/i)"
	d := FromMarkdown(md, nil)
	if got := d.Markdown(); got != md {
		t.Fatalf("round trip:\n got %q\nwant %q", got, md)
	}
	var quotes int
	for _, a := range d.Line(0) {
		if c, ok := d.ChipAt(a); ok && c.Citation != nil {
			quotes++
			if c.Kind != CitationKind {
				t.Errorf("kind %q", c.Kind)
			}
		}
	}
	if quotes != 2 {
		t.Fatalf("%d quote chips, want 2 (the invalid link stays prose)", quotes)
	}
	if len(d.Records()) != 0 {
		t.Fatalf("a citation is not a record: %d records", len(d.Records()))
	}
	// One atom: one backspace removes it whole.
	d2 := FromMarkdown("x "+link, nil)
	d2.MoveDocEnd(false)
	d2.DeleteBackward()
	if got := d2.Markdown(); got != "x " {
		t.Fatalf("backspace over a quote chip: %q", got)
	}
	d2.Undo()
	if got := d2.Markdown(); got != "x "+link {
		t.Fatalf("undo: %q", got)
	}
	// Pasting the link as plain text makes the chip (no record needed);
	// context links stay prose.
	d3 := NewDraft()
	d3.InsertText("see " + link + " [a](t3-context://v1/file/f)")
	if n := len(d3.Line(0)); n != len("see ")+1+len(" [a](t3-context://v1/file/f)") {
		t.Fatalf("paste: %d atoms", n)
	}
	if got := d3.Markdown(); got != "see "+link+" [a](t3-context://v1/file/f)" {
		t.Fatalf("paste round trip %q", got)
	}
	// Copying a selection carries the link.
	d3.SelectAll()
	if text, recs, ok := d3.SelectedMarkdown(); !ok || !strings.Contains(text, link) || len(recs) != 0 {
		t.Fatalf("copy: %q %d", text, len(recs))
	}
	// The comment edit replaces the link in one undo step.
	var ref string
	for _, a := range d3.Line(0) {
		if c, ok := d3.ChipAt(a); ok && c.Citation != nil {
			ref = c.RefID
		}
	}
	if !d3.EditCitationComment(ref, "  Why not a channel?  ") {
		t.Fatal("comment edit: chip not found")
	}
	if got := d3.Markdown(); !strings.Contains(got, "&comment=Why+not+a+channel%3F)") {
		t.Fatalf("comment edit: %q", got)
	}
	d3.Undo()
	if got := d3.Markdown(); got != "see "+link+" [a](t3-context://v1/file/f)" {
		t.Fatalf("comment edit undo: %q", got)
	}
	// InsertCitation writes the canonical link.
	c, err := contextref.ParseCitationHref(citeHref)
	if err != nil {
		t.Fatal(err)
	}
	d4 := NewDraft()
	d4.InsertCitation(c)
	if got := d4.Markdown(); got != link {
		t.Fatalf("InsertCitation: %q", got)
	}
	// The provider reads the expansion.
	if out := contextref.ProjectForProvider(d4.Markdown(), d4.Records()); !strings.HasPrefix(out, "[assistant-quote-1]\n\n<assistant_citations>") {
		t.Fatalf("provider text %q", out)
	}
}

func TestCitationChipView(t *testing.T) {
	e := newTestEditor()
	e.SetWidth(60)
	e.Draft().InsertText("q [Assistant quote](" + citeHref + ")")
	v := ansi.Strip(e.View())
	if !strings.Contains(v, "❝ Use a mutex here.") || strings.Contains(v, "t3-citation") {
		t.Fatalf("the quote chip shows its label, not the link:\n%s", v)
	}
}

func TestCitationPlainText(t *testing.T) {
	d := FromMarkdown("see [Assistant quote]("+citeHref+"&comment=why%3F)", nil)
	if got := d.Text(); got != "see Use a mutex here.\nComment: why?" {
		t.Fatalf("Text: %q", got)
	}
}

func TestEditorInsertCitation(t *testing.T) {
	c, err := contextref.ParseCitationHref(citeHref)
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEditor()
	typeKeys(e, "ab")
	press(e, "left")
	e.InsertCitation(c)
	if got := e.Draft().Markdown(); got != "a"+c.Link()+"b" {
		t.Fatalf("at the caret: %q", got)
	}
	e.Blur()
	e.InsertCitation(c)
	if got := e.Draft().Markdown(); got != "a"+c.Link()+"b "+c.Link() {
		t.Fatalf("appended when blurred: %q", got)
	}
	if e.Draft().Caret() != (Pos{0, 2}) {
		t.Fatalf("the caret stays: %+v", e.Draft().Caret())
	}
}
