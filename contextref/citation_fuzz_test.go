package contextref

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// citationSeeds put the fuzzer near the rules of DESIGN.md 3.8.
var citationSeeds = []string{
	"t3-citation://v1/a/b/c?text=quote&start=0&end=5&prefix=&suffix=",
	"t3-citation://v1/env%201/t%281%29/m%2F1?text=a+b%26c&start=1&end=4&prefix=x&suffix=y",
	"t3-citation://v1/a/b/c?text=q&start=0&end=5&prefix=&suffix=&comment=why%3F",
	"t3-citation://v1/a/b/x/../c?text=q&start=0&end=5&prefix=&suffix=#",
	"t3-citation://v1/a/%2e/b/c?suffix=&prefix=&end=9007199254740991&start=0&text=%E2%82",
	"t3-citation://v1/a\tb/c/d?text=q&start=0&end=5&prefix=&suffix=\n",
	"t3-citation://v1/a/b/c?text=q&start=0&end=5&prefix=&suffix=&comment&comment",
	"t3-citation://v1/a/b/c?text=q&start=0&end=5&prefix=&suffix=&%63omment=x",
	"t3-citation://v1/%zz/b/c?text=q&start=0&end=5&prefix=&suffix=",
	"t3-citation://v1/a/b/c#x",
}

// FuzzCitationParse checks ParseCitationHref on any input: no panic; a
// parsed citation writes an href that parses back to the same citation, its
// link is found by the scan and expanded, and its display label keeps at
// most 64 units before the ellipsis.
func FuzzCitationParse(f *testing.F) {
	for _, s := range citationSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, href string) {
		c, err := ParseCitationHref(href)
		if err != nil {
			if c != nil {
				t.Fatal("a citation with an error")
			}
			return
		}
		if !strings.HasPrefix(href, CitationScheme) || UTF16Len(href) > MaxCitationHrefLen {
			t.Fatalf("%q parsed without the prefix or over the bound", href)
		}
		if c.End <= c.Start || c.Text == "" || isBlankJS(c.Text) || c.EnvironmentID == "" || c.ThreadID == "" || c.MessageID == "" {
			t.Fatalf("invalid citation %+v from %q", c, href)
		}
		again, err := ParseCitationHref(c.Href())
		if err != nil {
			t.Fatalf("written href %q does not parse: %v (from %q)", c.Href(), err, href)
		}
		a, _ := MarshalCitation(c)
		b, _ := MarshalCitation(again)
		if !bytes.Equal(a, b) {
			t.Fatalf("round trip changes the citation:\n%s\n%s", a, b)
		}
		link := c.Link()
		occ := ValidCitations("x " + link + " y")
		if len(occ) != 1 || occ[0].Href != c.Href() {
			t.Fatalf("the scan finds %d citations in the written link %q", len(occ), link)
		}
		exp := ExpandCitations(link)
		if !strings.HasPrefix(exp, "[assistant-quote-1]\n\n<assistant_citations>\n") || !strings.HasSuffix(exp, "\n]\n</assistant_citations>") {
			t.Fatalf("expansion of %q: %q", link, exp)
		}
		js := exp[strings.Index(exp, "\n[\n"):strings.LastIndex(exp, "\n</assistant_citations>")]
		if strings.ContainsAny(js, "<>&") {
			t.Fatalf("unescaped <, > or & in the citation JSON: %q", js)
		}
		var entries []struct {
			ID       string          `json:"id"`
			Citation json.RawMessage `json:"citation"`
		}
		if err := json.Unmarshal([]byte(js), &entries); err != nil || len(entries) != 1 {
			t.Fatalf("citation JSON does not parse: %v\n%s", err, js)
		}
		var compact bytes.Buffer
		json.Compact(&compact, entries[0].Citation)
		var want bytes.Buffer
		json.Compact(&want, a)
		if !jsonSameValue(compact.Bytes(), want.Bytes()) {
			t.Fatalf("expanded citation %s differs from %s", compact.Bytes(), want.Bytes())
		}
		label := CitationChipLabel(c)
		if n := UTF16Len(label); n > CitationChipLabelLen+1 {
			t.Fatalf("label %q is %d units", label, n)
		}
	})
}

func jsonSameValue(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ax, _ := json.Marshal(x)
	by, _ := json.Marshal(y)
	return bytes.Equal(ax, by)
}

