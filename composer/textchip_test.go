package composer

import "testing"

func TestTextChipNearCaretIsATextFileChip(t *testing.T) {
	d := NewDraft()
	if _, _, why := d.TextChipNearCaret(); why != "no chip beside the caret" {
		t.Fatalf("empty draft: %q", why)
	}
	d.InsertChip(termRec("ctx_t"), "")
	if _, _, why := d.TextChipNearCaret(); why != "only a text file chip expands into prose" {
		t.Fatalf("terminal chip: %q", why)
	}
	d.InsertText(" ")
	d.InsertChip(fileRec("att_1"), "")
	ref, att, why := d.TextChipNearCaret()
	if why != "" || att != "att_1" || ref == "" {
		t.Fatalf("text file chip: ref %q, attachment %q, why %q", ref, att, why)
	}
	if !d.ReplaceChipWithText(ref, "prose") || d.Markdown() == "" {
		t.Fatalf("the ref id does not name the chip: %q", d.Markdown())
	}
}
