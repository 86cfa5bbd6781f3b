package contextref_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chipchat/chipchat/contextref"
)

// TestJSDifferential runs the JavaScript-defined parts of the wire contract
// (DESIGN.md section 3) through node, with testdata/jsref.js as the
// reference written from the contract's text, and compares every result
// with the Go implementation: the occurrence scan, label sanitizing,
// ToContextID, JSON.stringify(JSON.parse(raw)), trim, UTF-16 length and the
// URI component codecs. Inputs are generated from a fixed seed, so a failure
// is reproducible.
func TestJSDifferential(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		// contextref imports nothing of the project, tests included, so
		// this is internal/testenv's rule written out: fail in CI.
		if os.Getenv("CI") != "" {
			t.Fatal("CI: node is not on PATH: the JavaScript reference cannot run")
		}
		t.Skip("node is not on PATH: the JavaScript reference cannot run")
	}

	var cases []jsCase
	// The reference itself is checked against the shared vectors first.
	vecCases, vecWant := vectorCases(t)
	cases = append(cases, vecCases...)

	r := rand.New(rand.NewPCG(20240601, 7))
	const perOp = 3000
	for _, s := range fixedScanTexts() {
		cases = append(cases, jsCase{Op: "scan", S: s})
	}
	for range 2 * perOp {
		cases = append(cases, jsCase{Op: "scan", S: genScanText(r)})
	}
	cases = append(cases, fixedLabels()...)
	for range perOp {
		cases = append(cases, jsCase{Op: "label", S: genLabel(r), Kind: pick(r, []string{"file", "image", "terminal", "k", ""})})
	}
	for _, s := range fixedContextIDs() {
		cases = append(cases, jsCase{Op: "contextId", S: s})
	}
	for range perOp {
		cases = append(cases, jsCase{Op: "contextId", S: genContextID(r)})
	}
	for _, raw := range fixedJSON() {
		cases = append(cases, jsCase{Op: "stringify", Raw: raw})
	}
	for range perOp {
		cases = append(cases, jsCase{Op: "stringify", Raw: genJSONText(r)})
	}
	for _, op := range []string{"trim", "utf16len"} {
		for range perOp {
			cases = append(cases, jsCase{Op: op, S: genFrom(r, spacePieces, 0, 12)})
		}
	}
	for range perOp {
		cases = append(cases, jsCase{Op: "encodeURIComponent", S: genURIText(r)})
	}
	for _, s := range fixedPercent() {
		cases = append(cases, jsCase{Op: "decodeURIComponent", S: s})
	}
	for range perOp {
		cases = append(cases, jsCase{Op: "decodeURIComponent", S: genPercent(r)})
	}
	// Round trips: whatever Go encodes, JavaScript must decode alike.
	for range perOp / 3 {
		cases = append(cases, jsCase{Op: "decodeURIComponent", S: contextref.EncodeURIComponent(genURIText(r))})
	}

	// Assistant citations (DESIGN.md 3.8): parsing with the platform's
	// WHATWG URL parser, writing, and the provider expansion.
	for _, h := range fixedCitationHrefs() {
		cases = append(cases, jsCase{Op: "citationParse", S: h})
	}
	for range 2 * perOp {
		cases = append(cases, jsCase{Op: "citationParse", S: genCitationHref(r)})
	}
	for range perOp {
		c := genCitation(r)
		raw, _ := json.Marshal(c)
		cases = append(cases, jsCase{Op: "citationFormat", Raw: string(raw)})
	}
	for range perOp {
		cases = append(cases, jsCase{Op: "expand", S: genCitationText(r)})
	}
	valid := "t3-citation://v1/e/t/m?text=q&start=0&end=1&prefix=&suffix="
	emoji := "t3-citation://v1/" + strings.Repeat("😀", 79991)
	for _, s := range []string{
		"[Assistant quote](" + emoji + "a) [Assistant quote](" + valid + ")",
		"[Assistant quote](" + emoji + "ab) [Assistant quote](" + valid + ")",
		"[Assistant quote](" + emoji + "😀) [Assistant quote](" + valid + ")",
		"[Assistant quote](" + valid + "&x=" + strings.Repeat("a", 159983-len(valid)+17-3) + ") [Assistant quote](" + valid + ")",
		"[Assistant quote](t3-citation://v1/bad(x)[Assistant quote](" + valid + ")![Assistant quote](" + valid + ")",
	} {
		cases = append(cases, jsCase{Op: "expand", S: s})
	}

	// The legacy upgrade (DESIGN.md 3.6): the shared vectors, fixed inputs
	// and generated ones, through the reference written from the precise
	// rules.
	for _, in := range fixedLegacyInputs() {
		cases = append(cases, jsCase{Op: "upgrade", S: in})
	}
	for range 3 * perOp {
		cases = append(cases, jsCase{Op: "upgrade", S: genLegacyText(r)})
	}

	for i, c := range cases {
		if !utf8.ValidString(c.S) || !utf8.ValidString(c.Kind) || !utf8.ValidString(c.Raw) {
			t.Fatalf("generator bug: case %d (%s) is not valid UTF-8: %q", i, c.Op, c)
		}
	}

	started := time.Now()
	results := runNode(t, node, cases)
	t.Logf("%d cases through node in %v", len(cases), time.Since(started).Round(time.Millisecond))

	// The reference must agree with the shared conformance vectors, or
	// nothing below means anything.
	for i, want := range vecWant {
		got := results[i]
		if got.Err != nil || !jsonValueEqual(got.V, want) {
			t.Fatalf("jsref.js disagrees with testdata/vectors.json on %s %q: got %s (err %v), want %s",
				cases[i].Op, cases[i].S, got.V, derefOr(got.Err), want)
		}
	}

	const maxReports = 6
	mismatches := map[string]int{}
	counts := map[string]int{}
	// What the reference saw, so a generator that stops reaching the
	// interesting paths shows in -v output.
	var withOcc, occs, jsThrows, validCitations, expanded, upgradedTexts int
	for i := len(vecWant); i < len(cases); i++ {
		c := cases[i]
		counts[c.Op]++
		if res := results[i]; res.Err != nil {
			jsThrows++
		} else if c.Op == "scan" && string(res.V) != "[]" {
			withOcc++
			occs += strings.Count(string(res.V), `"contextId"`)
		} else if c.Op == "citationParse" && string(res.V) != "null" {
			validCitations++
		} else if c.Op == "expand" && strings.Contains(string(res.V), "assistant_citations>") {
			expanded++
		} else if c.Op == "upgrade" && !strings.HasSuffix(string(res.V), `"records":[]}`) {
			upgradedTexts++
		}
		goOut, jsOut, same := compareCase(t, c, results[i])
		if same {
			continue
		}
		mismatches[c.Op]++
		if mismatches[c.Op] <= maxReports {
			t.Errorf("%s mismatch\n  input: %s\n  go:    %q\n  js:    %q", c.Op, c.describe(), goOut, jsOut)
		}
	}
	t.Logf("cases per op: %v; scan texts with occurrences: %d (%d occurrences); valid citation hrefs: %d; expanded texts: %d; upgrades with records: %d; reference exceptions (stringify/decode failures): %d",
		counts, withOcc, occs, validCitations, expanded, upgradedTexts, jsThrows)
	for op, n := range mismatches {
		t.Errorf("%s: %d of %d cases differ from JavaScript", op, n, counts[op])
	}
}