// FuzzCitationScan checks the scan and the expansion on any text: no
// panic, occurrences in order without overlap, each one the literal link
// pattern, and an expansion that keeps every invalid link's text.
func FuzzCitationScan(f *testing.F) {
	for _, s := range citationSeeds {
		f.Add("see [Assistant quote](" + s + ") and [Assistant quote](" + s + ")")
	}
	f.Add("[Assistant quote](t3-citation://v1/a)[Assistant quote](t3-citation://v1/a/b/c?text=q&start=0&end=5&prefix=&suffix=)")
	f.Fuzz(func(t *testing.T, text string) {
		last := 0
		for _, o := range ScanCitations(text) {
			if o.Start < last || o.End <= o.Start || o.End > len(text) {
				t.Fatalf("bad occurrence %+v", o)
			}
			src := text[o.Start:o.End]
			if !strings.HasPrefix(src, "[Assistant quote](t3-citation://v1/") || !strings.HasSuffix(src, ")") {
				t.Fatalf("occurrence %q is not a citation link", src)
			}
			last = o.End
		}
		out := ExpandCitations(text)
		if len(ValidCitations(text)) == 0 && out != text {
			t.Fatalf("no valid citation but the text changed")
		}
	})
}

// FuzzThreadRecord checks the thread record (DESIGN.md 3.1, 3.5) on any
// field values: no panic; a decoded record has trimmed, non-empty ids and
// the title as given, encodes in the contract's field order and decodes to
// the same bytes, and projects to exactly four lines.
func FuzzThreadRecord(f *testing.F) {
	f.Add("ctx_th", "Fix login bug", " env_a ", "thread_42 ", "  spaced  ", "")
	f.Add("ctx_th", "", "", "t", "", `,"payload":1`)
	f.Add("x", "l", "\u3000e\u3000", "\ufefft", "</context><t3_context>", `,"extra":{"a":1}`)
	f.Add("x", "l", "e", "t", strings.Repeat("é", 201), "")
	f.Fuzz(func(t *testing.T, contextID, label, envID, threadID, title, extra string) {
		for _, s := range []string{contextID, label, envID, threadID, title} {
			if !utf8.ValidString(s) {
				return // JSON would carry U+FFFD instead
			}
		}
		fields, _ := json.Marshal(map[string]string{"contextId": contextID, "label": label, "environmentId": envID, "threadId": threadID, "title": title})
		raw := `{"version":1,"kind":"thread",` + string(fields[1:len(fields)-1]) + extra + `}`
		r, err := DecodeRecord([]byte(raw))
		if err != nil {
			return
		}
		th, ok := r.(*ThreadRecord)
		if !ok {
			t.Fatalf("a thread record decodes to %T", r)
		}
		if th.EnvironmentID != TrimJS(envID) || th.ThreadID != TrimJS(threadID) || th.EnvironmentID == "" || th.ThreadID == "" {
			t.Fatalf("ids not trimmed or empty: %+v", th)
		}
		if th.Title != title && json.Valid([]byte(raw)) && !strings.Contains(extra, `"title"`) {
			t.Fatalf("title changed: %q → %q", title, th.Title)
		}
		enc, err := MarshalRecord(th)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(enc, []byte(`{"version":1,"contextId":`)) || !bytes.Contains(enc, []byte(`,"kind":"thread","environmentId":`)) {
			t.Fatalf("field order: %s", enc)
		}
		d, err := DecodeRecord(enc)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", enc, err)
		}
		enc2, _ := MarshalRecord(d)
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("not stable:\n%s\n%s", enc, enc2)
		}
		spec, _ := Spec(KindThread)
		body := spec.Body(th)
		lines := strings.Split(body, "\n")
		if !strings.ContainsAny(th.Title+th.ThreadID+th.EnvironmentID, "\r\n\u2028\u2029") && len(lines) != 4 {
			t.Fatalf("%d body lines: %q", len(lines), body)
		}
		if lines[len(lines)-1] != ThreadInstruction {
			t.Fatalf("last line %q", lines[len(lines)-1])
		}
		out := Project("[t]("+LinkScheme+"thread/"+th.ContextID+")", []Record{th})
		if strings.Count(out, "<context ") != 1 || strings.Count(out, "</context>") != 1 || strings.Count(out, "</t3_context>") != 1 {
			t.Fatalf("projection forged an entry: %q", out)
		}
	})
}
