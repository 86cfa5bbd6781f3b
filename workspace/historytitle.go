package workspace

import (
	"strings"

	"github.com/chipchat/chipchat/contextref"
)

// historyQuoteLen is how much of a quote a history title keeps (runes).
const historyQuoteLen = 64

// HistoryTitle is a sent prompt on one line as the history search lists
// and matches it (issue 25 item 8): the prose with each chip as its label
// in brackets, each assistant quote as the start of the quote in
// brackets followed by its comment (the user's words, never the quote
// link's percent-encoded text), white space folded to single spaces.
// Control characters are left to the drawing (the picker strips them).
func HistoryTitle(markdown string) string {
	s := contextref.Replace(markdown, func(o contextref.Occurrence) string { return "[" + o.Label + "]" })
	if contextref.HasCitations(s) {
		var b strings.Builder
		last := 0
		for _, o := range contextref.ScanCitations(s) {
			b.WriteString(s[last:o.Start])
			last = o.End
			if o.Citation == nil {
				b.WriteString(o.Source(s))
				continue
			}
			b.WriteString("[❝ " + historyCut(strings.Join(strings.Fields(o.Citation.Text), " "), historyQuoteLen) + "]")
			if c := o.Citation.Comment; c != nil && strings.TrimSpace(*c) != "" {
				b.WriteString(" " + *c)
			}
		}
		b.WriteString(s[last:])
		s = b.String()
	}
	return strings.Join(strings.Fields(s), " ")
}

// historyCut keeps the first n runes of s, adding "…" when it cut.
func historyCut(s string, n int) string {
	k := 0
	for i := range s {
		if k == n {
			return s[:i] + "…"
		}
		k++
	}
	return s
}
