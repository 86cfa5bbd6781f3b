package transcript

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/chips"
)

// fitModels are transcripts in each look glamour draws with.
func fitModels(w int) []*Model {
	var ms []*Model
	for _, opts := range [][]Option{
		nil, {WithLight()}, {WithNoColor()},
		{WithGlamourStyle("dracula")}, {WithGlamourStyle("pink")}, {WithGlamourStyle("tokyo-night")},
		{WithGlamourStyle("ascii")}, {WithGlamourStyle("notty")},
	} {
		m := New(chips.Default(chips.DefaultTheme()), opts...)
		m.SetSize(w+2, 30)
		ms = append(ms, m)
	}
	return ms
}

// fitSame fails t unless block src draws the same lines with the
// narrower width (glamourLines) as at the full width.
func fitSame(t *testing.T, m *Model, src string) {
	t.Helper()
	cw := m.contentWidth()
	want := m.glamourDraw(src, cw, cw, true)
	got := m.glamourLines(src, cw, cw)
	if !slices.Equal(got, want) {
		t.Fatalf("style %q width %d (drawn at %d), %q:\nfull:   %q\nnarrow: %q", m.style, cw, fitWidth(src, cw), src, want, got)
	}
}

// fitWords are the pieces random blocks are made of: words, inline
// Markdown, wide runes, list markers, breaks, and what makes a block
// unsafe (links, quotes, headings, rules).
var fitWords = []string{
	"the", "handler", "returns", "early", "when", "context", "is", "cancelled,", "so", "test", "sees", "nil.",
	"**bold**", "*em*", "_em_", "`code`", "``two`` ", "~~gone~~", "**a *b* c**", "x_y_z", "2*3*4", "1.", "it's", "\"q\"",
	"日本語", "😀", "é", "a—b", "antidisestablishmentarianism", "supercalifragilisticexpialidocious-and-then-some",
	"\n", "\n", "\n\n", "\n- ", "\n- ", "\n* ", "\n+ ", "\n1. ", "\n2) ", "\n- [ ] ", "  \n", "\n  ", "\n    ",
	"[link](http://x.io)", "<b>", "\n> ", "\n# ", "\n---\n", "\n===\n", "http://example.com/a", "www.example.com", "a@b.io",
	"&amp;", "\\*", ":smile:", "|", "\t", "!", "?", ",", ";",
}

// fitBlock is a random block of n pieces.
func fitBlock(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(fitWords[r.IntN(len(fitWords))])
		if r.IntN(3) > 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// TestFitWidthSameLines: a block drawn at the narrower width fitWidth
// gives has the same lines as at the full width, in every look, at many
// widths, for many random blocks; and the bench thread's short blocks are
// drawn narrower.
func TestFitWidthSameLines(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 8))
	for _, w := range []int{12, 24, 40, 57, 80, 118, 160} {
		for _, m := range fitModels(w) {
			for range 60 {
				fitSame(t, m, fitBlock(r, 1+r.IntN(40)))
			}
		}
	}
	for _, src := range []string{
		"That should fix it.",
		"- check the error path\n- add a test for the timeout\n- keep the public API",
		"Reply 17. The handler returns early when the **context** is cancelled, so the test sees `nil`.",
	} {
		for _, m := range fitModels(118) {
			fitSame(t, m, src)
		}
		if fitWidth(src, 118) >= 118 {
			t.Errorf("%q not drawn narrower at 118", src)
		}
	}
}

// FuzzFitWidth: any block draws the same lines at the narrower width as
// at the full width.
func FuzzFitWidth(f *testing.F) {
	f.Add("That should fix it.", 118, 0)
	f.Add("- check the error path\n- add a test for the timeout\n- keep the public API", 60, 1)
	f.Add("a **b** `c` *d*\nnext line\n\n1. one\n2. two", 30, 2)
	f.Add("word\n- item\nlazy\n+ other\n\npara", 20, 7)
	ms := map[int][]*Model{}
	f.Fuzz(func(t *testing.T, src string, w, look int) {
		if len(src) > 2<<10 {
			return
		}
		w = 8 + abs(w)%150
		if ms[w] == nil {
			ms[w] = fitModels(w)
		}
		m := ms[w][abs(look)%len(ms[w])]
		src = chips.Sanitize(chips.ExpandTabs(src))
		if strings.TrimSpace(src) == "" {
			return
		}
		fitSame(t, m, src)
	})
}
