package contextref

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

type upgradeVector struct {
	Text   string `json:"text"`
	Output struct {
		Text    string `json:"text"`
		Records []any  `json:"records"`
	} `json:"output"`
}

func loadUpgradeVectors(tb testing.TB) []upgradeVector {
	tb.Helper()
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		tb.Fatal(err)
	}
	var v struct {
		Upgrade []upgradeVector `json:"upgrade"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		tb.Fatal(err)
	}
	if len(v.Upgrade) == 0 {
		tb.Fatal("no upgrade vectors")
	}
	return v.Upgrade
}

// recordValues encodes each record and decodes it again as a plain JSON value.
func recordValues(tb testing.TB, recs []Record) []any {
	tb.Helper()
	out := []any{}
	for _, r := range recs {
		raw, err := MarshalRecord(r)
		if err != nil {
			tb.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			tb.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func TestUpgradeLegacyVectors(t *testing.T) {
	for i, v := range loadUpgradeVectors(t) {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			text, recs := UpgradeLegacy(v.Text)
			if text != v.Output.Text {
				t.Errorf("text\n got %q\nwant %q", text, v.Output.Text)
			}
			want := v.Output.Records
			if want == nil {
				want = []any{}
			}
			if got := recordValues(t, recs); !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("records\n got %s\nwant %s", g, w)
			}
		})
	}
}

// subset reports whether every key of want is in got with an equal value
// (objects and arrays compared recursively, arrays of equal length,
// everything else exactly).
func subset(want, got any) bool {
	if wa, ok := want.([]any); ok {
		ga, ok := got.([]any)
		if !ok || len(ga) != len(wa) {
			return false
		}
		for i := range wa {
			if !subset(wa[i], ga[i]) {
				return false
			}
		}
		return true
	}
	wm, ok := want.(map[string]any)
	if !ok {
		return reflect.DeepEqual(want, got)
	}
	gm, ok := got.(map[string]any)
	if !ok {
		return false
	}
	for k, wv := range wm {
		gv, ok := gm[k]
		if !ok || !subset(wv, gv) {
			return false
		}
	}
	return true
}

const (
	rcA = `<review_comment sectionId="s1" sectionTitle="Diff" filePath="src/a.ts" startIndex="4" endIndex="9" rangeLabel="L4-L9">`
	rcB = `<review_comment sectionId="s2" filePath="lib/b.go" startIndex="1" endIndex="1">`
	rcX = "</review_comment>"

	termBlock   = "<terminal_context>\n- Terminal 1 lines 12-13:\n  12 | $ go test\n  13 | FAIL\n</terminal_context>"
	termLink    = "[Terminal 1 lines 12-13](t3-context://v1/terminal/legacy_terminal_1)"
	reviewLinkA = "[a.ts L4-L9](t3-context://v1/review-comment/legacy_review-comment_1)"
)

type upgradeCase struct {
	name string
	in   string
	text string // "" means: unchanged
	recs string // JSON array of partial records; "" means none
}

func runUpgradeCases(t *testing.T, cases []upgradeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, recs := UpgradeLegacy(c.in)
			wantText := c.text
			if wantText == "" {
				wantText = c.in
			}
			if text != wantText {
				t.Errorf("text\n got %q\nwant %q", text, wantText)
			}
			if c.recs == "" {
				if recs != nil {
					t.Errorf("want nil records, got %d", len(recs))
				}
			} else {
				var want []any
				if err := json.Unmarshal([]byte(c.recs), &want); err != nil {
					t.Fatalf("bad case records: %v", err)
				}
				got := recordValues(t, recs)
				ok := len(got) == len(want)
				for i := 0; ok && i < len(want); i++ {
					ok = subset(want[i], got[i])
				}
				if !ok {
					g, _ := json.Marshal(got)
					t.Errorf("records\n got %s\nwant (subset) %s", g, c.recs)
				}
			}
			for _, r := range recs {
				raw, err := MarshalRecord(r)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := DecodeRecord(raw); err != nil {
					t.Errorf("record does not decode: %v", err)
				}
			}
		})
	}
}

func legacyReviewsCases() []upgradeCase {
	return []upgradeCase{
		{
			name: "in place",
			in:   "Hi " + rcA + "Rename this\n```diff\n-old\n+new\n```\n" + rcX + " there",
			text: "Hi " + reviewLinkA + " there",
			recs: `[{"version":1,"kind":"review-comment","contextId":"legacy_review-comment_1","label":"a.ts L4-L9",
				"sectionId":"s1","sectionTitle":"Diff","filePath":"src/a.ts","startIndex":4,"endIndex":9,
				"rangeLabel":"L4-L9","text":"Rename this","diff":"-old\n+new","fenceLanguage":"diff"}]`,
		},
		{
			name: "indices swapped become min and max",
			in:   `<review_comment sectionId="s" filePath="a" startIndex="9" endIndex="004">x` + rcX + " y",
			text: "[a line](t3-context://v1/review-comment/legacy_review-comment_1) y",
			recs: `[{"startIndex":4,"endIndex":9,"rangeLabel":"line","sectionTitle":"Review","text":"x","diff":"","fenceLanguage":"diff"}]`,
		},
		{
			name: "no fence: whole body trimmed, language diff",
			in:   "a " + rcB + "\n  just words  \n" + rcX + " b",
			text: "a [b.go line](t3-context://v1/review-comment/legacy_review-comment_1) b",
			recs: `[{"text":"just words","diff":"","label":"b.go line","fenceLanguage":"diff"}]`,
		},
		{
			name: "fence language word, last fence wins",
			in:   "a " + rcB + "intro\n```\nfirst\n```\nmiddle\n```ts title\nsecond\n```\ntrailing\n" + rcX + " b",
			text: "a [b.go line](t3-context://v1/review-comment/legacy_review-comment_1) b",
			recs: `[{"text":"intro\n` + "```" + `\nfirst\n` + "```" + `\nmiddle","diff":"second","fenceLanguage":"ts"}]`,
		},
		{
			name: "fence without language defaults to diff",
			in:   "a " + rcB + "x\n```\n-1\n```\n" + rcX,
			text: "a\n\n[b.go line](t3-context://v1/review-comment/legacy_review-comment_1)",
			recs: `[{"text":"x","diff":"-1","fenceLanguage":"diff"}]`,
		},
		{
			name: "closing tag inside an open fence does not close",
			in:   "a " + rcB + "Look\n```diff\n-a </review_comment>\n</review_comment>\n+b\n```\n" + rcX + " b",
			text: "a [b.go line](t3-context://v1/review-comment/legacy_review-comment_1) b",
			recs: `[{"text":"Look","diff":"-a </review_comment>\n</review_comment>\n+b","fenceLanguage":"diff"}]`,
		},
		{
			name: "shorter backtick line does not close a longer fence",
			in:   "a " + rcB + "````\n```\n</review_comment>\n````\n" + rcX,
			text: "a\n\n[b.go line](t3-context://v1/review-comment/legacy_review-comment_1)",
			recs: `[{"text":"","diff":"` + "```" + `\n</review_comment>","fenceLanguage":"diff"}]`,
		},
		{
			name: "closing fence must be backticks alone",
			in:   "a " + rcB + "```\n``` x\n</review_comment>\n```\n" + rcX,
			text: "a\n\n[b.go line](t3-context://v1/review-comment/legacy_review-comment_1)",
			recs: `[{"diff":"` + "``` x" + `\n</review_comment>"}]`,
		},
		{
			name: "backticks on the opener's line open no fence",
			in:   "a " + rcB + "```\n</review_comment>\n```\n" + rcX,
			text: "a [b.go line](t3-context://v1/review-comment/legacy_review-comment_1)\n```\n</review_comment>",
			recs: `[{"text":"` + "```" + `","diff":""}]`,
		},
		{
			name: "a fence line is consumed whole: a tag on it never closes",
			in:   "a " + rcB + "body\n```js " + rcX + " b",
		},
		{
			name: "unclosed fence: no end, stays text",
			in:   "a " + rcB + "x\n```\nx " + rcX,
		},
		{
			name: "attributes unescape",
			in:   `<review_comment sectionId="s&amp;1" sectionTitle="&quot;Diff&quot; &amp;amp; &lt;b&gt;" filePath="src/&lt;a&gt;.ts" startIndex="1" endIndex="2" rangeLabel="L1">t` + rcX + " z",
			text: "[<a>.ts L1](t3-context://v1/review-comment/legacy_review-comment_1) z",
			recs: `[{"sectionId":"s&1","sectionTitle":"\"Diff\" &amp; <b>","filePath":"src/<a>.ts","label":"<a>.ts L1"}]`,
		},
		{
			name: "white space around attributes",
			in:   "<review_comment\n  filePath=\"x/y/z.md\"\tsectionId=\"s\" startIndex=\"1\" endIndex=\"1\" rangeLabel=\"L1\" >t" + rcX,
			text: "[z.md L1](t3-context://v1/review-comment/legacy_review-comment_1)",
			recs: `[{"filePath":"x/y/z.md"}]`,
		},
		{
			name: "the opening ends at the first >, even inside a value",
			in:   "<review_comment filePath=\"x>y/z.md\" sectionId=\"s\" startIndex=\"1\" endIndex=\"1\">t" + rcX,
		},
		{
			name: "blank rangeLabel gives line",
			in:   `<review_comment sectionId="s" filePath="dir/" startIndex="1" endIndex="1" rangeLabel=" ">t` + rcX + " z",
			text: "[line](t3-context://v1/review-comment/legacy_review-comment_1) z",
			recs: `[{"label":" line","rangeLabel":"line"}]`,
		},
		{
			name: "backslash paths use the last segment",
			in:   `<review_comment sectionId="s" filePath="src\win.ts" startIndex="1" endIndex="1">t` + rcX + " z",
			text: "[win.ts line](t3-context://v1/review-comment/legacy_review-comment_1) z",
			recs: `[{"label":"win.ts line"}]`,
		},
		{
			name: "last of a repeated attribute wins",
			in:   `<review_comment sectionId="s" filePath="a.ts" filePath="b.ts" startIndex="1" endIndex="1">t` + rcX + " z",
			text: "[b.ts line](t3-context://v1/review-comment/legacy_review-comment_1) z",
			recs: `[{"filePath":"b.ts"}]`,
		},
		{name: "missing filePath stays text", in: `x <review_comment sectionId="s" startIndex="1" endIndex="1">t` + rcX},
		{name: "missing sectionId stays text", in: `x <review_comment filePath="a" startIndex="1" endIndex="1">t` + rcX},
		{name: "blank filePath stays text", in: `x <review_comment sectionId="s" filePath="  " startIndex="1" endIndex="1">t` + rcX},
		{name: "non-digit index stays text", in: `x <review_comment sectionId="s" filePath="a" startIndex="1a" endIndex="1">t` + rcX},
		{name: "negative index stays text", in: `x <review_comment sectionId="s" filePath="a" startIndex="-1" endIndex="1">t` + rcX},
		{name: "missing index stays text", in: `x <review_comment sectionId="s" filePath="a" startIndex="1">t` + rcX},
		{name: "unquoted attribute is no opener", in: `x <review_comment sectionId=s filePath="a" startIndex="1" endIndex="1">t` + rcX},
		{name: "single quotes are no opener", in: `x <review_comment sectionId='s' filePath="a" startIndex="1" endIndex="1">t` + rcX},
		{name: "attribute glued to the tag name is no opener", in: `x <review_commentsectionId="s" filePath="a" startIndex="1" endIndex="1">t` + rcX},
		{name: "no closing tag stays text", in: "x " + rcB + "never closed"},
		{
			name: "an invalid block stays text, a later valid one converts",
			in:   `A <review_comment filePath="x">bad` + rcX + " B " + rcB + "ok" + rcX,
			text: `A <review_comment filePath="x">bad` + rcX + " B\n\n[b.go line](t3-context://v1/review-comment/legacy_review-comment_1)",
			recs: `[{"text":"ok"}]`,
		},
		{
			name: "an invalid block hides the opener inside it",
			in:   `<review_comment sectionId="s">outer ` + rcB + "inner" + rcX + " tail",
		},
		{
			name: "an opening that never ends stops the scan: a later valid block stays text",
			in:   `<review_comment sectionId="x" filePath="y" startIndex="1" endIndex="1">a` + "\n```\n" + rcB + "z " + rcX + " w",
		},
		{
			name: "index past 2^53-1 fails the schema: that block stays text",
			in:   "x " + `<review_comment sectionId="s" filePath="a" startIndex="9007199254740992" endIndex="1">t` + rcX + "\n\n" + termBlock,
			text: "x " + `<review_comment sectionId="s" filePath="a" startIndex="9007199254740992" endIndex="1">t` + rcX + "\n\n" + termLink,
			recs: `[{"kind":"terminal"}]`,
		},
		{
			name: "over-long label fails the schema: that block stays text",
			in:   `<review_comment sectionId="s" filePath="` + strings.Repeat("a", 300) + `" startIndex="1" endIndex="1">t` + rcX + "\n\n" + termBlock,
			text: `<review_comment sectionId="s" filePath="` + strings.Repeat("a", 300) + `" startIndex="1" endIndex="1">t` + rcX + "\n\n" + termLink,
			recs: `[{"kind":"terminal"}]`,
		},
		{
			name: "private-use characters in the text do not disturb tokens",
			in:   "a \uE000\uE000 " + rcB + "t" + rcX + " \uE000",
			text: "a \uE000\uE000 [b.go line](t3-context://v1/review-comment/legacy_review-comment_1) \uE000",
			recs: `[{"text":"t"}]`,
		},
	}
}

