package composer

import (
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

func selTerm(id string) *contextref.TerminalRecord {
	return &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, id, "Terminal 1"),
		TerminalID: "t1", TerminalLabel: "Terminal 1", LineStart: 1, LineEnd: 1, Text: "x"}
}

func TestSelectedMarkdownAndCut(t *testing.T) {
	link := contextref.LinkFor(selTerm("ctx_t"))
	d := FromMarkdown("ab "+link+" cd "+link, []contextref.Record{selTerm("ctx_t")})
	if _, _, ok := d.SelectedMarkdown(); ok {
		t.Fatal("no selection, yet SelectedMarkdown ok")
	}
	d.SetCaret(Pos{0, 1}, false)
	d.SetCaret(Pos{0, 6}, true) // "b [chip] c"
	text, recs, ok := d.SelectedMarkdown()
	if !ok || text != "b "+link+" c" || len(recs) != 1 {
		t.Fatalf("selection = %q %v %v", text, recs, ok)
	}
	text, recs, ok = d.Cut()
	if !ok || text != "b "+link+" c" || len(recs) != 1 {
		t.Fatalf("cut = %q %v", text, recs)
	}
	if got := d.Markdown(); got != "ad "+link {
		t.Errorf("after cut %q", got)
	}
	if _, held := d.Record("ctx_t"); !held {
		t.Error("the record another chip still points at went")
	}
	d.Undo()
	if got := d.Markdown(); got != "ab "+link+" cd "+link {
		t.Errorf("undo of cut: %q", got)
	}
}

func TestChipNearCaretAndExpand(t *testing.T) {
	link := contextref.LinkFor(selTerm("ctx_t"))
	d := FromMarkdown("x "+link+" y", []contextref.Record{selTerm("ctx_t")})
	d.SetCaret(Pos{0, 0}, false)
	if _, _, ok := d.ChipNearCaret(); ok {
		t.Error("chip found away from any chip")
	}
	d.SetCaret(Pos{0, 3}, false)
	c, p, ok := d.ChipNearCaret()
	if !ok || c.ContextID != "ctx_t" || p != (Pos{0, 2}) {
		t.Fatalf("before caret: %+v %v %v", c, p, ok)
	}
	d.SetCaret(Pos{0, 2}, false)
	if c2, _, ok := d.ChipNearCaret(); !ok || c2.RefID != c.RefID {
		t.Fatal("after caret: not found")
	}
	if !d.ReplaceChipWithText(c.RefID, "line1\nline2") {
		t.Fatal("ReplaceChipWithText failed")
	}
	if got := d.Markdown(); got != "x line1\nline2 y" {
		t.Errorf("expanded: %q", got)
	}
	if _, held := d.Record("ctx_t"); held {
		t.Error("record kept after its only chip went")
	}
	d.Undo()
	if got := d.Markdown(); got != "x "+link+" y" {
		t.Errorf("undo: %q", got)
	}
}

func TestClearAllUndoKeepsCaret(t *testing.T) {
	d := FromMarkdown("keep me", nil)
	d.SetCaret(Pos{0, 4}, false)
	d.ClearAll()
	if !d.IsEmpty() {
		t.Fatal("not cleared")
	}
	d.Undo()
	if _, _, sel := d.Selection(); sel || d.Caret() != (Pos{0, 4}) || d.Markdown() != "keep me" {
		t.Errorf("after undo: caret %v, selection %v, %q", d.Caret(), sel, d.Markdown())
	}
}
