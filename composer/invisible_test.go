package composer

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Bidi controls and zero-width characters in the draft are drawn as dim
// marks, never raw; the draft keeps them; the caret steps over one as over
// any character, and wrapping counts the mark's width.
func TestScreenInvisibleCharactersAreMarks(t *testing.T) {
	h := screenEditor(t.TempDir())
	s := newScreen(t, h, 40, 6)
	s.Send(tea.PasteMsg{Content: "a\u202Eb\u2066c\u2069d\u200Be"})
	scr := s.WaitForText("a⟨U+202E⟩b⟨U+2066⟩c⟨U+2069⟩d⟨U+200B⟩e")
	for _, r := range []rune{'\u202E', '\u2066', '\u2069', '\u200B'} {
		if strings.ContainsRune(scr, r) {
			t.Fatalf("U+%04X was written raw:\n%s", r, scr)
		}
	}
	// The mark wraps as the width it is drawn with: four marks and five
	// letters take 37 of the 40 columns, so the x's go on to a second row.
	s.Type(strings.Repeat("x", 8))
	scr = s.WaitFor(func(text string) bool { return strings.Count(text, "x") == 8 })
	lines := strings.Split(scr, "\n")
	if !strings.HasPrefix(lines[1], "xxx") {
		t.Fatalf("the marks' width was not counted when wrapping:\n%s", scr)
	}
}

func TestInvisibleKeptInDraft(t *testing.T) {
	d := NewDraft()
	d.InsertText("x\u202Ey")
	if d.Markdown() != "x\u202Ey" {
		t.Fatalf("draft %q", d.Markdown())
	}
	e := New(Options{MaxHeight: 4})
	e.SetWidth(40)
	e.SetDraft(d)
	e.Focus()
	v := e.ViewWith(NoColorStyles())
	if strings.ContainsRune(v, '\u202E') || !strings.Contains(v, "⟨U+202E⟩") {
		t.Fatalf("view %q", v)
	}
	// The caret on the character is drawn on its mark.
	d.SetCaret(Pos{0, 1}, false)
	if v := e.ViewWith(NoColorStyles()); !strings.Contains(v, "⟨U+202E⟩") || strings.ContainsRune(v, '\u202E') {
		t.Fatalf("view with the caret on it %q", v)
	}
}
