package workspace

import (
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

// The store writes a draft only when it changed: saving again the text,
// records and caret last written (typing a letter and deleting it), or
// those of the draft the thread opened with, writes nothing; a change of
// any of them writes; and so does the same text once something else wrote
// the draft meanwhile (the send clearing it).
func TestSaveDraftWritesOnlyChanges(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	th := w.NewThread()
	w.DraftLoaded(th.ID, nil)
	rev := func() int64 {
		t.Helper()
		r, err := e.st.DraftRev(th.ID)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	no := uint64(0)
	save := func(d Draft) DraftSaved {
		t.Helper()
		no++
		d.ThreadID = th.ID
		return must(t, w.SaveDraft(no, d))
	}

	if res := save(Draft{}); !res.Unchanged || rev() != 0 {
		t.Fatalf("an empty draft over none: %+v rev %d", res, rev())
	}
	rec := &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, "term_1", "Terminal 1 lines 1-2"),
		TerminalID: "t1", TerminalLabel: "Terminal 1", LineStart: 1, LineEnd: 2, Text: "a\nb"}
	d := Draft{Markdown: "half typed " + contextref.LinkFor(rec), Records: []contextref.Record{rec}, Caret: Caret{0, 4}}
	if res := save(d); res.Unchanged || rev() == 0 {
		t.Fatalf("first save: %+v rev %d", res, rev())
	}
	r0 := rev()
	if res := save(d); !res.Unchanged || rev() != r0 {
		t.Fatalf("the same draft again: %+v rev %d, was %d", res, rev(), r0)
	}
	for _, changed := range []Draft{
		{Markdown: d.Markdown + "!", Records: d.Records, Caret: d.Caret},
		{Markdown: d.Markdown + "!", Records: d.Records, Caret: Caret{0, 5}},
		{Markdown: d.Markdown + "!", Caret: Caret{0, 5}},
	} {
		before := rev()
		if res := save(changed); res.Unchanged || rev() == before {
			t.Fatalf("a changed draft %+v was not written: %+v", changed, res)
		}
	}

	// Opened again: the loaded draft is what is on disk.
	o := must(t, w.Load(th.ID))
	w2 := e.workspace()
	w2.DraftLoaded(th.ID, o.Draft)
	r1 := rev()
	no++
	if res := must(t, w2.SaveDraft(no, *o.Draft)); !res.Unchanged || rev() != r1 {
		t.Fatalf("the loaded draft saved unchanged: %+v", res)
	}

	// The send clears it behind the workspace's back: the same text is
	// written again.
	noErr(t, func() error { return e.st.ClearSentDraft(th.ID, o.Draft.Markdown) })
	if rev() != 0 {
		t.Fatal("the sent draft was not cleared")
	}
	no++
	if res := must(t, w2.SaveDraft(no, *o.Draft)); res.Unchanged || rev() == 0 {
		t.Fatalf("after the clear the draft must be written again: %+v", res)
	}
}