func legacyOrderCases() []upgradeCase {
	element := "<element_context>\n- <div>:\n  url: http://x/\n</element_context>"
	preview := "<preview_annotation>\nPreview annotation:\nId: a1\nPage: Home\n</preview_annotation>"
	term := "<terminal_context>\n- T line 1:\n  1 | a\n</terminal_context>"
	return []upgradeCase{
		{
			name: "appended links: terminals, elements, previews, trailing reviews",
			in:   "Look\n" + rcA + "x" + rcX + " here\n\n" + term + "\n\n" + element + "\n\n" + preview + "\n" + rcB + "y" + rcX + "\n",
			text: "Look\n" + reviewLinkA + " here\n\n" +
				"[T line 1](t3-context://v1/terminal/legacy_terminal_1) " +
				"[<div>](t3-context://v1/element/legacy_element_1) " +
				"[Home](t3-context://v1/preview-annotation/legacy_preview-annotation_1) " +
				"[b.go line](t3-context://v1/review-comment/legacy_review-comment_2)",
			recs: `[{"contextId":"legacy_terminal_1"},{"contextId":"legacy_element_1"},{"contextId":"legacy_preview-annotation_1"},
				{"contextId":"legacy_review-comment_1","text":"x"},{"contextId":"legacy_review-comment_2","text":"y"}]`,
		},
		{
			name: "several trailing reviews keep their order, white space among them",
			in:   "Hi\n" + rcB + "1" + rcX + " \n " + rcB + "2" + rcX + "\n\n",
			text: "Hi\n\n[b.go line](t3-context://v1/review-comment/legacy_review-comment_1) [b.go line](t3-context://v1/review-comment/legacy_review-comment_2)",
			recs: `[{"text":"1"},{"text":"2"}]`,
		},
		{
			name: "a review before a trailing block is in place",
			in:   "See " + rcB + "r" + rcX + "\n\n" + termBlock,
			text: "See [b.go line](t3-context://v1/review-comment/legacy_review-comment_1)\n\n" + termLink,
			recs: `[{"kind":"terminal"},{"kind":"review-comment"}]`,
		},
		{
			name: "blocks peel in any order",
			in:   "p\n\n" + preview + "\n\n" + element + "\n\n" + term,
			text: "p\n\n[T line 1](t3-context://v1/terminal/legacy_terminal_1) [<div>](t3-context://v1/element/legacy_element_1) [Home](t3-context://v1/preview-annotation/legacy_preview-annotation_1)",
			recs: `[{"kind":"terminal"},{"kind":"element"},{"kind":"preview-annotation"}]`,
		},
		{
			name: "only blocks: no separator",
			in:   "\n" + term + "\n\n",
			text: "[T line 1](t3-context://v1/terminal/legacy_terminal_1)",
			recs: `[{"kind":"terminal"}]`,
		},
		{
			name: "trailing white space of the prose is trimmed",
			in:   "Fix  \t\n\n\n" + term,
			text: "Fix\n\n[T line 1](t3-context://v1/terminal/legacy_terminal_1)",
			recs: `[{"kind":"terminal"}]`,
		},
		{
			name: "block not at the end stays text",
			in:   "a\n" + term + "\nmore words",
		},
		{
			name: "two terminal blocks: the first opener starts the block, which is then malformed",
			in:   "p\n\n" + term + "\n\n" + term,
		},
		{
			name: "a review block inside a trailing block is part of its text",
			in: "Fix\n\n<terminal_context>\n- T lines 1-3:\n  1 | " + rcB + "\n  2 | hi\n  3 | " + rcX +
				"\n</terminal_context>",
			text: "Fix\n\n[T lines 1-3](t3-context://v1/terminal/legacy_terminal_1)",
			recs: `[{"kind":"terminal","text":` + jsonString(rcB+"\nhi\n"+rcX) + `}]`,
		},
		{
			name: "word boundary after the tag name",
			in:   "<terminal_contexts>\n- T line 1:\n  1 | a\n</terminal_contexts>",
		},
		{name: "an orphan U+FFFC is deleted", in: "a \uFFFC b", text: "a  b"},
		{name: "right-trimmed even when nothing converts", in: "text <review_comment oops>  \n ", text: "text <review_comment oops>"},
		{
			name: "half a link in the prose takes the inserted link",
			in:   "[x](t3-context://v1/k/\uFFFC tail\n\n<terminal_context>\n- a)b line 1:\n  1 | x\n</terminal_context>",
			text: "[x](t3-context://v1/k/[a)b line 1](t3-context://v1/terminal/legacy_terminal_1) tail",
			recs: `[{"kind":"terminal"}]`,
		},
		{
			name: "a placeholder inside the opening tag is no block",
			in:   "x " + rcB + "r" + rcX + " <terminal_context>\uFFFC\n- a line 1:\n  1 | b\n</terminal_context>",
			text: "x [b.go line](t3-context://v1/review-comment/legacy_review-comment_1) <terminal_context>\n- a line 1:\n  1 | b\n</terminal_context>",
			recs: `[{"kind":"review-comment"}]`,
		},
		{name: "empty terminal block alone changes nothing", in: "a\n<terminal_context>\n\n</terminal_context>"},
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func legacyTerminalsCases() []upgradeCase {
	block := func(entries ...string) string {
		return "<terminal_context>\n" + strings.Join(entries, "\n") + "\n</terminal_context>"
	}
	t12 := "- Terminal 1 lines 12-13:\n  12 | $ go test\n  13 | FAIL"
	t5 := "- T line 5:\n  5 | boom"
	l5 := "[T line 5](t3-context://v1/terminal/legacy_terminal_2)"
	return []upgradeCase{
		{
			name: "line N header",
			in:   "x\n\n" + block("- My  Shell line 7:\n  7 | ok"),
			text: "x\n\n[My Shell line 7](t3-context://v1/terminal/legacy_terminal_1)",
			recs: `[{"label":"My  Shell line 7","terminalLabel":"My  Shell","terminalId":"my-shell","lineStart":7,"lineEnd":7,"text":"ok"}]`,
		},
		{
			name: "lines A-B header, label greedy",
			in:   "x\n\n" + block("- a lines 1-2 lines 3-4:\n  3 | c\n  4 | d"),
			text: "x\n\n[a lines 1-2 lines 3-4](t3-context://v1/terminal/legacy_terminal_1)",
			recs: `[{"terminalLabel":"a lines 1-2","terminalId":"a-lines-1-2","lineStart":3,"lineEnd":4,"text":"c\nd"}]`,
		},
		{
			name: "line number prefix with and without the space",
			in:   "x\n\n" + block("- T lines 1-6:\n  1 | a\n  2 |b\n  3 |  c\n  4| d\n  x | e\n  6 |"),
			text: "x\n\n[T lines 1-6](t3-context://v1/terminal/legacy_terminal_1)",
			recs: `[{"text":"a\nb\n c\n4| d\nx | e\n"}]`,
		},
		{
			name: "blank lines are kept",
			in:   "x\n\n" + block("- T lines 1-3:\n  1 | a\n\n  3 | c", "", t5),
			text: "x\n\n[T lines 1-3](t3-context://v1/terminal/legacy_terminal_1) " + l5,
			recs: `[{"text":"a\n\nc"},{"text":"boom"}]`,
		},
		{
			name: "placeholders bind in order, extra ones vanish",
			in:   "a \uFFFC b \uFFFC c \uFFFC d\n\n" + block(t12, t5),
			text: "a " + termLink + " b " + l5 + " c  d",
			recs: `[{"contextId":"legacy_terminal_1"},{"contextId":"legacy_terminal_2"}]`,
		},
		{
			name: "placeholders vanish when there is no terminal",
			in:   "a \uFFFC b " + rcB + "r" + rcX,
			text: "a  b\n\n[b.go line](t3-context://v1/review-comment/legacy_review-comment_1)",
			recs: `[{"kind":"review-comment"}]`,
		},
		{
			name: "fewer placeholders: the rest goes inline or is appended",
			in:   "a \uFFFC and @t:5 b\n\n" + block(t12, t5, "- U line 1:\n  1 | z"),
			text: "a " + termLink + " and " + l5 + " b\n\n[U line 1](t3-context://v1/terminal/legacy_terminal_3)",
			recs: `[{},{},{}]`,
		},
		{
			name: "inline label binds the first occurrence standing alone",
			in:   "x@t:5 then (@t:5) then @t:5\n\n" + block(t5),
			text: "x@t:5 then (" + strings.Replace(l5, "_2", "_1", 1) + ") then @t:5",
			recs: `[{"lineStart":5}]`,
		},
		{
			name: "two terminals with one label take two occurrences",
			in:   "@t:5 and @t:5\n\n" + block(t5, t5),
			text: strings.Replace(l5, "_2", "_1", 1) + " and " + l5,
			recs: `[{},{}]`,
		},
		{
			name: "inline label at the end, before punctuation",
			in:   "see @t:5.\n\n" + block(t5),
			text: "see " + strings.Replace(l5, "_2", "_1", 1) + ".",
			recs: `[{}]`,
		},
		{
			name: "placeholder and inline label mix across a review link",
			in:   rcB + "r" + rcX + "@t:5 \uFFFC\n\n" + block(t12, t5),
			text: "[b.go line](t3-context://v1/review-comment/legacy_review-comment_1)" + l5 + " " + termLink,
			recs: `[{},{},{}]`,
		},
		{
			name: "inline labels are searched in the rewritten text, review link labels included",
			in:   `<review_comment sectionId="s" filePath="b.go" startIndex="1" endIndex="1" rangeLabel="see @t:5">r` + rcX + " x\n\n" + block(t5),
			text: "[b.go see [T line 5](t3-context://v1/terminal/legacy_terminal_1)](t3-context://v1/review-comment/legacy_review-comment_1) x",
			recs: `[{"terminalId":"t"},{"rangeLabel":"see @t:5"}]`,
		},
		{
			name: "inline labels are searched in the rewritten text, placed terminal links included",
			in:   "\uFFFC x\n\n" + block("- @t:5 line 1:\n  1 | a", t5),
			text: "[[T line 5](t3-context://v1/terminal/legacy_terminal_2) line 1](t3-context://v1/terminal/legacy_terminal_1) x",
			recs: `[{"terminalId":"@t:5"},{"terminalId":"t"}]`,
		},
		{
			name: "unicode labels lower-case as JavaScript does",
			in:   "@\u03c3\u03af\u03c3\u03c5\u03c6\u03bf\u03c2-i\u0307:1 x\n\n" + block("- \u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3 \u0130 line 1:\n  1 | a"),
			text: "[\u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3 \u0130 line 1](t3-context://v1/terminal/legacy_terminal_1) x",
			recs: `[{"terminalId":"\u03c3\u03af\u03c3\u03c5\u03c6\u03bf\u03c2-i\u0307"}]`,
		},
		{name: "header without a range is malformed", in: "x\n\n" + block("- Terminal 1:\n  1 | a")},
		{name: "header lines with one number is malformed", in: "x\n\n" + block("- T lines 5:\n  5 | a")},
		{name: "header without colon is malformed", in: "x\n\n" + block("- T line 5\n  5 | a")},
		{name: "unindented line is malformed", in: "x\n\n" + block("- T line 5:\nboom")},
		{name: "one-space indent is malformed", in: "x\n\n" + block("- T line 5:\n 5 | a")},
		{name: "indented line before any entry is malformed", in: "x\n\n" + block("  5 | a", t5)},
		{name: "end before start fails the schema", in: "x\n\n" + block("- T lines 5-3:\n  5 | a")},
		{name: "blank label fails the schema", in: "x\n\n" + block("-   line 5:\n  5 | a")},
		{
			name: "malformed block keeps reviews as text too (atomic)",
			in:   rcB + "r" + rcX + "\n\n" + block("- T line 5:\noops"),
		},
	}
}

func legacyInlineBoundariesCases() []upgradeCase {
	block := "\n\n<terminal_context>\n- Terminal 1 lines 12-13:\n  12 | $ go test\n  13 | FAIL\n</terminal_context>"
	bound := func(before, after string) upgradeCase {
		return upgradeCase{
			name: fmt.Sprintf("binds %q_%q", before, after),
			in:   before + "@terminal-1:12-13" + after + block,
			text: strings.TrimRight(before+termLink+after, " \n"),
			recs: `[{"terminalId":"terminal-1"}]`,
		}
	}
	unbound := func(before, after string) upgradeCase {
		return upgradeCase{
			name: fmt.Sprintf("leaves %q_%q", before, after),
			in:   before + "@terminal-1:12-13" + after + block,
			text: before + "@terminal-1:12-13" + after + "\n\n" + termLink,
			recs: `[{"terminalId":"terminal-1"}]`,
		}
	}
	return []upgradeCase{
		bound("", ""), bound("(", ")"), bound("see ", "."), bound("see ", "..."), bound("x ", ".@"),
		bound("x ", ", y"), bound("x\n", "\ny"), bound("«", "»"), bound("x ", "/y"), bound("x ", ":y"),
		bound("#", "!"), bound("x ", "@ y"),
		unbound("x", ""), unbound("_", ""), unbound("@", ""), unbound(".", ""), unbound("-", ""),
		unbound("é", ""), unbound("٣", ""), unbound("3", ""), unbound("\u0301", ""),
		unbound("", "x"), unbound("", "4"), unbound("", "_"), unbound("", "-"), unbound("", "é"),
		unbound("", "٣"), unbound("", "\u0301"), unbound("", ".x"), unbound("", "..3"), unbound("", "@x"),
		unbound("", ".@_"), unbound("", "-14"),
	}
}

func legacyElementsCases() []upgradeCase {
	return []upgradeCase{
		{
			name: "element details",
			in: "Style\n\n<element_context>\n- <PayButton>:\n  url: http://localhost:3000/\n  selector: #pay\n" +
				"  source: src/Pay.tsx:3:7\n  html:\n    <div>\n      <b>x</b>\n\n    </div>\n  styles:\n    color: red\n    margin: 0\n</element_context>",
			text: "Style\n\n[<PayButton>](t3-context://v1/element/legacy_element_1)",
			recs: `[{"label":"<PayButton>","tagName":"paybutton","componentName":"PayButton","pageUrl":"http://localhost:3000/","pageTitle":null,
				"selector":"#pay","source":{"functionName":null,"fileName":"src/Pay.tsx","lineNumber":3,"columnNumber":7},
				"htmlPreview":"<div>\n  <b>x</b>\n\n</div>","styles":"color: red\nmargin: 0"}]`,
		},
		{
			name: "several entries, lower-case name, missing fields",
			in:   "S\n\n<element_context>\n- <div>:\n  source: a.tsx:9\n- <span> extra:\n  selector:\n  source: b.tsx\n  other: ignored\n  free text is ignored\n</element_context>",
			text: "S\n\n[<div>](t3-context://v1/element/legacy_element_1) [<span>](t3-context://v1/element/legacy_element_2)",
			recs: `[{"tagName":"div","componentName":null,"pageUrl":"","selector":null,"htmlPreview":"","styles":"",
				"source":{"fileName":"a.tsx","lineNumber":9,"columnNumber":null}},
				{"tagName":"span","selector":null,"source":{"fileName":"b.tsx","lineNumber":null,"columnNumber":null}}]`,
		},
		{
			name: "last key wins; a value on the section's line makes a field, not a section",
			in:   "S\n\n<element_context>\n- <a>:\n  url: http://one/\n  url: http://two/\n  html: <a>\n    </a>\n</element_context>",
			text: "S\n\n[<a>](t3-context://v1/element/legacy_element_1)",
			recs: `[{"pageUrl":"http://two/","htmlPreview":"","source":null}]`,
		},
		{name: "header without a name is malformed", in: "S\n\n<element_context>\n- button:\n  url: x\n</element_context>"},
		{name: "empty name is malformed", in: "S\n\n<element_context>\n- <>:\n  url: x\n</element_context>"},
		{name: "unindented body line is malformed", in: "S\n\n<element_context>\n- <a>:\nurl: x\n</element_context>"},
	}
}

func legacyPreviewsCases() []upgradeCase {
	el := func(name, url string) string {
		return "<element_context>\n- <" + name + ">:\n  url: " + url + "\n</element_context>"
	}
	return []upgradeCase{
		{
			name: "title page takes the url of the first element; nested elements",
			in: "Look\n\n<preview_annotation>\nPreview annotation:\nId: ann_1\nPage: Checkout\nComment:   Bigger  \nTargets: button\n" +
				"Requested visual changes:\n- a: 1 → 2\n-  b: x  \nnot a change\n- c\n" + el("A", "http://a/") + "\nsome text\n" +
				"<element_context>\n- <b>:\n  url: http://b/\n- <C>:\n  url: http://c/\n</element_context>\n</preview_annotation>",
			text: "Look\n\n[Checkout](t3-context://v1/preview-annotation/legacy_preview-annotation_1)",
			recs: `[{"label":"Checkout","annotationId":"ann_1","pageUrl":"http://a/","pageTitle":"Checkout","comment":"Bigger",
				"targetSummary":"button","styleChanges":["a: 1 → 2"," b: x  "],
				"elements":[{"tagName":"a","pageUrl":"http://a/"},{"tagName":"b","componentName":null},{"tagName":"c","componentName":"C"}]}]`,
		},
		{
			name: "URL page",
			in:   "x\n\n<preview_annotation>\nId: 2\nPage: HTTPS://E.com/p\n" + el("a", "http://other/") + "\n</preview_annotation>",
			text: "x\n\n[HTTPS://E.com/p](t3-context://v1/preview-annotation/legacy_preview-annotation_1)",
			recs: `[{"pageUrl":"HTTPS://E.com/p","pageTitle":null,"comment":"","targetSummary":"","styleChanges":[]}]`,
		},
		{
			name: "no page",
			in:   "x\n\n<preview_annotation>\nId: 3\n</preview_annotation>",
			text: "x\n\n[Preview annotation](t3-context://v1/preview-annotation/legacy_preview-annotation_1)",
			recs: `[{"label":"Preview annotation","pageUrl":"","pageTitle":null}]`,
		},
		{
			name: "first Id line wins",
			in:   "x\n\n<preview_annotation>\nId: first\nId: second\nId:third\n</preview_annotation>",
			text: "x\n\n[Preview annotation](t3-context://v1/preview-annotation/legacy_preview-annotation_1)",
			recs: `[{"annotationId":"first"}]`,
		},
		{name: "missing Id fails the schema", in: "x\n\n<preview_annotation>\nPage: P\n</preview_annotation>"},
		{
			name: "malformed nested element is malformed",
			in:   "x\n\n<preview_annotation>\nId: 1\n<element_context>\n- <a>:\nbad\n</element_context>\n</preview_annotation>",
		},
	}
}

func TestUpgradeLegacyReviews(t *testing.T) { runUpgradeCases(t, legacyReviewsCases()) }

func TestUpgradeLegacyOrder(t *testing.T) { runUpgradeCases(t, legacyOrderCases()) }

func TestUpgradeLegacyTerminals(t *testing.T) { runUpgradeCases(t, legacyTerminalsCases()) }

func TestUpgradeLegacyInlineBoundaries(t *testing.T) {
	runUpgradeCases(t, legacyInlineBoundariesCases())
}

func TestUpgradeLegacyElements(t *testing.T) { runUpgradeCases(t, legacyElementsCases()) }

func TestUpgradeLegacyPreviews(t *testing.T) { runUpgradeCases(t, legacyPreviewsCases()) }

// legacyCaseInputs lists the inputs of every table case (fuzz seeds).
func legacyCaseInputs() []string {
	var out []string
	for _, cases := range [][]upgradeCase{legacyReviewsCases(), legacyOrderCases(), legacyTerminalsCases(), legacyInlineBoundariesCases(), legacyElementsCases(), legacyPreviewsCases()} {
		for _, c := range cases {
			out = append(out, c.in)
		}
	}
	return out
}

func TestUpgradeLegacyFastPath(t *testing.T) {
	for _, s := range []string{
		"", "plain prose", "<terminal_contexts>", "a <b> c", "<review_comment_x>", "[x](t3-context://v1/file/a)",
	} {
		if hasLegacyTrigger(s) {
			t.Errorf("%q triggers", s)
		}
		if allocs := testing.AllocsPerRun(100, func() { UpgradeLegacy(s) }); allocs != 0 {
			t.Errorf("%q: %v allocations", s, allocs)
		}
		out, recs := UpgradeLegacy(s)
		if out != s || recs != nil {
			t.Errorf("%q changed", s)
		}
	}
	for _, s := range []string{
		"<terminal_context>", "x<element_context y", "<preview_annotation\n", "<review_comment>", "\uFFFC", "<review_comment-x",
	} {
		if !hasLegacyTrigger(s) {
			t.Errorf("%q does not trigger", s)
		}
	}
}

// TestUpgradeLegacyAdversarial checks that inputs built to make a naive
// implementation quadratic stay fast.
func TestUpgradeLegacyAdversarial(t *testing.T) {
	const n = 1 << 19
	inputs := map[string]string{
		"unclosed openers":   strings.Repeat(`<review_comment filePath="a" sectionId="s" startIndex="1" endIndex="1">`, n/72),
		"openers one line":   strings.Repeat(rcB+"```x", n/80) + "\n" + rcX,
		"openers and fences": strings.Repeat(rcB+"`````\n", n/80) + strings.Repeat("text\n", 1000) + rcX,
		"fences":             rcB + strings.Repeat("````\n```\n", n/9) + rcX,
		"fences in body":     rcB + strings.Repeat("```\na\n```\n", n/10) + rcX,
		"attribute quotes":   strings.Repeat(`<review_comment a="`, n/19) + rcX,
		"at signs":           strings.Repeat("@x:1:", n/10) + "\n\n<terminal_context>\n" + strings.Repeat("- x:1 line 2:\n", n/28) + "</terminal_context>",
		"bound labels":       strings.Repeat("@x:1:2 ", n/14) + "\n\n<terminal_context>\n" + strings.Repeat("- x:1 line 2:\n", n/28) + "</terminal_context>",
		"nested needles": strings.Repeat("@x:1:", n/10) + "\n\n<terminal_context>\n" +
			func() string {
				var b strings.Builder
				for i := 1; i < 38; i++ {
					b.WriteString("- " + strings.Repeat("x:1:@", i) + "x line 1:\n")
				}
				return b.String()
			}() + "</terminal_context>",
		"placeholders":   strings.Repeat("\uFFFC", n/3),
		"many terminals": "p\n\n<terminal_context>\n" + strings.Repeat("- T line 1:\n  1 | x\n", n/20) + "</terminal_context>",
		"private use":    strings.Repeat("\uE000", n/6) + strings.Repeat(rcB+"x"+rcX, n/200),
		"sigma":          "\n\n<terminal_context>\n- " + strings.Repeat("Σ\u0301", n/8) + " line 1:\n</terminal_context>",
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			done := make(chan struct{})
			go func() {
				defer close(done)
				out, _ := UpgradeLegacy(in)
				UpgradeLegacy(out)
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("took more than 20 s")
			}
		})
	}
}

func benchmarkUpgradeText() string {
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString("Please look at \uFFFC and @terminal-2:40-41, then fix the review below. ")
		b.WriteString(strings.Repeat("Some ordinary prose that explains the problem in detail. ", 20))
		b.WriteString("\n" + rcA + "Rename this\n```diff\n-old\n+new\n```\n" + rcX + "\n\n")
	}
	b.WriteString("<terminal_context>\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "- Terminal %d lines 40-41:\n  40 | $ go test ./...\n  41 | FAIL\n", i)
	}
	b.WriteString("</terminal_context>\n\n<element_context>\n- <PayButton>:\n  url: http://localhost:3000/\n  selector: #pay\n</element_context>")
	return b.String()
}

func BenchmarkUpgrade(b *testing.B) {
	text := benchmarkUpgradeText()
	if _, recs := UpgradeLegacy(text); len(recs) == 0 {
		b.Fatal("benchmark text upgrades to nothing")
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		UpgradeLegacy(text)
	}
}

func BenchmarkUpgradePlain(b *testing.B) {
	text := strings.Repeat("Ordinary prose with <b>tags</b> and no legacy context at all. ", 1<<14)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		UpgradeLegacy(text)
	}
}
