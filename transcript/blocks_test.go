package transcript

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
)

// blockTexts streams src into a text view in chunks of the given sizes
// (cycled) and returns the blocks' sources, the open one last.
func blockTexts(src string, mode int, chunks ...int) []string {
	tv := newTextView(mode, 1<<30)
	if len(chunks) == 0 {
		chunks = []int{len(src)}
	}
	for n, k := 0, 0; n < len(src); k++ {
		n = min(len(src), n+max(1, chunks[k%len(chunks)]))
		tv.update(message.TextOf(src[:n]))
	}
	var out []string
	for k := 0; k < tv.count(); k++ {
		out = append(out, tv.source(tv.part(k)))
	}
	return out
}

func TestMarkdownBlocks(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"paragraphs", "one\ntwo\n\n\nthree\n", []string{"one\ntwo", "three"}},
		{"fence with blank lines", "intro\n\n```go\na\n\n\nb\n```\n\nafter", []string{"intro", "```go\na\n\n\nb\n```", "after"}},
		{"fence interrupting a paragraph", "see:\n```\nx\n\ny\n```\ndone\n\nnext", []string{"see:\n```\nx\n\ny\n```\ndone", "next"}},
		{"tilde fence, longer closer", "~~~\n```\n\n~~~~\n\nz", []string{"~~~\n```\n\n~~~~", "z"}},
		{"loose list", "- a\n\n- b\n\n  more b\n\n1. c\n\nend", []string{"- a\n\n- b\n\n  more b\n\n1. c", "end"}},
		{"list with a fence", "1. step\n\n   ```sh\n   make\n\n   make test\n   ```\n2. next\n\nText", []string{"1. step\n\n   ```sh\n   make\n\n   make test\n   ```\n2. next", "Text"}},
		{"indented code after a paragraph", "para\n\n    code\n\n    more\n\nx", []string{"para\n\n    code\n\n    more", "x"}},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |\n\nafter", []string{"| a | b |\n|---|---|\n| 1 | 2 |", "after"}},
		{"headings", "## Title\ntext\n\n### Sub\n\nbody", []string{"## Title\ntext", "### Sub", "body"}},
		{"open fence at the end", "a\n\n```\nx\n\ny", []string{"a", "```\nx\n\ny"}},
	}
	for _, c := range cases {
		for _, chunks := range [][]int{nil, {1}, {3, 7}, {16}} {
			got := blockTexts(c.src, modeMarkdown, chunks...)
			if strings.Join(got, "\x00") != strings.Join(c.want, "\x00") {
				t.Errorf("%s (chunks %v):\n got %q\nwant %q", c.name, chunks, got, c.want)
			}
		}
	}
}