// jsCase is one input for testdata/jsref.js.
type jsCase struct {
	Op   string `json:"op"`
	S    string `json:"s"`
	Kind string `json:"kind"`
	Raw  string `json:"raw"`
}

func (c jsCase) describe() string {
	switch c.Op {
	case "label":
		return fmt.Sprintf("label=%q kind=%q", c.S, c.Kind)
	case "stringify":
		return fmt.Sprintf("raw=%q", c.Raw)
	}
	return fmt.Sprintf("%q", c.S)
}

// jsResult is the reference's answer: a value, or the exception it threw.
type jsResult struct {
	V   json.RawMessage `json:"v"`
	Err *string         `json:"err"`
}

func runNode(t *testing.T, node string, cases []jsCase) []jsResult {
	t.Helper()
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "testdata/jsref.js")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/jsref.js: %v\n%s", err, stderr.Bytes())
	}
	var results []jsResult
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("decoding the reference's output: %v", err)
	}
	if len(results) != len(cases) {
		t.Fatalf("reference returned %d results for %d cases", len(results), len(cases))
	}
	return results
}

func derefOr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func jsonValueEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// compareCase runs c in Go and compares with the reference's result; it
// returns both sides as printable text.
func compareCase(t *testing.T, c jsCase, res jsResult) (goOut, jsOut string, same bool) {
	t.Helper()
	jsStr := func() (string, bool) {
		if res.Err != nil {
			return "throws " + *res.Err, false
		}
		var s string
		if err := json.Unmarshal(res.V, &s); err != nil {
			return "bad result " + string(res.V), false
		}
		return s, true
	}
	switch c.Op {
	case "scan":
		got := contextref.Scan(c.S)
		if got == nil {
			got = []contextref.Occurrence{}
		}
		goOut = fmt.Sprintf("%+v", got)
		if res.Err != nil {
			return goOut, "throws " + *res.Err, false
		}
		var want []contextref.Occurrence
		if err := json.Unmarshal(res.V, &want); err != nil {
			return goOut, "bad result " + string(res.V), false
		}
		if want == nil {
			want = []contextref.Occurrence{}
		}
		return goOut, fmt.Sprintf("%+v", want), reflect.DeepEqual(got, want)
	case "label":
		js, ok := jsStr()
		g := contextref.SanitizeLabel(c.S, c.Kind)
		return g, js, ok && g == js
	case "contextId":
		js, ok := jsStr()
		g := contextref.ToContextID(c.S)
		return g, js, ok && g == js
	case "trim":
		js, ok := jsStr()
		g := contextref.TrimJS(c.S)
		return g, js, ok && g == js
	case "encodeURIComponent":
		js, ok := jsStr()
		g := contextref.EncodeURIComponent(c.S)
		return g, js, ok && g == js
	case "utf16len":
		g := contextref.UTF16Len(c.S)
		if res.Err != nil {
			return strconv.Itoa(g), "throws " + *res.Err, false
		}
		return strconv.Itoa(g), string(res.V), strconv.Itoa(g) == string(res.V)
	case "stringify":
		g, err := contextref.JSStringify([]byte(c.Raw))
		if err != nil {
			g = "error: " + err.Error()
		}
		js, ok := jsStr()
		if !ok && res.Err != nil {
			return g, js, err != nil && strings.HasPrefix(*res.Err, "SyntaxError")
		}
		return g, js, ok && err == nil && g == js
	case "decodeURIComponent":
		g, gok := contextref.DecodeURIComponent(c.S)
		if !gok {
			g = "fails"
		}
		js, ok := jsStr()
		if !ok && res.Err != nil {
			return g, js, !gok && strings.HasPrefix(*res.Err, "URIError")
		}
		return g, js, ok && gok && g == js
	case "upgrade":
		text, recs := contextref.UpgradeLegacy(c.S)
		raws := make([]json.RawMessage, 0, len(recs))
		for _, r := range recs {
			b, err := contextref.MarshalRecord(r)
			if err != nil {
				t.Fatal(err)
			}
			raws = append(raws, b)
		}
		g, _ := json.Marshal(struct {
			Text    string            `json:"text"`
			Records []json.RawMessage `json:"records"`
		}{text, raws})
		if res.Err != nil {
			return string(g), "throws " + *res.Err, false
		}
		return string(g), string(res.V), jsonValueEqual(g, res.V)
	case "citationParse":
		g, err := contextref.ParseCitationHref(c.S)
		goOut = "fails"
		if err == nil {
			b, _ := contextref.MarshalCitation(g)
			goOut = string(b)
		}
		if res.Err != nil {
			return goOut, "throws " + *res.Err, false
		}
		if string(res.V) == "null" {
			return goOut, "fails", err != nil
		}
		return goOut, string(res.V), err == nil && string(res.V) == goOut
	case "citationFormat":
		var cit contextref.Citation
		if err := json.Unmarshal([]byte(c.Raw), &cit); err != nil {
			t.Fatal(err)
		}
		js, ok := jsStr()
		g := cit.Href()
		return g, js, ok && g == js
	case "expand":
		js, ok := jsStr()
		g := contextref.ExpandCitations(c.S)
		return g, js, ok && g == js
	}
	t.Fatalf("unknown op %q", c.Op)
	return "", "", false
}

