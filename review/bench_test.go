package review

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/vtscreen"
)

// sizedDiff is a unified diff of n Go files with 10 hunks of 100 lines
// each: 1,000 diff lines a file (20 files: the 20,000 lines).
func sizedDiff(n int) string { return hunkDiff(n, 10) }

// hunkDiff is a unified diff of n Go files with hunks hunks of 100 lines
// each.
func hunkDiff(n, hunks int) string {
	var b strings.Builder
	for f := 0; f < n; f++ {
		name := fmt.Sprintf("pkg/mod%02d/file.go", f)
		fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n", name, name, name, name)
		oldN, newN := 1, 1
		for h := 0; h < hunks; h++ {
			// 100 lines: 60 context, 20 deleted, 20 added, in groups of 10.
			fmt.Fprintf(&b, "@@ -%d,80 +%d,80 @@ func f%d() {\n", oldN, newN, h)
			for g := 0; g < 5; g++ {
				for i := 0; i < 12; i++ {
					fmt.Fprintf(&b, " \tvalue%d := compute(%q, %d) // context\n", i, name, g)
				}
				for i := 0; i < 4; i++ {
					fmt.Fprintf(&b, "-\tresult := strings.Repeat(\"old\", %d) + fmt.Sprint(x%d)\n", i, g)
				}
				for i := 0; i < 4; i++ {
					fmt.Fprintf(&b, "+\tresult := strings.Repeat(\"new\", %d) + fmt.Sprint(y%d)\n", i, g)
				}
			}
			oldN += 200
			newN += 200
		}
	}
	return b.String()
}

func bigPane(tb testing.TB) *Model { return sizedPane(tb, 20) }

// sizedPane is a 120×40 pane on sizedDiff(n), every file lexed (the
// steady state: the background lexer is done).
// The lexing (chroma: about 0.1 ms a line) is done once per size and the
// pane kept for the next benchmark run.
func sizedPane(tb testing.TB, n int) *Model {
	if m, ok := lexedPanes[n]; ok {
		return m
	}
	m := coldPane(tb, n)
	lexedPanes[n] = m
	run(m, m.lexNext())
	if len(m.hl.files) != n {
		tb.Fatalf("%d of %d files lexed", len(m.hl.files), n)
	}
	return m
}

var lexedPanes = map[int]*Model{}

// coldPane is sizedPane before the lexer ran.
func coldPane(tb testing.TB, n int) *Model {
	tb.Helper()
	return diffPane(tb, sizedDiff(n), 1000*n)
}

// smallPane is a 120×40 pane on the 200-line diff of two files (the
// file list shown, as on the big diff), lexed.
func smallPane(tb testing.TB) *Model {
	if smallLexed == nil {
		smallLexed = diffPane(tb, hunkDiff(2, 1), 200)
		run(smallLexed, smallLexed.lexNext())
	}
	return smallLexed
}

var smallLexed *Model

// diffPane is a 120×40 pane on text, which has lines diff lines.
func diffPane(tb testing.TB, text string, lines int) *Model {
	tb.Helper()
	files, err := ParseUnified([]byte(text))
	if err != nil {
		tb.Fatal(err)
	}
	d := &Diff{Files: files}
	m := NewFromDiff(Options{NoPullRequest: true}, d)
	m.doc = buildDoc(d)
	m.cursor = m.doc.nextSelectable(0, 1)
	m.SetSize(120, 40)
	got := 0
	for _, f := range files {
		for _, h := range f.Hunks {
			got += len(h.Lines)
		}
	}
	if got != lines {
		tb.Fatalf("%d diff lines, want %d", got, lines)
	}
	return m
}

// BenchmarkReviewWholeRender draws every row of the 20,000-line diff from
// cold caches: what a pane that rendered the whole diff would pay.
func BenchmarkReviewWholeRender(b *testing.B) {
	m := coldPane(b, 20)
	pw := m.paneWidth()
	for b.Loop() {
		m.hl = newHighlighter(m.theme.Syntax)
		m.words = map[lineKey][]span{}
		for r := range m.doc.rows {
			_ = m.renderRow(r, pw, 0)
		}
	}
}

// BenchmarkReviewScroll is one scroll step (j, then View) on the same
// diff, walking through all of it.
func BenchmarkReviewScroll(b *testing.B) { benchScroll(b, bigPane(b), "j") }

// BenchmarkReviewRowCache is a scroll step (j, and PageDown: a screen of
// new rows) at growing diffs, 2,000 to 200,000 lines: the row cache and
// the lexed tokens make it cost the rows drawn, not the diff.
func BenchmarkReviewRowCache(b *testing.B) {
	for _, n := range []int{2, 20, 200} {
		m := sizedPane(b, n)
		for _, k := range []string{"j", "pgdown"} {
			b.Run(fmt.Sprintf("key=%s/lines=%d", k, 1000*n), func(b *testing.B) { benchScroll(b, m, k) })
		}
	}
}

// BenchmarkReviewKey is what the pane costs per key (Update and View) on
// the 20,000-line diff, j and PageDown, walking through all of it; and j
// on a 200-line diff, for scale.
func BenchmarkReviewKey(b *testing.B) {
	b.Run("key=j/lines=20000", func(b *testing.B) { b.ReportAllocs(); benchScroll(b, bigPane(b), "j") })
	b.Run("key=pgdown/lines=20000", func(b *testing.B) { b.ReportAllocs(); benchScroll(b, bigPane(b), "pgdown") })
	b.Run("key=j/lines=200", func(b *testing.B) { b.ReportAllocs(); benchScroll(b, smallPane(b), "j") })
}

// benchScroll presses key then draws, walking through the diff (g back at
// the end).
func benchScroll(b *testing.B, m *Model, key string) {
	down, top := vtscreen.Key(key), vtscreen.Key("g")
	_ = m.View()
	for b.Loop() {
		last := m.cursor
		m.Update(down)
		if m.cursor == last {
			m.Update(top)
		}
		_ = m.View()
	}
}
