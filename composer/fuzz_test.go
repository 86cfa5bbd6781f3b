package composer

import (
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

// FuzzMarkdownRoundTrip: for any text, the draft FromMarkdown builds
// serializes to Markdown that rebuilds the same draft (up to reference ids),
// and its records are exactly the referenced ones plus shelf images.
func FuzzMarkdownRoundTrip(f *testing.F) {
	f.Add("See [T](t3-context://v1/terminal/t) and !![shot](t3-context://v1/image/img)\n![f](t3-context://v1/file/f)")
	f.Add("a \uFFFC b [x](t3-context://v1/terminal/t3) \uFFFC\uFFFC")
	f.Add("[a](t3-context://v1/f/x[b)](t3-context://v1/f/y) [$x](t3-context://v1/skill/s)\r\n\x1b[31mred")
	f.Add("![](t3-context://v1/image/img)[](t3-context://v1/mention/m)")
	f.Add("q [Assistant quote](t3-citation://v1/e/t/m?text=a+b&start=0&end=3&prefix=&suffix=) ![Assistant quote](t3-citation://v1/e/t/m?text=%3C&start=1&end=2&prefix=&suffix=&comment=)")
	f.Add("[Assistant quote](t3-citation://v1/e/t/m?text=[x](t3-context://v1/file/f)&start=0&end=3&prefix=&suffix=)")
	recs := []contextref.Record{termRec("t"), termRec("t3"), imageRec("img"), fileRec("f"), mentionRec("m", "a.go"), imageRec("shelf_only")}
	f.Fuzz(func(t *testing.T, text string) {
		d := FromMarkdown(text, recs)
		checkInvariants(t, d, "FromMarkdown")
		again := FromMarkdown(d.Markdown(), d.Records())
		if again.Markdown() != d.Markdown() {
			t.Fatalf("Markdown not stable:\n%q\n%q", d.Markdown(), again.Markdown())
		}
		// Editing keeps it canonical too.
		d.MoveDocEnd(false)
		d.DeleteWordBackward()
		d.Undo()
		checkInvariants(t, d, "edit+undo")
	})
}

// FuzzPasteText: a paste (InsertText) makes chips only of quote links and
// of links of kinds chipchat does not know, and what it writes back pastes
// to the same Markdown again.
func FuzzPasteText(f *testing.F) {
	f.Add("see [Sketch](t3-context://v1/whiteboard/w1) and [a](t3-context://v1/file/f)")
	f.Add("![x](t3-context://v1/future/u)[y](t3-context://v1/element/e) [](t3-context://v1/z-9/q)")
	f.Add("[Assistant quote](t3-citation://v1/e/t/m?text=[x](t3-context://v1/new/f)&start=0&end=3&prefix=&suffix=)")
	f.Fuzz(func(t *testing.T, text string) {
		d := NewDraft()
		d.InsertText(text)
		for i := 0; i < d.LineCount(); i++ {
			for _, atom := range d.Line(i) {
				if c, ok := d.ChipAt(atom); ok && c.Citation == nil && contextref.IsKnownKind(c.Kind) {
					t.Fatalf("a paste made a %s chip without its record: %q", c.Kind, text)
				}
			}
		}
		md := d.Markdown()
		again := NewDraft()
		again.InsertText(md)
		if again.Markdown() != md {
			t.Fatalf("pasting the paste's Markdown again:\n%q\n%q", md, again.Markdown())
		}
	})
}