// vectorCases turns the shared vectors' contextId, label and parse sections
// into cases, with the expected JSON value of each.
func vectorCases(t *testing.T) ([]jsCase, []json.RawMessage) {
	t.Helper()
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		ContextID []struct {
			Input  string          `json:"input"`
			Output json.RawMessage `json:"output"`
		} `json:"contextId"`
		Label []struct {
			Label  string          `json:"label"`
			Kind   string          `json:"kind"`
			Output json.RawMessage `json:"output"`
		} `json:"label"`
		Parse []struct {
			Text   string          `json:"text"`
			Output json.RawMessage `json:"output"`
		} `json:"parse"`
		Upgrade []struct {
			Text   string          `json:"text"`
			Output json.RawMessage `json:"output"`
		} `json:"upgrade"`
		CitationParse []struct {
			Href   string          `json:"href"`
			Output json.RawMessage `json:"output"`
		} `json:"citationParse"`
		Expand []struct {
			Text   string          `json:"text"`
			Output json.RawMessage `json:"output"`
		} `json:"expand"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var cases []jsCase
	var want []json.RawMessage
	for _, x := range v.ContextID {
		cases = append(cases, jsCase{Op: "contextId", S: x.Input})
		want = append(want, x.Output)
	}
	for _, x := range v.Label {
		cases = append(cases, jsCase{Op: "label", S: x.Label, Kind: x.Kind})
		want = append(want, x.Output)
	}
	for _, x := range v.Parse {
		cases = append(cases, jsCase{Op: "scan", S: x.Text})
		want = append(want, x.Output)
	}
	for _, x := range v.Upgrade {
		cases = append(cases, jsCase{Op: "upgrade", S: x.Text})
		want = append(want, x.Output)
	}
	for _, x := range v.CitationParse {
		cases = append(cases, jsCase{Op: "citationParse", S: x.Href})
		want = append(want, x.Output)
	}
	for _, x := range v.Expand {
		cases = append(cases, jsCase{Op: "expand", S: x.Text})
		want = append(want, x.Output)
	}
	return cases, want
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// genFrom concatenates min..max random pieces.
func genFrom(r *rand.Rand, pieces []string, min, max int) string {
	var b strings.Builder
	n := min + r.IntN(max-min+1)
	for range n {
		b.WriteString(pick(r, pieces))
	}
	return b.String()
}

// near returns a length within a few units of one of the limits.
func near(r *rand.Rand, limits ...int) int {
	n := pick(r, limits) + r.IntN(9) - 4
	if n < 0 {
		n = 0
	}
	return n
}

// run returns about n UTF-16 units of text made mostly of x, sometimes with
// surrogate pairs (one or many) placed so they straddle the limit.
func run(r *rand.Rand, n int) string {
	switch r.IntN(4) {
	case 0:
		return strings.Repeat("x", n)
	case 1: // x…x then one pair at the very end
		if n < 2 {
			return "😀"
		}
		return strings.Repeat("x", n-2) + "😀"
	case 2: // pairs only
		return strings.Repeat("😀", (n+1)/2)
	default: // odd offset: x then pairs
		return "x" + strings.Repeat("😀", n/2)
	}
}

var scanPieces = []string{
	"[", "]", "![", "(", ")", "](t3-context://v1/", "t3-context://v1/", "image/", "file/",
	"ctx_1", "/x", "\n", " ", "\t", "\u00a0", "\ufeff", "é", "😀", "!", "a",
	"\r", "\\", "?q=1", "#f", "\u212a", "ſ", "A", "-", "_", "/", "](t3-context:",
	"t3-context://v2/", "\u2028", "\u3000", "\u200b", "\u0085", "))", "[[", "]]", "!!",
	"[x](t3-context://v1/file/y)", "![img](t3-context://v1/image/ctx_1)",
	"](t3-context://v1/file/ctx_1)", "](t3-context://v1/image/ctx_1)",
	"\u180e", "\u1680", "\u2029", "\u205f", "\v", "\f", "\u2000", "\u200a",
}

var kindPieces = []string{
	"image", "file", "terminal", "review-comment", "k", "a-", "x9", "Image", "9a", "-a", "",
	"a_b", "é", "image/", strings.Repeat("k", 40), strings.Repeat("k", 41), "a" + strings.Repeat("-", 39),
}

var idPieces = []string{
	"ctx_1", "a", "A", "ctx-1", "_", "-", "", "ctx 1", "ctx_1?x=1", "ctx_1#f", "ctx/1", "\u212a",
	"ſ", "é", "😀", "ctx.1", strings.Repeat("z", 128), strings.Repeat("Z", 129), strings.Repeat("1", 127) + "_",
}

// genLink builds a reference-like link with lengths near the pattern's
// bounds and kinds and ids that may or may not parse.
func genLink(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(2) == 0 {
		b.WriteString("!")
	}
	b.WriteString("[")
	switch r.IntN(4) {
	case 0:
		b.WriteString(run(r, near(r, 0, 1, 200, 512)))
	case 1:
		b.WriteString(genFrom(r, scanPieces, 0, 5))
	case 2:
		b.WriteString(genFrom(r, scanPieces, 0, 2) + run(r, near(r, 200, 512)) + genFrom(r, scanPieces, 0, 2))
	default:
		b.WriteString(genFrom(r, []string{"a", " ", "é", "😀", "[", "\t", "\\", "\r"}, 0, 8))
	}
	b.WriteString("](")
	b.WriteString(pick(r, []string{"t3-context://v1/", "t3-context://v1/", "t3-context://v1/", "t3-context://v2/", "t3-context:/v1/", "t3-context://V1/"}))
	switch r.IntN(3) {
	case 0: // href rest near 200 units
		kind := pick(r, []string{"file", "k", strings.Repeat("k", 40)})
		rest := near(r, 200) - len(kind) - 1
		if rest < 0 {
			rest = 0
		}
		id := strings.Repeat("i", rest)
		if r.IntN(3) == 0 && rest >= 2 {
			id = id[:rest-2] + pick(r, []string{"😀", "é", " ", "\u00a0", ")", "/x"})
		}
		b.WriteString(kind + "/" + id)
	default:
		b.WriteString(pick(r, kindPieces))
		if r.IntN(8) != 0 {
			b.WriteString("/")
		}
		b.WriteString(pick(r, idPieces))
		if r.IntN(8) == 0 {
			b.WriteString(pick(r, []string{"/x", "/", "?", "#", " ", "\n", "\u3000"}))
		}
	}
	if r.IntN(10) != 0 {
		b.WriteString(")")
	}
	return b.String()
}

func genScanText(r *rand.Rand) string {
	var b strings.Builder
	n := 1 + r.IntN(6)
	for range n {
		switch r.IntN(5) {
		case 0, 1:
			b.WriteString(genFrom(r, scanPieces, 0, 8))
		case 2, 3:
			b.WriteString(genLink(r))
		default:
			b.WriteString(run(r, near(r, 200, 512)))
		}
	}
	return b.String()
}

func fixedScanTexts() []string {
	x := strings.Repeat("x", 512)
	return []string{
		"",
		"](t3-context:",
		"[a](t3-context://v1/file/b)",
		"![a](t3-context://v1/image/b)",
		"!![a](t3-context://v1/image/b)",
		"![[a](t3-context://v1/image/b)",
		"[" + x + "](t3-context://v1/file/b)",
		"[" + x + "x](t3-context://v1/file/b)",
		"[[" + x + "](t3-context://v1/file/b)",
		"[" + x[:510] + "😀](t3-context://v1/file/b)",
		"[" + x[:511] + "😀](t3-context://v1/file/b)",
		"[a](t3-context://v1/file/" + strings.Repeat("b", 195) + ")",
		"[a](t3-context://v1/file/" + strings.Repeat("b", 196) + ")",
		"[a](t3-context://v1/file/" + strings.Repeat("b", 194) + "😀)",
		"[a](t3-context://v1/file/" + strings.Repeat("b", 193) + "😀)",
		"[a](t3-context://v1/file/b)[c](t3-context://v1/file/d)",
		"[a](t3-context://v1/file/b/c)[c](t3-context://v1/file/d)",
		"[a\n[b](t3-context://v1/file/c)",
		"[a\r[b](t3-context://v1/file/c)",
		"[a](t3-context://v1/file/b\u00a0)",
		"[a](t3-context://v1/file/b\ufeff)",
		"[a](t3-context://v1/file/\u212a)",
		"[a](t3-context://v1/file/ſ)",
		"[a](t3-context://v1/Kind/b)",
		"[a](t3-context://v1/" + strings.Repeat("k", 40) + "/b)",
		"[a](t3-context://v1/" + strings.Repeat("k", 41) + "/b)",
		"[a](t3-context://v1/k/" + strings.Repeat("i", 128) + ")",
		"[a](t3-context://v1/k/" + strings.Repeat("i", 129) + ")",
		"é[😀](t3-context://v1/file/b) ![é](t3-context://v1/image/c)",
		"[a](t3-context://v1/file/b)![c](t3-context://v1/image/d)",
		"[a](t3-context://v1/x/y/z)![c](t3-context://v1/image/d)",
		"[a](t3-context://v1/file/b ![c](t3-context://v1/image/d)",
		"[a](t3-context://v1/file/b![c](t3-context://v1/image/d)",
		"[a](t3-context://v1/file/b\u180e)",
		"[a](t3-context://v1/file/b\u0085)",
	}
}

var labelPieces = []string{
	"[", "]", "\\", "\r", "\n", " ", "\t", "\v", "\f", "\u00a0", "\u1680", "\u2000", "\u200a",
	"\u200b", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff", "\u0085", "\u180e",
	"\u001c", "a", "é", "😀", "b c", "  ", "\u2060",
}

func genLabel(r *rand.Rand) string {
	switch r.IntN(3) {
	case 0:
		return genFrom(r, labelPieces, 0, 10)
	case 1:
		return genFrom(r, labelPieces, 0, 3) + run(r, near(r, 200, 199, 201)) + genFrom(r, labelPieces, 0, 3)
	default:
		// A prefix that folds or trims away, then text across the cut.
		return genFrom(r, labelPieces, 0, 4) + strings.Repeat(pick(r, []string{"a ", "a  ", "é", "a\t"}), near(r, 100, 66, 200)) + genFrom(r, labelPieces, 0, 4) + "😀"
	}
}

func fixedLabels() []jsCase {
	x := strings.Repeat("x", 199)
	return []jsCase{
		{Op: "label", S: x + "😀", Kind: "file"},
		{Op: "label", S: x + "é😀", Kind: "file"},
		{Op: "label", S: " " + x + "😀", Kind: "file"},
		{Op: "label", S: x + " 😀", Kind: "file"},
		{Op: "label", S: "\ufeff\u3000", Kind: "image"},
		{Op: "label", S: "\u0085a\u0085", Kind: "image"},
		{Op: "label", S: "\u180ea\u200b", Kind: "image"},
		{Op: "label", S: "[]\\\r\n", Kind: ""},
	}
}

var idAlphabet = []string{
	"a", "z", "A", "Z", "0", "9", "_", "-", "--", " ", ":", "::", "/", ".", "é", "😀", "\u212a",
	"ſ", "\u0130", "\t", "\x00", "\u00a0", "ctx", "abc_DEF-123",
}

func genContextID(r *rand.Rand) string {
	switch r.IntN(5) {
	case 0:
		return genFrom(r, idAlphabet, 0, 8)
	case 1:
		return genFrom(r, idAlphabet, 20, 80)
	case 2: // valid ids around the 128 bound
		n := near(r, 128)
		if n == 0 {
			n = 1
		}
		return strings.Repeat(pick(r, []string{"a", "Z", "_", "-", "9"}), n)
	case 3: // slugs around the 48 cut, with '-' runs at the cut
		return pick(r, []string{"", "-", " ", "😀"}) + strings.Repeat("a", near(r, 47, 48)) + pick(r, []string{"-", " ", "--b", "é", "😀", ":", ""}) + genFrom(r, idAlphabet, 0, 3)
	default:
		return genFrom(r, idAlphabet, 0, 3) + strings.Repeat("😀", near(r, 24, 64))
	}
}

func fixedContextIDs() []string {
	return []string{
		"", "::", "a", "-", "--", "ctx", "a b", "\u212a", "ſ", "😀", "\x00",
		strings.Repeat("a", 128), strings.Repeat("a", 129), strings.Repeat("é", 64),
		"-" + strings.Repeat("b", 48) + "-", strings.Repeat("b", 47) + " c",
		"annotation-ann 1",
	}
}

var spacePieces = []string{
	" ", "\t", "\n", "\v", "\f", "\r", "\u00a0", "\u1680", "\u2000", "\u2005", "\u200a", "\u2028",
	"\u2029", "\u202f", "\u205f", "\u3000", "\ufeff", "\u0085", "\u180e", "\u200b", "\u200c",
	"\u2060", "\u001c", "\u001f", "\ufffe", "a", "é", "😀", "\U0010ffff", "\x00",
}

func genURIText(r *rand.Rand) string {
	var b strings.Builder
	n := r.IntN(16)
	for range n {
		switch r.IntN(4) {
		case 0, 1:
			b.WriteByte(byte(r.IntN(0x80)))
		case 2:
			b.WriteString(pick(r, []string{"é", "😀", "\u2028", "\uffff", "\u0800", "\u07ff", "\U0010ffff", "\u0080", "%", "%41", "+", " "}))
		default:
			c := rune(r.IntN(0x110000))
			if !utf8.ValidRune(c) {
				c = 'q'
			}
			b.WriteRune(c)
		}
	}
	return b.String()
}

var percentPieces = []string{
	"%", "%2", "%25", "%41", "%4g", "%g4", "%C3%A9", "%c3%a9", "%C3", "%A9", "%E2%82%AC",
	"%E2%82", "%F0%9F%98%80", "%F0%9F%98", "%ED%A0%80", "%ED%9F%BF", "%C0%80", "%C1%BF",
	"%E0%80%80", "%E0%A0%80", "%F0%80%80%80", "%F4%8F%BF%BF", "%F4%90%80%80", "%F8%80%80%80%80",
	"%FF", "%80", "%EF%BF%BF", "%EF%BB%BF", "a", "é", "😀", "%20", "+", "%2B", "%00", "%7F",
	"%C3%", "%C3a", "%%", "%E2%82%", "%e2%82%ac",
}

func genPercent(r *rand.Rand) string {
	var b strings.Builder
	n := r.IntN(8)
	for range n {
		switch r.IntN(3) {
		case 0, 1:
			b.WriteString(pick(r, percentPieces))
		default:
			fmt.Fprintf(&b, pick(r, []string{"%%%02X", "%%%02x"}), r.IntN(256))
		}
	}
	return b.String()
}

func fixedPercent() []string {
	return []string{"", "%", "%4", "%41", "abc", "%E2%82%AC", "%ED%A0%80", "%F4%90%80%80", "é%A9"}
}

// JSON generation for stringify.

var jsonKeys = []string{
	`0`, `1`, `2`, `10`, `01`, `00`, `4294967294`, `4294967295`, `4294967296`, `-1`, `1.0`,
	`a`, `b`, `__proto__`, `constructor`, `\u0030`, `\u0031`, ` 1`, `1 `, `+1`, `1e3`,
	`9007199254740993`, ``, `\ud800`, `é`, `\u00e9`, `\/`, `/`, `999999999999`, `42`,
}

var jsonNumbers = []string{
	"0", "-0", "1.50", "1e21", "1e20", "1E21", "1e-7", "1e-6", "123e-20", "0.1", "1E400",
	"-1E400", "5e-324", "2e-324", "1e-400", "-1e-400", "1.7976931348623157e308", "1.7976931348623159e308",
	"123456789012345678901234567890", "9007199254740993", "-9007199254740993", "0.000001",
	"0.0000001", "100", "1e2", "1.0e+2", "12345678901234567890", "123456789012345678901",
	"1234567890123456789012", "0e10", "-0.0", "0.30000000000000004", "4.35", "1.005", "2.5e-5",
	"1e+0", "-1E-0", "9.999999999999999e22", "1e23", "5e-7", "25e-8",
	// Exact and just-off halfway points between neighbouring doubles.
	"0.1000000000000000055511151231257827021181583404541015625",
	"9007199254740993.0000000000000000000000000000000000000001",
	"9007199254740992.9999999999999999999999999999999999999999",
	"2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
	"1" + strings.Repeat("0", 400), "0." + strings.Repeat("0", 400) + "1",
}

var jsonStringPieces = []string{
	"a", `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00`, `\ud83d`, `\u2028`, `\u2029`, "\u2028",
	`\u0000`, `\u001f`, `\u007f`, `\b`, `\f`, `\n`, `\r`, `\t`, `\/`, `\\`, `\"`, "é", "😀",
	"<", ">", "&", `\u003c`, `\uD83D\uDE00`, `\ud83d\u0041`, `\ud83d\ud83d\ude00`, "\x7f",
	`\u0061`, `\uFFFF`, `\ufeff`, `\udbff\udfff`, `\ude00\ud83d`, "'", " ",
}

