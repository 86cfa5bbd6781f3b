package transcript

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
)

// piecesMarkdown is n bytes of Markdown of every kind the block scanner
// tells apart: paragraphs, lists, fences (one long, one cut in its long
// lines), tables, runs of blank lines, lines longer than a block, and
// characters of two to four bytes, so piece ends fall inside all of them.
func piecesMarkdown(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch rng.IntN(8) {
		case 0:
			fmt.Fprintf(&b, "## Step %d — é日本🙂\n\n", i)
		case 1:
			b.WriteString("- one item\n- two items\n  continued\n\n- loose\n\n")
		case 2:
			b.WriteString("```go\nfunc f() {\n\n\treturn\n}\n")
			for k := rng.IntN(400); k > 0; k-- {
				b.WriteString("\tx := 1 // a line of code in a long fence\n")
			}
			b.WriteString("```\n\n")
		case 3:
			b.WriteString("| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n")
		case 4:
			b.WriteString(strings.Repeat("\n", rng.IntN(20)))
		case 5:
			b.WriteString(strings.Repeat("wörd ", rng.IntN(3*maxBlock/5)) + "\n\n")
		case 6:
			b.WriteString("~~~\n" + strings.Repeat("long fence line without a space ", 200) + "\n~~~\n\n")
		default:
			fmt.Fprintf(&b, "Paragraph %d with words, **bold** and `code`, ending here.\n\n", i)
		}
	}
	return b.String()
}

// A text kept in pieces (message.TextBuf, as chat holds a long reply)
// splits into the blocks the same text in one string does, whatever the
// chunks it grew by: a scan reads it through windows that end inside a
// piece, a block or a character.
func TestBlocksOfATextInPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, mode := range []int{modeMarkdown, modePlain} {
		src := piecesMarkdown(rng, 5*message.TextPiece)
		want := blockTexts(src, mode)
		for _, chunk := range []int{src2chunk(len(src)), 997, 40 << 10, 3 * message.TextPiece} {
			tv := newTextView(mode, 1<<30)
			var buf message.TextBuf
			for n := 0; n < len(src); {
				k := min(len(src)-n, 1+rng.IntN(2*chunk))
				buf.Append(src[n : n+k])
				n += k
				tv.update(buf.Text())
			}
			var got []string
			for k := 0; k < tv.count(); k++ {
				got = append(got, tv.source(tv.part(k)))
			}
			if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				for k := range min(len(got), len(want)) {
					if got[k] != want[k] {
						t.Fatalf("mode %d, chunks about %d: block %d of %d is\n%.200q\nwant\n%.200q", mode, chunk, k, len(got), got[k], want[k])
					}
				}
				t.Fatalf("mode %d, chunks about %d: %d blocks, want %d", mode, chunk, len(got), len(want))
			}
		}
	}
}

// src2chunk is a chunk size that streams n bytes in a few hundred updates.
func src2chunk(n int) int { return max(1, n/300) }
