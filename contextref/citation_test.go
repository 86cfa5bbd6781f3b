package contextref

import (
	"strings"
	"testing"
)

const validHref = "t3-citation://v1/e/t/m?text=q&start=0&end=1&prefix=&suffix="

func TestCitationScanBounds(t *testing.T) {
	// The pattern takes 1 to 159,983 units after the scheme.
	pad := func(units int) string {
		base := validHref[len(CitationScheme):] + "&x="
		return CitationScheme + base + strings.Repeat("a", units-len(base))
	}
	at := "[Assistant quote](" + pad(maxCitationScan) + ")"
	over := "[Assistant quote](" + pad(maxCitationScan+1) + ")"
	if occ := ScanCitations(at); len(occ) != 1 || occ[0].Citation != nil || occ[0].End != len(at) {
		t.Fatalf("a link at the bound is scanned (and is invalid: extra key): %+v", occ)
	}
	if occ := ScanCitations(over); len(occ) != 0 {
		t.Fatalf("a link over the bound is no link: %d", len(occ))
	}
	// Surrogate pairs count two units (159,983 is odd).
	emoji := CitationScheme + strings.Repeat("😀", maxCitationScan/2)
	if occ := ScanCitations("[Assistant quote](" + emoji + "ab)"); len(occ) != 0 {
		t.Fatal("one unit over the bound with surrogate pairs must not match")
	}
	if occ := ScanCitations("[Assistant quote](" + emoji + "😀)"); len(occ) != 0 {
		t.Fatal("a pair across the bound must not match")
	}
	if occ := ScanCitations("[Assistant quote](" + emoji + "a)"); len(occ) != 1 {
		t.Fatal("surrogate pairs up to the bound must match")
	}
}

func TestCitationScanConsumesInvalidLinks(t *testing.T) {
	// An invalid link is scanned (and stays text); the valid one after it
	// is found.
	text := "[Assistant quote](t3-citation://v1/bad(x)[Assistant quote](" + validHref + ")"
	occ := ScanCitations(text)
	if len(occ) != 2 || occ[0].Citation != nil || occ[0].End != strings.Index(text, ")[")+1 || occ[1].Citation == nil {
		t.Fatalf("%+v", occ)
	}
	if out := ExpandCitations(text); !strings.HasPrefix(out, "[Assistant quote](t3-citation://v1/bad(x)[assistant-quote-1]\n") {
		t.Fatalf("%q", out)
	}
	// A white space ends the href: no link there, the next one is found.
	text = "[Assistant quote](t3-citation://v1/a b) [Assistant quote](" + validHref + ")"
	if occ := ValidCitations(text); len(occ) != 1 || occ[0].Start != strings.LastIndex(text, "[Assistant") {
		t.Fatalf("%+v", occ)
	}
	// Identical sources share an id; another encoding gets a new one.
	same := "[Assistant quote](" + validHref + ")"
	other := "[Assistant quote](" + strings.Replace(validHref, "text=q", "text=%71", 1) + ")"
	out := ExpandCitations(same + same + other + " ![Assistant quote](" + validHref + ")")
	if !strings.HasPrefix(out, "[assistant-quote-1][assistant-quote-1][assistant-quote-2] ![assistant-quote-1]\n\n") ||
		strings.Count(out, `"id": "assistant-quote-`) != 2 {
		t.Fatalf("%s", out)
	}
}

func TestCitationWriting(t *testing.T) {
	c := &Citation{Version: 1, EnvironmentID: "e (1)!", ThreadID: "t*'", MessageID: "m/é", Text: "a b*-._~!", Start: 1, End: 2, Prefix: "", Suffix: "&="}
	want := "t3-citation://v1/e%20%281%29%21/t%2A%27/m%2F%C3%A9?text=a+b*-._%7E%21&start=1&end=2&prefix=&suffix=%26%3D"
	if got := c.Href(); got != want {
		t.Fatalf("href\n got %s\nwant %s", got, want)
	}
	back, err := ParseCitationHref(c.Href())
	if err != nil || back.EnvironmentID != c.EnvironmentID || back.Text != c.Text || back.Comment != nil {
		t.Fatalf("%+v %v", back, err)
	}
	d := c.WithComment("  ")
	if d.Comment != nil || c.WithComment(" x ").Comment == nil || *c.WithComment(" x ").Comment != "x" {
		t.Fatal("comment editing trims and removes a blank comment")
	}
	if l := CitationChipLabel(&Citation{Text: strings.Repeat("q", 63) + "😀x"}); l != strings.Repeat("q", 63)+"…" {
		t.Fatalf("a pair across the cut is dropped: %q", l)
	}
	if l := CitationChipLabel(&Citation{Text: " a \n\t b "}); l != " a b " {
		t.Fatalf("white space folds without trim: %q", l)
	}
}