func genNumber(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return pick(r, jsonNumbers)
	case 1:
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 1
		}
		return strconv.FormatFloat(f, pick(r, []byte{'e', 'E', 'g', 'f'}), -1, 64)
	case 2:
		f := r.NormFloat64() * math.Pow(10, float64(r.IntN(50)-25))
		return strconv.FormatFloat(f, pick(r, []byte{'e', 'g', 'f'}), r.IntN(20)-1, 64)
	default:
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteByte('-')
		}
		if r.IntN(4) == 0 {
			b.WriteByte('0')
		} else {
			b.WriteByte(byte('1' + r.IntN(9)))
			for range r.IntN(25) {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
		}
		if r.IntN(2) == 0 {
			b.WriteByte('.')
			for range 1 + r.IntN(20) {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
		}
		if r.IntN(2) == 0 {
			b.WriteString(pick(r, []string{"e", "E", "e+", "e-", "E-", "E+"}))
			b.WriteString(strconv.Itoa(r.IntN(400)))
		}
		return b.String()
	}
}

func ws(r *rand.Rand) string {
	if r.IntN(4) != 0 {
		return ""
	}
	return genFrom(r, []string{" ", "\t", "\n", "\r"}, 1, 3)
}

func genJSONValue(r *rand.Rand, b *strings.Builder, depth int) {
	b.WriteString(ws(r))
	k := r.IntN(10)
	if depth >= 4 && k >= 7 {
		k = r.IntN(7)
	}
	switch k {
	case 0:
		b.WriteString(pick(r, []string{"true", "false", "null"}))
	case 1, 2, 3:
		b.WriteString(genNumber(r))
	case 4, 5, 6:
		b.WriteString(`"` + genFrom(r, jsonStringPieces, 0, 6) + `"`)
	case 7:
		b.WriteString("[")
		n := r.IntN(5)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			genJSONValue(r, b, depth+1)
		}
		b.WriteString(ws(r) + "]")
	default:
		b.WriteString("{")
		n := r.IntN(7)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			key := pick(r, jsonKeys)
			if r.IntN(4) == 0 {
				key = genFrom(r, jsonStringPieces, 0, 3)
			}
			b.WriteString(ws(r) + `"` + key + `"` + ws(r) + ":")
			genJSONValue(r, b, depth+1)
		}
		b.WriteString(ws(r) + "}")
	}
	b.WriteString(ws(r))
}

