package message

import (
	"strings"
	"testing"
)

// A growing text: every string it handed out stays as it was while it
// grows, and what it holds stays within an eighth (and 64 KB) of the
// text — a strings.Builder holds up to twice it.
func TestGrowingText(t *testing.T) {
	var g GrowingText
	var seen []string
	var want strings.Builder
	chunk := strings.Repeat("0123456789abcdef", 2<<10) // 32 KB
	for i := 0; g.Len() < 8<<20; i++ {
		c := chunk[:len(chunk)-i%97]
		g.Append(c)
		want.WriteString(c)
		if g.String() != want.String() {
			t.Fatalf("after %d appends the text differs", i+1)
		}
		if i%50 == 0 {
			seen = append(seen, g.String())
		}
		if limit := g.Len() + max(g.Len()/8, growMin); g.Cap() > limit {
			t.Fatalf("holds %d bytes for a %d-byte text, over %d", g.Cap(), g.Len(), limit)
		}
	}
	all := want.String()
	for _, s := range seen {
		if s != all[:len(s)] {
			t.Fatalf("a %d-byte string handed out earlier changed", len(s))
		}
	}
	var empty GrowingText
	if empty.String() != "" || empty.Len() != 0 {
		t.Fatalf("the zero text is %q", empty.String())
	}
}
