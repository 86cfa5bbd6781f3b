package review

import (
	"strings"
	"testing"
)

// CommentOn selects the lines a range names inside one hunk and opens the
// editor; enter makes the same record v, motions and c would.
func TestCommentOn(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	new := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\nL2\nm\nn\n"
	open := func() *Model {
		m := NewAgent(Options{NoPullRequest: true, NewID: func() string { return "ctx_1" }},
			AgentDiff{Path: "x.txt", OldText: &old, NewText: new})
		m.SetSize(80, 20)
		run(m, m.Init())
		if m.doc == nil || len(m.doc.diff.Files[0].Hunks) != 2 {
			t.Fatalf("want two hunks: %v", m.err)
		}
		return m
	}

	// The second hunk's added lines, by new-side numbers, and the deleted
	// line before them by its old number.
	m := open()
	_, ok := m.CommentOn("x.txt", 12, 13, 12, 12)
	if !ok || !m.Editing() {
		t.Fatal("the editor should be open")
	}
	typeText(m, "why?")
	msgs := press(m, "enter")
	if len(msgs) != 1 {
		t.Fatalf("%#v", msgs)
	}
	rec := msgs[0].(CommentMsg).Record
	if rec.RangeLabel != "L12-L13" || rec.Text != "why?" || !strings.Contains(rec.Diff, "-l\n+L\n+L2") {
		t.Fatalf("%+v", rec)
	}
	// The same lines chosen with the pane's own keys give the same record.
	m2 := open()
	press(m2, "]", "j", "j", "j", "v", "j", "j", "c")
	typeText(m2, "why?")
	rec2 := press(m2, "enter")[0].(CommentMsg).Record
	if rec2.Diff != rec.Diff || rec2.RangeLabel != rec.RangeLabel || rec2.SectionID != rec.SectionID {
		t.Fatalf("keys gave %+v\nCommentOn gave %+v", rec2, rec)
	}

	// Deleted lines only (old side), in the first hunk.
	m = open()
	if _, ok := m.CommentOn("", 0, 0, 2, 2); !ok {
		t.Fatal("old-side line 2")
	}
	typeText(m, "gone")
	rec = press(m, "enter")[0].(CommentMsg).Record
	if rec.RangeLabel != "L2" || !strings.Contains(rec.Diff, "-b") {
		t.Fatalf("%+v", rec)
	}

	// Nothing there: nothing changes.
	m = open()
	if _, ok := m.CommentOn("x.txt", 40, 41, 0, 0); ok || m.Editing() {
		t.Fatal("no line 40")
	}
	if _, ok := m.CommentOn("other.txt", 2, 2, 0, 0); ok || m.Editing() {
		t.Fatal("another file")
	}
	// Not loaded yet.
	un := NewAgent(Options{NoPullRequest: true}, AgentDiff{Path: "x.txt", OldText: &old, NewText: new})
	if _, ok := un.CommentOn("", 2, 2, 0, 0); ok {
		t.Fatal("not loaded")
	}
}

// Any range: no panic; when CommentOn finds lines, the editor is open on
// lines of one hunk that the range names, and enter makes a valid record.
func FuzzCommentOn(f *testing.F) {
	f.Add(12, 13, 12, 12)
	f.Add(0, 0, 2, 2)
	f.Add(-5, 100, 0, -1)
	f.Add(1, 1<<40, 1, 1<<40)
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	new := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\nL2\nm\nn\n"
	f.Fuzz(func(t *testing.T, nf, nt, of, ot int) {
		m := NewAgent(Options{NoPullRequest: true, NewID: func() string { return "ctx_1" }}, AgentDiff{Path: "x.txt", OldText: &old, NewText: new})
		m.SetSize(80, 20)
		run(m, m.Init())
		_, ok := m.CommentOn("", nf, nt, of, ot)
		if !ok {
			if m.Editing() {
				t.Fatal("editing without a match")
			}
			return
		}
		from, to := m.selection()
		a, b := m.doc.rows[from], m.doc.rows[to]
		if a.file != b.file || a.hunk != b.hunk || a.kind != rowLine || b.kind != rowLine {
			t.Fatalf("rows %v %v", a, b)
		}
		h := m.doc.diff.Files[a.file].Hunks[a.hunk]
		for _, r := range []row{a, b} {
			l := h.Lines[r.line]
			inNew := l.Kind != LineDeleted && nf > 0 && l.New >= nf && l.New <= nt
			inOld := l.Kind != LineAdded && of > 0 && l.Old >= of && l.Old <= ot
			if !inNew && !inOld {
				t.Fatalf("line %+v is not in the range", l)
			}
		}
		typeText(m, "x")
		if msgs := press(m, "enter"); len(msgs) != 1 {
			t.Fatalf("%#v", msgs)
		}
	})
}