func genJSONText(r *rand.Rand) string {
	var b strings.Builder
	genJSONValue(r, &b, 0)
	s := b.String()
	if r.IntN(8) == 0 { // mutate: mostly invalid, sometimes a different valid text
		i := r.IntN(len(s) + 1)
		switch r.IntN(3) {
		case 0:
			if i < len(s) {
				s = s[:i] + s[i+1:]
			}
		case 1:
			s = s[:i] + pick(r, []string{",", "]", "}", "\"", "\\", "0", "-", ".", "e", "\u00a0", "\ufeff", "\v", "\x01"}) + s[i:]
		default:
			s = s[:i]
		}
		if !utf8.ValidString(s) {
			return b.String()
		}
	}
	return s
}

func fixedJSON() []string {
	return []string{
		"", " ", "01", "+1", ".5", "1.", "1e", "-", "[1,]", `{"a":1,}`, "'a'", "NaN", "Infinity",
		"\ufeff1", "[1] x", `"\x"`, "\"\t\"", `"\u12"`, "{a:1}", "tru", "nul", "[", "\"\u2028\"",
		"\u00a01", "\v1", "\f1", "-0", "[-0]", `{"b":1,"a":2,"b":3}`, `{"1":1,"0":0,"a":2,"1":3}`,
		`{"4294967295":1,"4294967294":2,"01":3,"-1":4,"0":5}`, `{"\u0030":1,"0":2}`,
		`{"__proto__":1}`, `{"__proto__":{"a":1},"a":2}`, `"\ud800"`, `"\ud83d\ude00"`, `"\/"`,
		"1E400", "[1e21,1e-7,123e-20,5e-324,1.50]", `[]`, `{}`, " [ ] ", "\"\x7f\"", "\"\u0085\"",
	}
}

