package transcript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
)

// A reply whose text is kept in pieces (an item's Chunks, as chat hands
// a long streaming reply over) is drawn, searched, paged and copied as the
// same text in one string is: the screens are the same as it streams and
// at its end, search finds every match (one across a piece's end), a
// selection copies the same words, the pager and the reply's text are
// the text whole.
func TestTextInPiecesReadsAsOneString(t *testing.T) {
	var src strings.Builder
	for i := 0; src.Len() < 3*message.TextPiece; i++ {
		fmt.Fprintf(&src, "## Part %d\n\nSome words about é日本 and the needle %d, then more words.\n\n", i, i)
		if i%9 == 0 {
			src.WriteString("```go\nfunc f() {}\n```\n\n")
		}
	}
	// A "needle" across the end of the piece the text so far ends in.
	end := (src.Len()/message.TextPiece + 1) * message.TextPiece
	src.WriteString(strings.Repeat("z", end-3-src.Len()) + " needle at a piece's end\n\nthe end\n")
	text := src.String()
	if !strings.Contains(text[end-4:end+4], "needle"[:3]) {
		t.Fatalf("no needle across %d", end)
	}
	whole := strings.Count(strings.ToLower(text), "needle")

	inPieces, inOne := newTest(70, 16), newTest(70, 16)
	for _, m := range []*Model{inPieces, inOne} {
		m.SetMessages([]Message{userMsg("u", "go"), {ID: "r", Role: message.RoleAssistant, Status: message.StatusStreaming}})
	}
	var buf message.TextBuf
	for n := 0; n < len(text); {
		k := min(len(text)-n, 7919)
		buf.Append(text[n : n+k])
		n += k
		item := message.Item{Kind: message.ItemText, Chunks: buf.Text()}
		if buf.Len() <= message.TextPiece {
			item = message.Item{Kind: message.ItemText, Text: buf.String()}
		}
		inPieces.SetItem("r", 0, item)
		inOne.SetItem("r", 0, message.Item{Kind: message.ItemText, Text: text[:n]})
		if a, b := plain(inPieces), plain(inOne); a != b {
			t.Fatalf("at %d bytes the screens differ:\n%s\n---\n%s", n, a, b)
		}
	}
	i, _ := inPieces.index("r")
	if got := inPieces.replyText(i); got != text {
		t.Fatalf("the reply's text is %d bytes, want %d", len(got), len(text))
	}
	if got := pagerText(inPieces.views(i)[0].it); got != text {
		t.Fatalf("the pager gets %d bytes, want %d", len(got), len(text))
	}
	// A selection reads the same words and copies the same source.
	var copies []string
	for _, m := range []*Model{inPieces, inOne} {
		focusItem(t, m, 0)
		press(m, "v", "w", "w", "w", "w", "w")
		out := press(m, "y")
		if len(out) != 1 {
			t.Fatalf("y: %v", out)
		}
		copies = append(copies, out[0].(CopyMsg).Markdown)
	}
	if copies[0] != copies[1] || copies[0] == "" {
		t.Fatalf("the selection copies %q from the text in pieces, %q from it in one string", copies[0], copies[1])
	}
	search(t, inPieces, "NEEDLE")
	if _, _, total, _ := inPieces.SearchStatus(); total != whole {
		t.Fatalf("search found %d matches, want %d", total, whole)
	}
}
