package contextref

import (
	"strings"
	"testing"
)

func decodeAll(t *testing.T, raws ...string) []Record {
	t.Helper()
	var recs []Record
	for _, raw := range raws {
		r, err := DecodeRecord([]byte(raw))
		if err != nil {
			t.Fatalf("%v: %s", err, raw)
		}
		recs = append(recs, r)
	}
	return recs
}

func TestProjectElementAndPreviewBodies(t *testing.T) {
	el := `{"version":1,"contextId":"e","kind":"element","label":"<Pay>","pageUrl":"http://x/","pageTitle":"Shop","tagName":"button","selector":"#pay","htmlPreview":"  <button>Pay</button>\n<i>x</i>  ","componentName":"Pay","source":{"functionName":null,"fileName":"src/Pay.tsx","lineNumber":3,"columnNumber":7},"styles":" "}`
	pv := `{"version":1,"contextId":"p","kind":"preview-annotation","label":"Checkout","annotationId":"ann","pageUrl":"http://x/","pageTitle":"  ","comment":"  Bigger  ","targetSummary":"","styleChanges":["font-size: 12px → 20px"],"screenshotContextId":"shot",` +
		`"elements":[{"pageUrl":"http://x/","pageTitle":null,"tagName":"b","selector":"","htmlPreview":"","componentName":null,"source":{"functionName":null,"fileName":"a.tsx","lineNumber":null,"columnNumber":9},"styles":"color: red"}]}`
	got := Project("[e](t3-context://v1/element/e) [p](t3-context://v1/preview-annotation/p)", decodeAll(t, el, pv))
	want := "[Element: e; ref=e] [Preview annotation: p; ref=p]\n\n<t3_context version=\"1\">\n" +
		"<context kind=\"element\" id=\"e\">\nurl: http://x/\ntag: button\ntitle: Shop\nselector: #pay\ncomponent: Pay\nsource: src/Pay.tsx:3:7\nhtml:\n  <button>Pay</button>\n  <i>x</i>\n</context>\n" +
		"<context kind=\"preview-annotation\" id=\"p\">\npage: http://x/\nurl: http://x/\ncomment: Bigger\nrequested visual changes:\n- font-size: 12px → 20px\nscreenshot: ref=shot\nelement 1:\n  url: http://x/\n  tag: b\n  source: a.tsx\n  styles:\n    color: red\n</context>\n</t3_context>"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestProjectRules(t *testing.T) {
	skill := `{"version":1,"contextId":"s","kind":"skill","label":"$x","name":"x"}`
	mention := `{"version":1,"contextId":"m","kind":"mention","label":"a.go","path":"a.go"}`
	file := `{"version":1,"contextId":"f","kind":"file","label":"a","attachmentId":"att","name":"a.txt","mimeType":"text/plain","sizeBytes":3}`
	file2 := strings.Replace(file, `"kind":"file"`, `"kind":"image"`, 1)
	cases := []struct {
		name, text string
		recs       []string
		want       string
	}{
		{"mention and skill: markers, no envelope", "[$x](t3-context://v1/skill/s) [a.go](t3-context://v1/mention/m)", []string{skill, mention},
			"[Skill: $x; ref=s] [Mention: a.go; ref=m]"},
		{"missing skill record is unavailable", "[$x](t3-context://v1/skill/s)", nil,
			"[Skill: $x; ref=s]\n\n<t3_context version=\"1\">\n<context kind=\"skill\" id=\"s\" unavailable=\"true\"/>\n</t3_context>"},
		{"one entry per id, first-reference order", "[b](t3-context://v1/file/f) [$x](t3-context://v1/skill/s) [again](t3-context://v1/file/f)", []string{skill, file},
			"[File: b; ref=f] [Skill: $x; ref=s] [File: again; ref=f]\n\n<t3_context version=\"1\">\n<context kind=\"file\" id=\"f\">\nname: a.txt\nmimeType: text/plain\nsizeBytes: 3\nattachmentId: att\n</context>\n</t3_context>"},
		{"duplicate ids count as missing", "[b](t3-context://v1/file/f)", []string{file, file2},
			"[File: b; ref=f]\n\n<t3_context version=\"1\">\n<context kind=\"file\" id=\"f\" unavailable=\"true\"/>\n</t3_context>"},
		{"ids are exact", "[b](t3-context://v1/file/F)", []string{file},
			"[File: b; ref=F]\n\n<t3_context version=\"1\">\n<context kind=\"file\" id=\"F\" unavailable=\"true\"/>\n</t3_context>"},
		{"record kind wins over link kind", "![b](t3-context://v1/image/f)", []string{file},
			"[File: b; ref=f]\n\n<t3_context version=\"1\">\n<context kind=\"file\" id=\"f\">\nname: a.txt\nmimeType: text/plain\nsizeBytes: 3\nattachmentId: att\n</context>\n</t3_context>"},
		{"marker label escapes ; and tags", "[a;b <Context> <contexts>](t3-context://v1/skill/s)", []string{skill},
			"[Skill: a b &lt;Context> <contexts>; ref=s]"},
		{"no occurrences: unchanged", "plain ](t3-context: text", []string{skill}, "plain ](t3-context: text"},
		{"prose untouched", "<context> [$x](t3-context://v1/skill/s)", []string{skill}, "<context> [Skill: $x; ref=s]"},
	}
	for _, c := range cases {
		got := Project(c.text, decodeAll(t, c.recs...))
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestEscapeContextTags(t *testing.T) {
	cases := map[string]string{
		"<context>":               "&lt;context>",
		"</CONTEXT x":             "&lt;/CONTEXT x",
		"<t3_context":             "&lt;t3_context",
		"<contexts> <t3_contextx": "<contexts> <t3_contextx",
		"<context_ <context-":     "<context_ &lt;context-",
		"a<b":                     "a<b",
	}
	for in, want := range cases {
		if got := escapeContextTags(in); got != want {
			t.Errorf("escapeContextTags(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKindTitle(t *testing.T) {
	for in, want := range map[string]string{"review-comment": "Review comment", "preview-annotation": "Preview annotation", "x": "X", "a-b-c": "A b c"} {
		if got := KindTitle(in); got != want {
			t.Errorf("KindTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