// Citation generation.

var citationIDPieces = []string{
	"env-1", "a", "thread", "m", " ", "%20", "%2F", "%2f", "%2e", "%2E", ".", "..", "%2e%2e", ".%2E",
	"%", "%4", "%41", "%C3%A9", "%E2%82", "é", "😀", "\u3000", "%E3%80%80", "\t", "\n", "\r",
	"!", "'", "(", "*", "~", "\"", "<", "`", "{", "^", "|", "\\", ":", "@", "[", "]", "\x01", "\x7f",
	"\u00a0", "%C2%A0", "%EF%BB%BF", "+",
}

var citationQueryPieces = []string{
	"a", "+", "%20", "%2B", "%", "%4", "%zz", "%C3%A9", "%C3", "%E2%82", "%FF", "%ED%A0%80", "é", "😀",
	" ", "\t", "\n", "\"", "<", ">", "'", "#", "=", "&", "&&", "\x01", "\u00a0", "%26", "%3D", "?", "/",
	"%F0%9F%98", "%F0%9F%98%80", "%C0%80", "%E0%80%80", "%EF%BF%BF", "%EF%BB%BF",
}

func genCitationSeg(r *rand.Rand) string {
	switch r.IntN(6) {
	case 0:
		return strings.Repeat("x", near(r, 512))
	case 1:
		return pick(r, []string{".", "..", "%2e", "%2E%2e", "", "a"})
	default:
		return genFrom(r, citationIDPieces, 0, 4)
	}
}

func genCitationValue(r *rand.Rand, limits ...int) string {
	switch r.IntN(5) {
	case 0:
		return strings.Repeat(pick(r, []string{"q", "+", "%41", "é"}), near(r, limits...))
	case 1:
		return run(r, near(r, limits...))
	default:
		return genFrom(r, citationQueryPieces, 0, 5)
	}
}

func genCitationHref(r *rand.Rand) string {
	if r.IntN(2) == 0 {
		return genMostlyValidHref(r)
	}
	var b strings.Builder
	b.WriteString(pick(r, []string{"t3-citation://v1/", "t3-citation://v1/", "t3-citation://v1/", "t3-citation://v2/", "T3-citation://v1/", "t3-citation://v1@x/", "t3-citation://v1:80/"}))
	nseg := 3
	switch r.IntN(6) {
	case 0:
		nseg = 2 + r.IntN(4)
	}
	for i := range nseg {
		if i > 0 {
			b.WriteString(pick(r, []string{"/", "/", "/", "/", "/./", "/../", "//"}))
		}
		b.WriteString(genCitationSeg(r))
	}
	if r.IntN(12) == 0 {
		b.WriteString(pick(r, []string{"/", "/.", "/..", "/%2e"}))
	}
	if r.IntN(10) != 0 {
		b.WriteString("?")
		type kv struct{ k, v string }
		kvs := []kv{
			{"text", genCitationValue(r, 1, 8000)},
			{"start", pick(r, []string{"0", "1", "00", "9007199254740991", "9007199254740992", "1234567890123456", "12345678901234567", "-1", "1.0", " 1", "1e3", "", "%31", "+1"})},
			{"end", pick(r, []string{"5", "1", "0", "9007199254740991", "9007199254740992", "0000000000000009", "99", "%35", ""})},
			{"prefix", genCitationValue(r, 0, 32)},
			{"suffix", genCitationValue(r, 0, 32)},
		}
		if r.IntN(2) == 0 {
			kvs = append(kvs, kv{"comment", genCitationValue(r, 0, 8000)})
		}
		if r.IntN(6) == 0 {
			kvs = append(kvs, kv{pick(r, []string{"comment", "text", "%63omment", "x", "", "te+xt", "Text"}), "v"})
		}
		if r.IntN(8) == 0 && len(kvs) > 0 {
			i := r.IntN(len(kvs))
			kvs = append(kvs[:i], kvs[i+1:]...)
		}
		r.Shuffle(len(kvs), func(i, j int) { kvs[i], kvs[j] = kvs[j], kvs[i] })
		for i, p := range kvs {
			if i > 0 {
				b.WriteString(pick(r, []string{"&", "&", "&", "&&"}))
			}
			b.WriteString(p.k)
			if r.IntN(15) != 0 {
				b.WriteString("=")
			}
			b.WriteString(p.v)
		}
	}
	if r.IntN(10) == 0 {
		b.WriteString(pick(r, []string{"#", "#x", "#", " ", "\x01", "\n", "\t "}))
	}
	return b.String()
}

