package contextref

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// legacyFuzzSeeds are extra inputs that put the fuzzer near the edges: links
// already in the prose, CRLF, odd fences, private-use characters.
var legacyFuzzSeeds = []string{
	"[x](t3-context://v1/file/" + "\uFFFC" + ")\n\n" + termBlock,
	"[a\uFFFC](t3-context://v1/file/x) " + rcB + "t" + rcX,
	"!\uFFFC\n\n" + termBlock,
	"Fix\r\n\r\n<terminal_context>\r\n- T line 1:\r\n  1 | a\r\n</terminal_context>\r\n",
	"x " + rcB + "a\n````ts\n```\n````\nb\n```\n" + rcX,
	"\uE000 " + rcB + "\uE0000\uE000" + rcX + "\uE000",
	"<terminal_context>\n\uFFFC\n</terminal_context>\n" + rcB + "r" + rcX,
	"x <terminal_context>\uFFFC\n- a line 1:\n</terminal_context>",
	"x " + rcB + "r" + rcX + " <terminal_context>\uFFFC\n- a line 1:\n  1 | b\n</terminal_context>",
	"@terminal-1:12-13@terminal-1:12-13 (@terminal-1:12-13)" + "\n\n" + termBlock,
	"<preview_annotation>\n<element_context>\n- <A>:\n</element_context>\n</preview_annotation>\n<element_context>\n- <B>:\n</element_context>",
	rcB + "<review_comment sectionId=\"s\" filePath=\"f\" startIndex=\"1\" endIndex=\"2\" rangeLabel=\"&lt;/review_comment&gt;\">x" + rcX,
}

func FuzzUpgrade(f *testing.F) {
	for _, v := range loadUpgradeVectors(f) {
		f.Add(v.Text)
	}
	for _, s := range legacyCaseInputs() {
		f.Add(s)
	}
	for _, s := range legacyFuzzSeeds {
		f.Add(s)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 200; i++ {
		f.Add(randomLegacyInput(rng, i%2 == 1))
	}
	f.Fuzz(checkUpgradeInvariants)
}

// checkUpgradeInvariants checks what must hold for any input (DESIGN.md
// 3.6): no panic; without records the text is either the input (an atomic
// failure) or the input right-trimmed with its U+FFFC deleted (nothing
// converted); records are at most 200, pass the type-side check (encode,
// decode, encode to the same bytes) and have unique legacy ids of their
// kind; the text never keeps a private token; and the upgrade of a text
// without any trigger is that text.
func checkUpgradeInvariants(t *testing.T, in string) {
	t.Helper()
	out, recs := UpgradeLegacy(in)
	if recs != nil && len(recs) == 0 {
		t.Fatalf("empty, non-nil records")
	}
	if !hasLegacyTrigger(in) && (out != in || recs != nil) {
		t.Fatalf("no trigger but the text changed:\n in %q\nout %q", in, out)
	}
	if recs == nil && out != in && out != trimEndJS(strings.ReplaceAll(in, legacyPlaceholder, "")) {
		t.Fatalf("no records, and the text is neither the input nor the input trimmed:\n in %q\nout %q", in, out)
	}
	if len(recs) > MaxContextRecords {
		t.Fatalf("%d records", len(recs))
	}
	if recs != nil && strings.Contains(out, reviewTokenUnit) && !strings.Contains(in, reviewTokenUnit) {
		t.Fatalf("a private token is left in the text:\n in %q\nout %q", in, out)
	}
	seen := make(map[string]bool, len(recs))
	for _, r := range recs {
		raw, err := MarshalRecord(r)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		d, err := DecodeRecord(raw)
		if err != nil {
			t.Fatalf("record does not decode: %v\n%s", err, raw)
		}
		raw2, err := MarshalRecord(d)
		if err != nil || !bytes.Equal(raw, raw2) {
			t.Fatalf("record changes when decoded:\n%s\n%s", raw, raw2)
		}
		b := r.RecordBase()
		if !strings.HasPrefix(b.ContextID, "legacy_"+b.Kind+"_") {
			t.Fatalf("unexpected id %q for kind %s", b.ContextID, b.Kind)
		}
		if seen[b.ContextID] {
			t.Fatalf("two records with id %q", b.ContextID)
		}
		seen[b.ContextID] = true
	}
}

// legacyFragments are the pieces TestUpgradeLegacyRandomFragments glues
// together: whole and broken blocks, tags, placeholders, inline labels,
// fences, links and private-use characters.
var legacyFragments = []string{
	"Fix ", "\n", "\n\n", " ", "\uFFFC", "\uE000", "@terminal-1:12-13", "@t:5", "@x:1", "(", ")", ".", "-", "x",
	termBlock, "<terminal_context>\n", "\n</terminal_context>", "- T line 5:\n  5 | boom\n", "- Terminal 1 lines 12-13:\n",
	"  12 | $ go test\n", "<element_context>\n- <PayButton>:\n  url: http://x/\n  html:\n    <b>\n</element_context>",
	"<element_context>\n", "\n</element_context>", "<preview_annotation>\nId: a\nPage: P\n", "\n</preview_annotation>",
	rcA, rcB, rcX, "```\n", "````", "```diff\n-a\n+b\n```\n", "[x](t3-context://v1/file/a)", "](t3-context://v1/", "[",
	"]", "!", `<review_comment sectionId="s" filePath="f" startIndex="1" endIndex="2" rangeLabel="@t:5 \uFFFC">`,
	`<review_comment filePath="f">`, "\r\n", "\t",
}

// legacyTails are valid trailing blocks, appended in send order.
var legacyTails = []string{
	"\n\n<terminal_context>\n- Terminal 1 lines 12-13:\n  12 | a\n  13 | b\n- T line 5:\n  5 | c\n- x:1 line 2:\n</terminal_context>",
	"\n\n<element_context>\n- <A>:\n  url: http://a/\n- <b>:\n</element_context>",
	"\n\n<preview_annotation>\nId: 1\nPage: P\n<element_context>\n- <C>:\n</element_context>\n</preview_annotation>",
	"\n" + rcB + "tail" + rcX + "\n",
}

func TestUpgradeLegacyRandomFragments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 40000
	if testing.Short() {
		n = 4000
	}
	upgraded := 0
	for i := 0; i < n; i++ {
		in := randomLegacyInput(rng, i%2 == 1)
		checkUpgradeInvariants(t, in)
		if _, recs := UpgradeLegacy(in); recs != nil {
			upgraded++
		}
	}
	if upgraded < n/10 {
		t.Errorf("only %d of %d inputs upgraded: the generator no longer exercises the upgrade", upgraded, n)
	}
}

// randomLegacyInput glues up to 12 fragments together, then, with tails,
// some valid trailing blocks in send order.
func randomLegacyInput(rng *rand.Rand, tails bool) string {
	var b strings.Builder
	for k := rng.IntN(12); k >= 0; k-- {
		b.WriteString(legacyFragments[rng.IntN(len(legacyFragments))])
	}
	if tails {
		for _, tail := range legacyTails {
			if rng.IntN(2) == 0 {
				b.WriteString(tail)
			}
		}
	}
	return b.String()
}
