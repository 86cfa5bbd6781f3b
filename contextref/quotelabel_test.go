package contextref

import (
	"strings"
	"testing"
)

// Issue 25 item 14: a quote with a comment shows the quote (then the
// comment), never the comment alone; within the chip label's 64 units.
func TestCitationQuoteLabel(t *testing.T) {
	str := func(s string) *string { return &s }
	long := strings.Repeat("quoted words ", 20)
	for _, c := range []struct {
		name    string
		c       Citation
		want    string
		prefix  string
		contain string
	}{
		{name: "no comment: the contract's label", c: Citation{Text: "the handler  returns early"}, want: "the handler returns early"},
		{name: "a blank comment", c: Citation{Text: "the handler returns early", Comment: str("  ")}, want: "the handler returns early"},
		{name: "quote and comment", c: Citation{Text: "the handler returns early", Comment: str(" why? ")}, want: "the handler returns early — why?"},
		{name: "a long quote leaves room for the comment", c: Citation{Text: long, Comment: str("is this right?")}, prefix: "quoted words", contain: "… — is this right?"},
		{name: "both long", c: Citation{Text: long, Comment: str(long)}, prefix: "quoted words", contain: " — quoted"},
	} {
		got := CitationQuoteLabel(&c.c)
		if c.want != "" && got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if !strings.HasPrefix(got, c.prefix) || !strings.Contains(got, c.contain) {
			t.Errorf("%s: %q", c.name, got)
		}
		if UTF16Len(got) > CitationChipLabelLen+1 {
			t.Errorf("%s: %d units: %q", c.name, UTF16Len(got), got)
		}
	}
}
