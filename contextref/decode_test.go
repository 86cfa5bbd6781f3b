package contextref

import (
	"errors"
	"strings"
	"testing"
)

const validTerminal = `{"version":1,"contextId":"ctx_t","kind":"terminal","label":"T","terminalId":"t1","terminalLabel":"Terminal 1","lineStart":3,"lineEnd":4,"text":"a\nb"}`

// patch replaces one `"key":value` pair (or appends it) in a JSON object text.
func patch(obj, key, value string) string {
	i := strings.Index(obj, `"`+key+`":`)
	if i < 0 {
		return strings.TrimSuffix(obj, "}") + `,"` + key + `":` + value + "}"
	}
	j := i + len(key) + 3
	depth, inStr := 0, false
	k := j
	for ; k < len(obj); k++ {
		c := obj[k]
		if inStr {
			if c == '\\' {
				k++
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
		} else if c == '{' || c == '[' {
			depth++
		} else if c == '}' || c == ']' {
			if depth == 0 {
				break
			}
			depth--
		} else if c == ',' && depth == 0 {
			break
		}
	}
	if value == "" { // delete the pair
		if obj[k] == ',' {
			k++
		} else if obj[i-1] == ',' {
			i--
		}
		return obj[:i] + obj[k:]
	}
	return obj[:j] + value + obj[k:]
}

func TestDecodeRecordRules(t *testing.T) {
	long := func(n int) string { return `"` + strings.Repeat("x", n) + `"` }
	emoji := func(n int) string { return `"` + strings.Repeat("😀", n) + `"` } // two units each
	cases := []struct {
		name, key, value string
		field, rule      string // empty field: must decode
	}{
		{"ok", "", "", "", ""},
		{"version 2", "version", "2", "version", "must be 1"},
		{"version 1.0 is the number 1", "version", "1.0", "", ""},
		{"no contextId", "contextId", "", "contextId", "is required"},
		{"contextId bad char", "contextId", `"ctx 1"`, "contextId", "must match"},
		{"contextId trimmed", "contextId", `"  ctx_1\u00a0"`, "", ""},
		{"contextId 129", "contextId", long(129), "contextId", "at most 128"},
		{"label 200 units", "label", emoji(100), "", ""},
		{"label 201 units", "label", `"x` + strings.Repeat("😀", 100) + `"`, "label", "at most 200"},
		{"label empty", "label", `""`, "", ""},
		{"label not string", "label", `5`, "label", "must be a string"},
		{"terminalLabel blank", "terminalLabel", `" \u3000 "`, "terminalLabel", "must not be empty"},
		{"lineStart fraction", "lineStart", `1.5`, "lineStart", "safe integer"},
		{"lineStart negative", "lineStart", `-1`, "lineStart", "at least 0"},
		{"lineStart unsafe", "lineStart", `9007199254740992`, "lineStart", "safe integer"},
		{"lineStart exponent", "lineStart", `3e0`, "", ""},
		{"lineStart string", "lineStart", `"3"`, "lineStart", "must be a number"},
		{"lineEnd before start", "lineEnd", `2`, "lineEnd", "at least lineStart"},
		{"text 64000", "text", long(64000), "", ""},
		{"text 64001", "text", long(64001), "text", "at most 64000"},
		{"field names are case-sensitive", "text", "", "text", "is required"},
		{"unknown properties dropped", "extra", `{"a":1}`, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw := validTerminal
			if c.key != "" {
				raw = patch(raw, c.key, c.value)
			}
			if c.name == "field names are case-sensitive" {
				raw = strings.TrimSuffix(raw, "}") + `,"Text":"x"}`
			}
			r, err := DecodeRecord([]byte(raw))
			if c.field == "" {
				if err != nil {
					t.Fatalf("want success, got %v for %s", err, raw)
				}
				if _, ok := r.(*TerminalRecord); !ok {
					t.Fatalf("got %T", r)
				}
				return
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("want a FieldError, got %v for %s", err, raw)
			}
			if fe.Field != c.field || !strings.Contains(fe.Rule, c.rule) {
				t.Fatalf("got %q (field %q rule %q), want field %q rule containing %q", err, fe.Field, fe.Rule, c.field, c.rule)
			}
			if !strings.Contains(err.Error(), c.field) {
				t.Fatalf("error %q does not name the field", err)
			}
		})
	}
}

