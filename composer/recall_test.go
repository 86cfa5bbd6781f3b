package composer

import "testing"

func TestRecallKeepsTheTypedDraftAndSeesEdits(t *testing.T) {
	e := New(Options{})
	typed := FromMarkdown("two\nlines", nil)
	typed.SetCaret(Pos{Line: 1}, false)
	if RecallsOn(typed, true) || !RecallsOn(typed, false) {
		t.Fatal("caret on the last line: down recalls, up moves the caret")
	}
	typed.SetCaret(Pos{}, false)
	if !RecallsOn(typed, true) || RecallsOn(typed, false) {
		t.Fatal("caret on the first line: up recalls, down moves the caret")
	}
	e.SetDraft(typed)
	var r Recall
	r.Keep(e.Draft())
	r.Show(e, "earlier\nprompt", nil)
	if got := e.Draft().Markdown(); got != "earlier\nprompt" || e.Draft().Caret() != (Pos{Line: 1, Col: 6}) {
		t.Fatalf("shown %q, caret %+v", got, e.Draft().Caret())
	}
	if r.Edited(e) {
		t.Fatal("nothing edited yet")
	}
	e.Draft().InsertText("!")
	if !r.Edited(e) {
		t.Fatal("an edit is not seen")
	}
	r.Back(e)
	if got := e.Draft().Markdown(); got != "two\nlines" {
		t.Fatalf("back: %q, want the typed draft", got)
	}
	r.Back(e) // forgotten: an empty draft
	if !e.Draft().IsEmpty() {
		t.Fatalf("second back: %q", e.Draft().Markdown())
	}
	r.Keep(FromMarkdown("", nil))
	r.Back(e)
	if !e.Draft().IsEmpty() {
		t.Fatal("an empty draft is not kept")
	}
}