func TestPlainBlocksKeepEveryLine(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 200; i++ {
		b.WriteString("chunk ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("\n")
		if i%50 == 0 {
			b.WriteString("\n")
		}
	}
	src := b.String()
	got := blockTexts(src, modePlain, 5, 11)
	if strings.Join(got, "") != src {
		t.Fatalf("plain blocks lose text")
	}
	if len(got) < 200/plainLines {
		t.Fatalf("%d blocks", len(got))
	}
}

// TestBlocksLongFence: a fence longer than maxBlock is cut; each piece is
// drawn inside the same fence.
func TestBlocksLongFence(t *testing.T) {
	src := "```go\n" + strings.Repeat("x := 1\n\n", 3*maxBlock/8) + "```\n\nafter"
	got := blockTexts(src, modeMarkdown, 100)
	if len(got) < 4 {
		t.Fatalf("%d blocks", len(got))
	}
	for _, g := range got[:len(got)-1] {
		if !strings.HasPrefix(g, "```go\n") || !strings.HasSuffix(strings.TrimRight(g, "\n"), "```") {
			t.Fatalf("a piece of the fence is not fenced: %q…%q", g[:min(20, len(g))], g[max(0, len(g)-20):])
		}
		if len(g) > maxBlock+64 {
			t.Fatalf("piece of %d bytes", len(g))
		}
	}
	if got[len(got)-1] != "after" {
		t.Fatalf("last block %q", got[len(got)-1])
	}
}

func TestLooksLikeMarkdown(t *testing.T) {
	for s, want := range map[string]bool{
		"chunk 1\nchunk 2\nchunk 3\n":                false,
		"# Title\n\ntext":                            true,
		"```\ncode\n```":                             true,
		"- a\n- b\n- **c**":                          true,
		"| a | b |\n|---|---|":                       true,
		"2026-01-01 INFO started\n2026-01-01 done\n": false,
		"plain words, no marks\nsecond line":         false,
	} {
		if got := looksLikeMarkdown(s); got != want {
			t.Errorf("looksLikeMarkdown(%q) = %v", s, got)
		}
	}
}

// randomMarkdown mixes the constructs the splitter cares about.
func randomMarkdown(r *rand.Rand, n int) string {
	pieces := []string{"para words here\n", "\n", "\n\n", "- item\n", "  cont\n", "1. one\n", "```go\n", "```\n", "~~~\n",
		"    indented\n", "| a | b |\n", "|---|---|\n", "## head\n", "> quote\n", "\t tab\n", "x", " ", "```", "漢字\n"}
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// checkIncremental: streaming src in any chunks gives the blocks a single
// update gives, in order, within the text.
func checkIncremental(t *testing.T, src string, mode int, chunks []int) {
	t.Helper()
	whole := blockTexts(src, mode)
	got := blockTexts(src, mode, chunks...)
	if strings.Join(got, "\x00") != strings.Join(whole, "\x00") {
		t.Fatalf("chunks %v of %d bytes (%.80q…): %d blocks, want %d", chunks, len(src), src, len(got), len(whole))
	}
	tv := newTextView(mode, 1<<30)
	tv.update(message.TextOf(src))
	prev := 0
	for k := 0; k < tv.count(); k++ {
		b := tv.part(k)
		if b.lo < prev || b.hi < b.lo || b.hi > len(src) {
			t.Fatalf("block %d [%d,%d) after %d in %d bytes", k, b.lo, b.hi, prev, len(src))
		}
		prev = b.hi
	}
}

// TestBlocksLongLine: a line with no end is cut, so the open block stays
// small.
func TestBlocksLongLine(t *testing.T) {
	src := strings.Repeat("word ", 10*maxBlock/5) + strings.Repeat("x", 3*maxBlock)
	tv := newTextView(modeMarkdown, 1<<30)
	for n := 1000; n <= len(src); n += 1000 {
		tv.update(message.TextOf(src[:n]))
		if o := tv.open; o.hi-o.lo > 2*maxBlock {
			t.Fatalf("open block of %d bytes at %d", o.hi-o.lo, n)
		}
	}
	tv.update(message.TextOf(src))
	got := blockTexts(src, modeMarkdown, 777)
	if strings.Join(got, "") != src {
		t.Fatal("cut blocks lose text")
	}
}

func TestBlocksIncrementalRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 400; i++ {
		src := randomMarkdown(r, 50+r.IntN(3000))
		chunks := []int{1 + r.IntN(40), 1 + r.IntN(300)}
		checkIncremental(t, src, modeMarkdown, chunks)
		checkIncremental(t, src, modePlain, chunks)
	}
}

func FuzzBlocks(f *testing.F) {
	f.Add("a\n\n```\nb\n\nc\n```\n- x\n\n  y\n", 3, 7)
	f.Add("| a |\n|---|\n| 1 |\n\n## h\n", 1, 100)
	f.Fuzz(func(t *testing.T, src string, c1, c2 int) {
		if len(src) > 1<<16 {
			return
		}
		// At most a few hundred updates: each rescans the open block.
		chunks := []int{1 + len(src)/256 + abs(c1)%64, 1 + abs(c2)%512}
		checkIncremental(t, src, modeMarkdown, chunks)
		checkIncremental(t, src, modePlain, chunks)
	})
}

func abs(x int) int {
	if x < 0 {
		if x == -x { // the smallest int
			return 0
		}
		return -x
	}
	return x
}

// TestBlocksTableKeptWhole: a table longer than maxBlock stays one block
// (its rows need its header), up to 8×.
func TestBlocksTableKeptWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString("| name | value |\n|---|---|\n")
	for b.Len() < 3*maxBlock {
		b.WriteString("| some row | with a value |\n")
	}
	b.WriteString("\nafter")
	got := blockTexts(b.String(), modeMarkdown, 97)
	if len(got) != 2 || got[1] != "after" {
		t.Fatalf("%d blocks", len(got))
	}
}