func TestDecodeRecordTrimsAndDrops(t *testing.T) {
	r, err := DecodeRecord([]byte(patch(patch(validTerminal, "contextId", `" ctx_t\t"`), "terminalId", `"\ufeff t1 "`)))
	if err != nil {
		t.Fatal(err)
	}
	got := string(must(MarshalRecord(r)))
	want := `{"version":1,"contextId":"ctx_t","label":"T","kind":"terminal","terminalId":"t1","terminalLabel":"Terminal 1","lineStart":3,"lineEnd":4,"text":"a\nb"}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestDecodeEveryKind(t *testing.T) {
	cases := map[string]string{
		"image":   `{"version":1,"contextId":"i","kind":"image","label":"a.png","attachmentId":"att_1","name":" a.png ","mimeType":"image/png","sizeBytes":0}`,
		"file":    `{"version":1,"contextId":"f","kind":"file","label":"a.txt","attachmentId":"att_2","name":"a.txt","mimeType":"text/plain","sizeBytes":12}`,
		"element": `{"version":1,"contextId":"e","kind":"element","label":"<b>","pageUrl":"http://x/","pageTitle":null,"tagName":"b","selector":null,"htmlPreview":"","componentName":null,"source":{"functionName":null,"fileName":"a.tsx","lineNumber":1,"columnNumber":null},"styles":""}`,
		"preview-annotation": `{"version":1,"contextId":"p","kind":"preview-annotation","label":"P","annotationId":"ann","pageUrl":"http://x/","pageTitle":"T","comment":"c","targetSummary":"t","styleChanges":[],` +
			`"elementIds":["a"],"regionCount":1,"strokeCount":2,"styleChangeDetails":[{"targetId":"a","selector":null,"property":"color","previousValue":"red","value":"blue"}],"screenshotContextId":"shot"}`,
		"review-comment": `{"version":1,"contextId":"r","kind":"review-comment","label":"R","sectionId":"s","sectionTitle":"","filePath":"a.go","startIndex":1,"endIndex":1,"rangeLabel":"L1","text":"","diff":"",` +
			`"pullRequest":{"number":7,"title":"t","url":"u","headBranch":"h","baseBranch":"b","state":"merged","isDraft":true}}`,
		"mention": `{"version":1,"contextId":"m","kind":"mention","label":"a.go","path":"src/a.go"}`,
		"skill":   `{"version":1,"contextId":"s","kind":"skill","label":"$x","name":"x"}`,
		"future":  `{"version":1,"contextId":"u","kind":"future-thing","label":"F","payload":null}`,
	}
	for kind, raw := range cases {
		r, err := DecodeRecord([]byte(raw))
		if err != nil {
			t.Errorf("%s: %v", kind, err)
			continue
		}
		if r.RecordBase().Kind != kind && !(kind == "future" && r.RecordBase().Kind == "future-thing") {
			t.Errorf("%s: decoded kind %q", kind, r.RecordBase().Kind)
		}
	}
	bad := map[string][2]string{
		"element source null required": {patch(cases["element"], "source", ""), "source"},
		"element source line fraction": {patch(cases["element"], "source", `{"functionName":null,"fileName":null,"lineNumber":1.5,"columnNumber":null}`), "source.lineNumber"},
		"preview 51 elementIds":        {patch(cases["preview-annotation"], "elementIds", `[`+strings.Repeat(`"a",`, 50)+`"a"]`), "elementIds"},
		"preview optional null":        {patch(cases["preview-annotation"], "regionCount", `null`), "regionCount"},
		"preview screenshot id":        {patch(cases["preview-annotation"], "screenshotContextId", `"a b"`), "screenshotContextId"},
		"preview detail property":      {patch(cases["preview-annotation"], "styleChangeDetails", `[{"targetId":"a","selector":null,"previousValue":"","value":""}]`), "styleChangeDetails[0].property"},
		"review bad state":             {patch(cases["review-comment"], "pullRequest", `{"number":7,"title":"t","url":"u","headBranch":"h","baseBranch":"b","state":"draft","isDraft":true}`), "pullRequest.state"},
		"review PR number 0":           {patch(cases["review-comment"], "pullRequest", `{"number":0,"title":"t","url":"u","headBranch":"h","baseBranch":"b","state":"open","isDraft":true}`), "pullRequest.number"},
		"review end before start":      {patch(cases["review-comment"], "endIndex", `0`), "endIndex"},
		"review fenceLanguage 65":      {patch(cases["review-comment"], "fenceLanguage", `"`+strings.Repeat("x", 65)+`"`), "fenceLanguage"},
		"image mime 101":               {patch(cases["image"], "mimeType", `"`+strings.Repeat("x", 101)+`"`), "mimeType"},
		"image attachment id":          {patch(cases["image"], "attachmentId", `"a/b"`), "attachmentId"},
		"mention blank path":           {patch(cases["mention"], "path", `"  "`), "path"},
		"unknown without payload":      {patch(cases["future"], "payload", ""), "payload"},
		"unknown kind pattern":         {patch(cases["future"], "kind", `"Future"`), "kind"},
		"known kind padded":            {patch(cases["skill"], "kind", `" skill "`), "kind"},
		"unknown payload too long":     {patch(cases["future"], "payload", `"`+strings.Repeat("x", 63999)+`"`), "payload"},
		"skill missing kind":           {patch(cases["skill"], "kind", ""), "kind"},
	}
	for name, c := range bad {
		_, err := DecodeRecord([]byte(c[0]))
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c[1] {
			t.Errorf("%s: want an error on %q, got %v", name, c[1], err)
		}
	}
	// A known kind with broken fields never falls through to unknown.
	if _, err := DecodeRecord([]byte(patch(cases["skill"], "name", `""`))); err == nil {
		t.Error("a skill with an empty name decoded")
	}
}

func TestUnknownPayloadKeptAsIs(t *testing.T) {
	raw := `{"version":1,"contextId":"u","kind":"future","label":"F","payload":{"b":1.50,"a":"<&>","1":[true,null]}}`
	r, err := DecodeRecord([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	got := string(must(MarshalRecord(r)))
	want := `{"version":1,"contextId":"u","label":"F","kind":"future","payload":{"b":1.50,"a":"<&>","1":[true,null]}}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestDecodeContextLimits(t *testing.T) {
	rec := `{"version":1,"contextId":"c%d","kind":"skill","label":"","name":"x"}`
	build := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = strings.Replace(rec, "%d", strings.Repeat("1", i+1), 1)
		}
		return `{"version":1,"records":[` + strings.Join(parts, ",") + `]}`
	}
	if ctx, _, err := DecodeContext([]byte(build(100))); err != nil || len(ctx.Records) != 100 {
		t.Fatalf("100 records: %v", err)
	}
	if _, _, err := DecodeContext([]byte(`{"version":1,"records":[` + strings.Repeat("1,", 200) + `1]}`)); !errors.Is(err, ErrContext) {
		t.Fatalf("201 raw elements must fail the whole context, got %v", err)
	}
	big := `{"version":1,"records":[{"version":1,"contextId":"u","kind":"future","label":"","payload":"` + strings.Repeat("x", MaxContextJSONLen) + `"}]}`
	if _, _, err := DecodeContext([]byte(big)); !errors.Is(err, ErrContext) {
		t.Fatalf("records over 16,000,000 characters must fail, got %v", err)
	}
	ctx, dropped, err := DecodeContext([]byte(`{"version":1,"records":[1,{"kind":"skill"},` + strings.Replace(rec, "%d", "1", 1) + `]}`))
	if err != nil || len(ctx.Records) != 1 || len(dropped) != 2 {
		t.Fatalf("bad records are dropped one by one: %v %d %v", err, len(dropped), dropped)
	}
	for _, bad := range []string{`[]`, `{"records":[]}`, `{"version":1}`, `{"version":1,"records":{}}`, `nope`} {
		if _, _, err := DecodeContext([]byte(bad)); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

func TestJSStringify(t *testing.T) {
	cases := map[string]string{
		`{"b":1,"a":2,"1":3,"0":4,"01":5,"4294967295":6,"4294967294":7,"-1":8}`: `{"0":4,"1":3,"4294967294":7,"b":1,"a":2,"01":5,"4294967295":6,"-1":8}`,
		`{"a":1,"b":2,"a":3}`: `{"a":3,"b":2}`,
		`[1.50, 1e21, 1e-7, -0, 0.1, 1E400, 123e-20, 100, 1e20]`: `[1.5,1e+21,1e-7,0,0.1,null,1.23e-18,100,100000000000000000000]`,
		`"\u003c\/\u2028\ud83d\ude00\ud800\u0001\u007f"`:         "\"</\u2028😀\\ud800\\u0001\u007f\"",
		` { "x" : [ ] , "y" : { } } `:                            `{"x":[],"y":{}}`,
		`0.000001`:                                               `0.000001`,
		`1.5e300`:                                                `1.5e+300`,
		`5e-324`:                                                 `5e-324`,
		`-12.75`:                                                 `-12.75`,
	}
	for in, want := range cases {
		got, err := JSStringify([]byte(in))
		if err != nil || got != want {
			t.Errorf("JSStringify(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	if _, err := JSStringify([]byte(`{"a":}`)); err == nil {
		t.Error("invalid JSON accepted")
	}
}

func TestToContextIDMintsValidIDs(t *testing.T) {
	for _, in := range []string{"", " ", "a b", strings.Repeat("é", 200), "ctx_ok", strings.Repeat("x", 129), "😀"} {
		if id := ToContextID(in); !IsContextID(id) {
			t.Errorf("ToContextID(%q) = %q is not a context id", in, id)
		}
	}
	if ToContextID("a b") == ToContextID("a:b") {
		t.Error("different producer ids share a context id")
	}
}

// Numbers in exponent form grow when JavaScript writes them out: a
// records array of 4 MB of 9e20 values encodes to about 21 MB and fails
// the 16,000,000-character limit, as it does in T3 Code.
func TestContextLimitCountsJavaScriptEncoding(t *testing.T) {
	n := 1_000_000
	raw := `{"version":1,"records":[` + strings.Repeat(`[9e20,`, 1) + strings.Repeat(`9e20,`, n-1) + `9e20]]}`
	if _, _, err := DecodeContext([]byte(raw)); !errors.Is(err, ErrContext) || !strings.Contains(err.Error(), "16000000") {
		t.Fatalf("want the length limit, got %v", err)
	}
}