// genMostlyValidHref writes a valid href with one or two odd spots (dot
// segments, escapes, tabs, duplicate or reordered keys, fragments).
func genMostlyValidHref(r *rand.Rand) string {
	seg := func() string {
		s := pick(r, []string{"env-1", "t", "msg_2", "é", "a b"})
		if r.IntN(4) == 0 {
			s += pick(r, citationIDPieces)
		}
		return s
	}
	path := []string{seg(), seg(), seg()}
	if r.IntN(5) == 0 {
		i := r.IntN(4)
		extra := pick(r, []string{".", "..", "%2e", "%2E%2e", "x/..", "x/%2e%2e", "./x"})
		path = append(path[:i], append([]string{extra}, path[i:]...)...)
	}
	kvs := [][2]string{
		{"text", pick(r, []string{"quote", "a+b", "%C3%A9", "q%zz", "q%E2%82", "q&x", "%20q%20", "q#"})},
		{"start", pick(r, []string{"0", "1", "007"})},
		{"end", pick(r, []string{"5", "10", "0000000000000099"})},
		{"prefix", pick(r, []string{"", "p", "%2B", "+"})},
		{"suffix", pick(r, []string{"", "s", "\t", "%FF"})},
	}
	if r.IntN(2) == 0 {
		kvs = append(kvs, [2]string{"comment", pick(r, []string{"", "why?", "a+b%26c", "%", " "})})
	}
	if r.IntN(6) == 0 {
		kvs = append(kvs, [2]string{pick(r, []string{"comment", "text", "%63omment", "x"}), "v"})
	}
	r.Shuffle(len(kvs), func(i, j int) { kvs[i], kvs[j] = kvs[j], kvs[i] })
	var q []string
	for _, kv := range kvs {
		q = append(q, kv[0]+"="+kv[1])
	}
	h := "t3-citation://v1/" + strings.Join(path, "/") + "?" + strings.Join(q, pick(r, []string{"&", "&", "&&"}))
	if r.IntN(6) == 0 {
		h += pick(r, []string{"#", "#x", " ", "\n", "\x00"})
	}
	if r.IntN(8) == 0 {
		i := len("t3-citation://v1/") + r.IntN(len(h)-len("t3-citation://v1/"))
		h = h[:i] + pick(r, []string{"\t", "\n", "\r"}) + h[i:]
	}
	if !utf8.ValidString(h) {
		return "t3-citation://v1/a/b/c?text=q&start=0&end=5&prefix=&suffix="
	}
	return h
}

func genCitation(r *rand.Rand) contextref.Citation {
	c := contextref.Citation{
		Version:       1,
		EnvironmentID: genFrom(r, citationIDPieces, 1, 4),
		ThreadID:      genFrom(r, citationIDPieces, 1, 4),
		MessageID:     genFrom(r, citationIDPieces, 1, 4),
		Text:          genFrom(r, append(citationQueryPieces, "*", "-", ".", "_", "~", "!", "(", ")"), 1, 8),
		Start:         int64(r.IntN(1000)),
		Prefix:        genFrom(r, citationQueryPieces, 0, 3),
		Suffix:        genFrom(r, citationQueryPieces, 0, 3),
	}
	c.End = c.Start + 1 + int64(r.IntN(100))
	if r.IntN(2) == 0 {
		cm := genFrom(r, citationQueryPieces, 0, 4)
		c.Comment = &cm
	}
	return c
}

func genCitationText(r *rand.Rand) string {
	var b strings.Builder
	n := 1 + r.IntN(5)
	for range n {
		switch r.IntN(4) {
		case 0:
			b.WriteString(genFrom(r, []string{"a", " ", "\n", "[", "]", "(", ")", "!", "<", "&", "[Assistant quote](", "[Assistant Quote](t3-citation://v1/"}, 0, 4))
		case 1:
			b.WriteString("[Assistant quote](" + genCitationHref(r) + pick(r, []string{")", ")", ") ", "", "))"}))
		default:
			c := genCitation(r)
			l := c.Link()
			b.WriteString(l)
			if r.IntN(3) == 0 {
				b.WriteString(l) // the same source twice shares one id
			}
		}
	}
	return b.String()
}

func fixedCitationHrefs() []string {
	q := "?text=quote&start=0&end=5&prefix=&suffix="
	return []string{
		"t3-citation://v1/a/b/c" + q,
		"t3-citation://v1/a/b/c" + q + "#",
		"t3-citation://v1/a/b/c" + q + "#x",
		"t3-citation://v1/a/b/x/../c" + q,
		"t3-citation://v1/a/b/%2e%2E/c/d" + q,
		"t3-citation://v1/a/./b/c" + q,
		"t3-citation://v1/a/b/c/." + q,
		"t3-citation://v1/a/b/c/.." + q,
		"t3-citation://v1/a/b/c/" + q,
		"t3-citation://v1//b/c" + q,
		"t3-citation://v1/a/b/c" + q + "&comment",
		"t3-citation://v1/a/b/c" + q + "&comment=&comment=",
		"t3-citation://v1/a/b/c" + q + "&%63omment=x",
		"t3-citation://v1/a/b/c?text=%E2%82&start=0&end=5&prefix=&suffix=",
		"t3-citation://v1/a/b/c?text=a%zz&start=0&end=5&prefix=&suffix=",
		"t3-citation://v1/a%zz/b/c" + q,
		"t3-citation://v1/a/b/c?text=+&start=0&end=5&prefix=&suffix=",
		"t3-citation://v1/a/b/c?text=q&start=5&end=5&prefix=&suffix=",
		"t3-citation://v1/a/b/c?text=q&start=9007199254740991&end=9007199254740992&prefix=&suffix=",
		"t3-citation://v1/a\tb/\nb/c" + q + "\n",
		"t3-citation://v1/a/b/c" + q + " \x01",
		"t3-citation://v1/ a /b/c" + q,
		"t3-citation://v1/%20/b/c" + q,
		"t3-citation://v1/a/b/c?text=q&start=0&end=5&prefix=" + strings.Repeat("p", 33) + "&suffix=",
		"t3-citation://v1/a/b/c?text=" + strings.Repeat("q", 8001) + "&start=0&end=5&prefix=&suffix=",
		"t3-citation://v1/a/b/c?text=" + strings.Repeat("q", 8000) + "&start=0&end=5&prefix=&suffix=",
		"t3-citation://v1/" + strings.Repeat("e", 513) + "/b/c" + q,
		"t3-citation://v1/a/b/c?text=" + strings.Repeat("%41", 53326) + "&start=0&end=5&prefix=&suffix=",
		"t3-citation://v1/a/b/c#?text=q&start=0&end=5&prefix=&suffix=",
	}
}

