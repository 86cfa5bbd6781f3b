package composer

import (
	"strings"
	"testing"
)

// A chip at the caret gets a space before it after a word, none at a
// line's start; InsertAtCaret puts it at the caret, a space after, even
// while the editor is blurred.
func TestChipAtCaret(t *testing.T) {
	e := newTestEditor()
	e.Focus()
	typeKeys(e, "see")
	e.SpaceBeforeChip()
	if got := e.Draft().Markdown(); got != "see " {
		t.Fatalf("after a word: %q", got)
	}
	press(e, "ctrl+a")
	e.SpaceBeforeChip()
	if got := e.Draft().Markdown(); got != "see " {
		t.Fatalf("at the line's start: %q", got)
	}
	e.Blur()
	e.InsertAtCaret(termRec("ctx_1"))
	md := e.Draft().Markdown()
	if len(e.Draft().Records()) != 1 || !strings.HasSuffix(md, " see ") || e.Focused() {
		t.Fatalf("blurred: %q, %d records, focused %v", md, len(e.Draft().Records()), e.Focused())
	}
}
