package transcript

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// plainSame fails t unless block src, drawn the plain way when it can be,
// has the lines glamour draws at the full width.
func plainSame(t *testing.T, m *Model, src string) bool {
	t.Helper()
	cw := m.contentWidth()
	got, ok := m.plainLines(src, cw, cw)
	if !ok {
		return false
	}
	if want := m.glamourDraw(src, cw, cw, true); !slices.Equal(got, want) {
		t.Fatalf("style %q width %d, %q:\nglamour: %q\nplain:   %q", m.style, cw, src, want, got)
	}
	return true
}

var plainWords = []string{
	"the", "handler", "returns", "early", "when", "context", "is", "cancelled,", "so", "test", "sees", "nil.",
	"it's", "\"quoted\"", "100%", "a/b", "x-y", "1+1=2", "$5", "ok?", "end;", "-", "--", "2.", "3)", "12",
	"**bold**", "`code`", "**two words**", "`a b c`", "**x**.", "`y`,", "`nil`;", "**z**?", "`-1`", "**1.**",
	"antidisestablishmentarianism", "supercalifragilisticexpialidocious-and-then-some-more-words", "I", "a",
}

// plainRandom is a random plain paragraph or list.
func plainRandom(r *rand.Rand) string {
	list := r.IntN(3) == 0
	var b strings.Builder
	lines := 1 + r.IntN(5)
	for k := range lines {
		if k > 0 {
			b.WriteByte('\n')
		}
		if list {
			b.WriteString("- ")
		}
		for j := range 1 + r.IntN(14) {
			if j > 0 {
				b.WriteString(strings.Repeat(" ", 1+r.IntN(4)/3))
			}
			b.WriteString(plainWords[r.IntN(len(plainWords))])
		}
	}
	if r.IntN(4) == 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// TestPlainFastSameLines: plain paragraphs and lists drawn without glamour
// have glamour's lines exactly, in every look, at many widths; the way is
// on in every look and for the bench thread's plain blocks.
func TestPlainFastSameLines(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 9))
	used := 0
	for _, w := range []int{10, 20, 33, 57, 80, 118, 170} {
		for _, m := range fitModels(w) {
			if !m.plainReady() {
				t.Fatalf("style %q: the plain way is off", m.style)
			}
			for range 80 {
				if plainSame(t, m, plainRandom(r)) {
					used++
				}
			}
		}
	}
	t.Logf("plain way: %d blocks", used)
	if used < 1000 {
		t.Errorf("the plain way drew %d random blocks, want most of 4480", used)
	}
	for _, src := range []string{
		"That should fix it.", "Run that and tell me what it prints.",
		"Reply 17. The handler returns early when the **context** is cancelled, so the test sees `nil`.",
		"- check the error path\n- add a test for the timeout\n- keep the public API",
	} {
		for _, m := range fitModels(118) {
			if !plainSame(t, m, src) {
				t.Errorf("style %q: %q not drawn the plain way", m.style, src)
			}
		}
	}
	for _, src := range []string{"a *b*", "a**b**", "**a **", "` a`", "`a` b`", "**a**b", "a **b", "`a`x", "- a\nb", "a\n---", "1. a", "a  \nb", "  a", "a\n\nb", "- a\n  - b", "[a](b)", "a & b"} {
		if _, _, ok := plainShape(src); ok {
			t.Errorf("%q taken as plain", src)
		}
	}
}

// FuzzPlainFast: any block the plain way draws has glamour's lines.
func FuzzPlainFast(f *testing.F) {
	f.Add("That should fix it.", 118, 0)
	f.Add("- check the error path\n- add a test for the timeout", 40, 1)
	f.Add("a b\nc d\ne", 12, 2)
	f.Add("a  b   c-d 1+1=2 it's \"x\"", 9, 5)
	f.Add("The **context** is off, see `nil`.\nnext `a b` line **x**", 14, 3)
	ms := map[int][]*Model{}
	f.Fuzz(func(t *testing.T, src string, w, look int) {
		if len(src) > 2<<10 {
			return
		}
		w = 4 + abs(w)%150
		if ms[w] == nil {
			ms[w] = fitModels(w)
		}
		plainSame(t, ms[w][abs(look)%len(ms[w])], src)
	})
}