// Legacy upgrade generation: whole and broken blocks, tags, placeholders,
// inline labels, fences, links, private-use characters and white space
// glued together, then sometimes valid trailing blocks in send order.

const (
	lgRcA  = `<review_comment sectionId="s1" sectionTitle="Diff" filePath="src/a.ts" startIndex="4" endIndex="9" rangeLabel="L4-L9">`
	lgRcB  = `<review_comment sectionId="s2" filePath="lib/b.go" startIndex="1" endIndex="1">`
	lgRcX  = "</review_comment>"
	lgTerm = "<terminal_context>\n- Terminal 1 lines 12-13:\n  12 | $ go test\n  13 | FAIL\n</terminal_context>"
)

var legacyPieces = []string{
	"Fix ", "\n", "\n\n", " ", "\t", "\r\n", "\u00a0", "\u3000", "\uFFFC", "\uE000", "\uE000\uE000", "0",
	"@terminal-1:12-13", "@t:5", "@t:5-5", "@x:1", "@t:5x", "x@t:5", "@t:5.", "@t:5.a", "(", ")", ".", "-", "x", "é", "Σ",
	lgTerm, "<terminal_context>\n", "\n</terminal_context>", "- T line 5:\n  5 | boom\n", "- T lines 5-5:\n",
	"- Terminal 1 lines 12-13:\n", "  12 | $ go test\n", "- T lines 9-3:\n", "- \u3000 line 1:\n", "- x line 9007199254740993:\n",
	"<element_context>\n- <PayButton>:\n  url: http://x/\n  html:\n    <b>\n</element_context>",
	"<element_context>\n", "\n</element_context>", "- < div >:\n", "- <A>x:\n  source: a.ts:1:2\n  selector: \n",
	"  styles:\n", "  html:\n", "\t\n", "  \n",
	"<preview_annotation>\nId: a\nPage: P\n", "\n</preview_annotation>", "Requested visual changes:\n- c\n", "Comment:  c \n",
	"Page: https://e/\n", "<preview_annotation>\n",
	lgRcA, lgRcB, lgRcX, "```\n", "````", "```diff\n-a\n+b\n```\n", "```ts x\n", "``` \n",
	"[x](t3-context://v1/file/a)", "](t3-context://v1/", "[", "]", "!",
	`<review_comment sectionId="s" filePath="f" startIndex="1" endIndex="2" rangeLabel="@t:5 \uFFFC">`,
	`<review_comment filePath="f">`, `<review_comment sectionId="s" filePath="a\\b.ts" startIndex="01" endIndex="1" sectionTitle=" " rangeLabel="">`,
	`<review_comment sectionId="s" filePath="f" filePath="g" startIndex="1" endIndex="99999999999999999">`,
	"<review_comment>", "<review_comments ",
}

var legacyTailPieces = []string{
	"\n\n<terminal_context>\n- Terminal 1 lines 12-13:\n  12 | a\n  13 | b\n- T line 5:\n  5 | c\n- x:1 line 2:\n</terminal_context>",
	"\n\n<element_context>\n- <A>:\n  url: http://a/\n- <b>:\n</element_context>",
	"\n\n<preview_annotation>\nId: 1\nPage: P\n<element_context>\n- <C>:\n</element_context>\n</preview_annotation>",
	"\n" + lgRcB + "tail" + lgRcX + "\n",
}

func genLegacyText(r *rand.Rand) string {
	var b strings.Builder
	for k := r.IntN(14); k >= 0; k-- {
		b.WriteString(pick(r, legacyPieces))
	}
	if r.IntN(2) == 0 {
		for _, tail := range legacyTailPieces {
			if r.IntN(2) == 0 {
				b.WriteString(tail)
			}
		}
	}
	if r.IntN(6) == 0 {
		b.WriteString(pick(r, []string{" ", "\n", "  \n\t", "\u2028"}))
	}
	return b.String()
}

func fixedLegacyInputs() []string {
	return []string{
		"text <review_comment oops>  \n ",
		"before \uFFFC after \uFFFC",
		"a " + lgRcB + "x\n```\nx " + lgRcX + " then " + lgRcA + "y" + lgRcX,
		"\uE000\uE000 " + lgRcB + "t" + lgRcX,
		"x <terminal_context>\n- T line 1:\n  " + lgRcB + "r" + lgRcX + "\n</terminal_context>",
		"<terminal_context>\n" + lgRcB + "\n</terminal_context>\n" + lgRcA + "z" + lgRcX,
		"Hi\n\n<terminal_context>\n- T1 line 1:\n  1 | a\n</terminal_context>\n\n<terminal_context>\n- T2 line 2:\n  2 | b\n</terminal_context>",
		"x\n\n<preview_annotation>\nId: 1\n</preview_annotation>\n</preview_annotation>\n<preview_annotation>\nId: 2\n</preview_annotation>",
		"x\n\n<element_context>\n- < div >:\n</element_context>",
		"@t:5 and @t:5\n\n<terminal_context>\n- T line 5:\n- T line 5:\n</terminal_context>",
		lgRcB + "a\n```\n" + lgRcX + "\n````\n" + lgRcX,
	}
}
