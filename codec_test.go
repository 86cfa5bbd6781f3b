package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// vectors is contextref/testdata/vectors.json. Inputs that are JSON documents
// stay raw so that they reach the CLI byte for byte.
type vectors struct {
	ContextID []struct {
		Input  string `json:"input"`
		Output string `json:"output"`
	} `json:"contextId"`
	Label []struct {
		Label  string `json:"label"`
		Kind   string `json:"kind"`
		Output string `json:"output"`
	} `json:"label"`
	Parse []struct {
		Text   string          `json:"text"`
		Output json.RawMessage `json:"output"`
	} `json:"parse"`
	Project []struct {
		Input  json.RawMessage `json:"input"`
		Output string          `json:"output"`
	} `json:"project"`
	Decode []struct {
		Input  json.RawMessage `json:"input"`
		Output json.RawMessage `json:"output"`
	} `json:"decode"`
	Upgrade []struct {
		Text   string          `json:"text"`
		Output json.RawMessage `json:"output"`
	} `json:"upgrade"`
	CitationParse []struct {
		Name   string          `json:"name"`
		Href   string          `json:"href"`
		Output json.RawMessage `json:"output"`
	} `json:"citationParse"`
	Expand []struct {
		Name   string `json:"name"`
		Text   string `json:"text"`
		Output string `json:"output"`
	} `json:"expand"`
	ProjectExpand []struct {
		Name   string          `json:"name"`
		Input  json.RawMessage `json:"input"`
		Output string          `json:"output"`
	} `json:"projectExpand"`
}

func loadVectors(t *testing.T) *vectors {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("contextref", "testdata", "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("vectors.json: %v", err)
	}
	if len(v.ContextID) == 0 || len(v.Label) == 0 || len(v.Parse) == 0 ||
		len(v.Project) == 0 || len(v.Decode) == 0 || len(v.Upgrade) == 0 ||
		len(v.CitationParse) == 0 || len(v.Expand) == 0 || len(v.ProjectExpand) == 0 {
		t.Fatal("vectors.json: a section is empty or missing")
	}
	return &v
}

type result struct {
	code           int
	stdout, stderr string
}

func codec(stdin string, args ...string) result {
	var out, errb bytes.Buffer
	code := runCodec(args, strings.NewReader(stdin), &out, &errb)
	return result{code, out.String(), errb.String()}
}

func (r result) String() string {
	return fmt.Sprintf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
}

// lines counts the lines of a stderr that ends in a newline.
func lines(s string) int { return strings.Count(s, "\n") }

// sameJSON reports whether two JSON documents are equal as values.
func sameJSON(t *testing.T, got, want []byte) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("output is not JSON: %v: %q", err, got)
		return false
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("vector is not JSON: %v", err)
	}
	return reflect.DeepEqual(g, w)
}

// wantOK fails unless r succeeded with a clean stderr.
func wantOK(t *testing.T, r result) bool {
	t.Helper()
	if r.code != 0 || r.stderr != "" {
		t.Errorf("want exit 0 and no stderr; got %v", r)
		return false
	}
	return true
}

// wantFail fails unless r exited with code, wrote nothing to stdout and
// exactly one line to stderr containing substr.
func wantFail(t *testing.T, r result, code int, substr string) {
	t.Helper()
	if r.code != code || r.stdout != "" || lines(r.stderr) != 1 || !strings.HasSuffix(r.stderr, "\n") {
		t.Errorf("want exit %d, empty stdout, one stderr line; got %v", code, r)
	}
	if !strings.Contains(r.stderr, substr) {
		t.Errorf("stderr %q does not say %q", r.stderr, substr)
	}
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine") {
		t.Errorf("stderr looks like a crash: %q", r.stderr)
	}
}

func TestCodecVectors(t *testing.T) {
	v := loadVectors(t)

	t.Run("contextId", func(t *testing.T) {
		for i, c := range v.ContextID {
			r := codec(c.Input, "context-id")
			if wantOK(t, r) && r.stdout != c.Output+"\n" {
				t.Errorf("contextId[%d] %q: got %q, want %q", i, c.Input, r.stdout, c.Output+"\n")
			}
		}
	})

	t.Run("label", func(t *testing.T) {
		for i, c := range v.Label {
			r := codec(c.Label, "label", "--kind", c.Kind)
			if wantOK(t, r) && r.stdout != c.Output+"\n" {
				t.Errorf("label[%d] %q (%s): got %q, want %q", i, c.Label, c.Kind, r.stdout, c.Output+"\n")
			}
			if r2 := codec(c.Label, "label", "--kind="+c.Kind); r2 != r {
				t.Errorf("label[%d]: --kind=KIND gave %v, --kind KIND gave %v", i, r2, r)
			}
		}
	})

	t.Run("parse", func(t *testing.T) {
		for i, c := range v.Parse {
			r := codec(c.Text, "parse")
			if !wantOK(t, r) {
				continue
			}
			if !strings.HasSuffix(r.stdout, "\n") {
				t.Errorf("parse[%d]: output does not end in a newline: %q", i, r.stdout)
			}
			if !sameJSON(t, []byte(r.stdout), c.Output) {
				t.Errorf("parse[%d] %q:\n got %s\nwant %s", i, c.Text, r.stdout, c.Output)
			}
		}
	})

	t.Run("project", func(t *testing.T) {
		for i, c := range v.Project {
			r := codec(string(c.Input), "project")
			if r.code != 0 {
				t.Errorf("project[%d]: %v", i, r)
				continue
			}
			if r.stdout != c.Output {
				t.Errorf("project[%d]:\n got %q\nwant %q", i, r.stdout, c.Output)
			}
		}
	})

	t.Run("decode", func(t *testing.T) {
		for i, c := range v.Decode {
			r := codec(string(c.Input), "decode")
			if string(c.Output) == "null" {
				if r.code != 1 || r.stdout != "" || lines(r.stderr) != 1 {
					t.Errorf("decode[%d]: want exit 1, no stdout and one stderr line; got %v", i, r)
				}
				continue
			}
			if r.code != 0 {
				t.Errorf("decode[%d]: %v", i, r)
				continue
			}
			if !strings.HasSuffix(r.stdout, "\n") {
				t.Errorf("decode[%d]: output does not end in a newline: %q", i, r.stdout)
			}
			if !sameJSON(t, []byte(r.stdout), c.Output) {
				t.Errorf("decode[%d]:\n got %s\nwant %s", i, r.stdout, c.Output)
			}
		}
	})

	t.Run("citationParse", func(t *testing.T) {
		for i, c := range v.CitationParse {
			checkCitationParse(t, fmt.Sprintf("citationParse[%d] %s", i, c.Name), codec(c.Href, "citation-parse"), c.Output)
		}
	})

	t.Run("expand", func(t *testing.T) {
		for i, c := range v.Expand {
			in, err := json.Marshal(map[string]any{"text": c.Text, "records": []any{}})
			if err != nil {
				t.Fatal(err)
			}
			r := codec(string(in), "project")
			if wantOK(t, r) && r.stdout != c.Output {
				t.Errorf("expand[%d] %s:\n got %q\nwant %q", i, c.Name, r.stdout, c.Output)
			}
		}
	})

	t.Run("projectExpand", func(t *testing.T) {
		for i, c := range v.ProjectExpand {
			r := codec(string(c.Input), "project")
			if wantOK(t, r) && r.stdout != c.Output {
				t.Errorf("projectExpand[%d] %s:\n got %q\nwant %q", i, c.Name, r.stdout, c.Output)
			}
		}
	})

	t.Run("upgrade", func(t *testing.T) {
		for i, c := range v.Upgrade {
			r := codec(c.Text, "upgrade")
			if !wantOK(t, r) {
				continue
			}
			if !strings.HasSuffix(r.stdout, "\n") {
				t.Errorf("upgrade[%d]: output does not end in a newline: %q", i, r.stdout)
			}
			if !sameJSON(t, []byte(r.stdout), c.Output) {
				t.Errorf("upgrade[%d] %q:\n got %s\nwant %s", i, c.Text, r.stdout, c.Output)
			}
		}
	})
}

func TestCodecDecodeWarnsPerDroppedRecord(t *testing.T) {
	in := `{"version":1,"records":[{"version":1,"kind":"image"},{"version":1,"contextId":"ctx_1","kind":"skill","label":"s","name":"x"},{}]}`
	r := codec(in, "decode")
	if r.code != 0 {
		t.Fatalf("%v", r)
	}
	if lines(r.stderr) != 2 || !strings.Contains(r.stderr, "records[0]") || !strings.Contains(r.stderr, "records[2]") {
		t.Errorf("want one warning for records[0] and one for records[2]; got %q", r.stderr)
	}
	if !sameJSON(t, []byte(r.stdout), []byte(`{"version":1,"records":[{"version":1,"contextId":"ctx_1","label":"s","kind":"skill","name":"x"}]}`)) {
		t.Errorf("got %s", r.stdout)
	}
}

func TestCodecProjectDropsUndecodableRecords(t *testing.T) {
	in := `{"text":"[a](t3-context://v1/skill/s1) [b](t3-context://v1/file/f1)","records":[` +
		`{"version":1,"contextId":"f1","kind":"file","label":"b"},` +
		`{"version":1,"contextId":"s1","kind":"skill","label":"a","name":"x"}]}`
	r := codec(in, "project")
	if r.code != 0 {
		t.Fatalf("%v", r)
	}
	if lines(r.stderr) != 1 || !strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, "records[0]") {
		t.Errorf("want one warning naming records[0]; got %q", r.stderr)
	}
	want := "[Skill: a; ref=s1] [File: b; ref=f1]\n\n<t3_context version=\"1\">\n" +
		"<context kind=\"file\" id=\"f1\" unavailable=\"true\"/>\n</t3_context>"
	if r.stdout != want {
		t.Errorf("got  %q\nwant %q", r.stdout, want)
	}

	// No records key at all: every reference is unavailable.
	r = codec(`{"text":"[a](t3-context://v1/file/f1)"}`, "project")
	if wantOK(t, r) && !strings.Contains(r.stdout, `unavailable="true"`) {
		t.Errorf("got %q", r.stdout)
	}
}

// JSON written by the CLI leaves <, > and & literal.
func TestCodecJSONIsNotHTMLEscaped(t *testing.T) {
	r := codec("see [<a> & <b>](t3-context://v1/file/x)", "parse")
	if wantOK(t, r) && !strings.Contains(r.stdout, `"label":"<a> & <b>"`) {
		t.Errorf("parse escaped HTML: %s", r.stdout)
	}
	r = codec(`{"version":1,"records":[{"version":1,"contextId":"u","kind":"future","label":"<&>","payload":{"a":"<b>&"}}]}`, "decode")
	if wantOK(t, r) && (!strings.Contains(r.stdout, `"<&>"`) || !strings.Contains(r.stdout, `{"a":"<b>&"}`)) {
		t.Errorf("decode escaped HTML: %s", r.stdout)
	}
	r = codec("Style this\n\n<element_context>\n- <PayButton>:\n  url: http://localhost:3000/?a=1&b=2\n  html:\n    <button>Pay</button>\n</element_context>", "upgrade")
	if wantOK(t, r) && (!strings.Contains(r.stdout, "<button>Pay</button>") || !strings.Contains(r.stdout, "a=1&b=2")) {
		t.Errorf("upgrade escaped HTML: %s", r.stdout)
	}
}

func TestCodecUpgradeWithoutLegacyBlocks(t *testing.T) {
	r := codec("just <b>text</b> & more", "upgrade")
	if wantOK(t, r) && r.stdout != `{"text":"just <b>text</b> & more","records":[]}`+"\n" {
		t.Errorf("got %q", r.stdout)
	}
}

func TestCodecParseEmpty(t *testing.T) {
	for _, in := range []string{"", "no links here"} {
		r := codec(in, "parse")
		if wantOK(t, r) && r.stdout != "[]\n" {
			t.Errorf("parse %q: got %q, want \"[]\\n\"", in, r.stdout)
		}
	}
}

func TestCodecContextIDIsByteForByte(t *testing.T) {
	// A trailing newline is part of the producer id, so the result differs
	// from the id of the bare text.
	a, b := codec("ctx_1", "context-id"), codec("ctx_1\n", "context-id")
	if !wantOK(t, a) || !wantOK(t, b) {
		return
	}
	if a.stdout != "ctx_1\n" || b.stdout == a.stdout || !strings.HasPrefix(b.stdout, "ctx_1-") {
		t.Errorf("got %q and %q", a.stdout, b.stdout)
	}
}

func TestCodecFragmentRoundTrip(t *testing.T) {
	frag := `{"version":1,"source":{"environmentId":" env_1 ","threadId":"th_1"},"extra":true,"records":[` +
		`{"version":1,"contextId":"ctx_1","kind":"skill","label":"<s>","name":" review "}]}`
	r := codec(frag, "fragment-decode")
	if !wantOK(t, r) {
		return
	}
	norm := r.stdout
	want := `{"version":1,"source":{"environmentId":"env_1","threadId":"th_1"},"records":[` +
		`{"version":1,"contextId":"ctx_1","label":"<s>","kind":"skill","name":"review"}]}`
	if !sameJSON(t, []byte(norm), []byte(want)) {
		t.Errorf("fragment-decode:\n got %s\nwant %s", norm, want)
	}
	if !strings.Contains(norm, `"<s>"`) {
		t.Errorf("fragment-decode escaped HTML: %s", norm)
	}

	env, _ := json.Marshal(map[string]any{"text": "a <b> & c", "fragment": json.RawMessage(frag)})
	r = codec(string(env), "fragment-html")
	if !wantOK(t, r) {
		return
	}
	html := r.stdout
	if !strings.HasPrefix(html, `<pre data-t3-context-fragment="`) || !strings.HasSuffix(html, "a &lt;b&gt; &amp; c</pre>") {
		t.Errorf("fragment-html: got %q", html)
	}

	// The carrier decodes to the same normalized fragment.
	r = codec(html, "fragment-decode")
	if wantOK(t, r) && r.stdout != norm {
		t.Errorf("fragment-decode of the carrier:\n got %s\nwant %s", r.stdout, norm)
	}
}

func TestCodecErrors(t *testing.T) {
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		say   string
	}{
		{"missing --kind", "x", []string{"label"}, 2, "--kind"},
		{"empty --kind", "x", []string{"label", "--kind="}, 2, "--kind"},
		{"--kind without value", "x", []string{"label", "--kind"}, 2, "kind"},
		{"unknown flag", "x", []string{"parse", "--kind", "file"}, 2, "kind"},
		{"extra argument", "x", []string{"context-id", "extra"}, 2, `"extra"`},
		{"unknown op", "x", []string{"frobnicate"}, 2, `unknown op "frobnicate"`},
		{"project bad JSON", `{"text": "a",`, []string{"project"}, 1, "not valid JSON"},
		{"project empty stdin", "", []string{"project"}, 1, "not valid JSON"},
		{"project not an object", `["a"]`, []string{"project"}, 1, "JSON object"},
		{"project null", `null`, []string{"project"}, 1, "JSON object"},
		{"project trailing data", `{"text":"a"} {}`, []string{"project"}, 1, "not valid JSON"},
		{"project no text", `{"records":[]}`, []string{"project"}, 1, `"text" is required`},
		{"project text not a string", `{"text":1,"records":[]}`, []string{"project"}, 1, `"text" must be a string`},
		{"project records not an array", `{"text":"a","records":{}}`, []string{"project"}, 1, `"records" must be an array`},
		{"decode bad JSON", `{"version":1,`, []string{"decode"}, 1, "decode"},
		{"decode version 2", `{"version":2,"records":[]}`, []string{"decode"}, 1, "version"},
		{"decode duplicate ids", `{"version":1,"records":[{"version":1,"contextId":"a","kind":"skill","label":"","name":"x"},{"version":1,"contextId":" a ","kind":"mention","label":"","path":"p"}]}`, []string{"decode"}, 1, "decode"},
		{"fragment-decode garbage", "hello", []string{"fragment-decode"}, 1, "fragment-decode"},
		{"fragment-decode bad carrier", `<pre data-t3-context-fragment="%7Bnope">x</pre>`, []string{"fragment-decode"}, 1, "fragment-decode"},
		{"fragment-html no fragment", `{"text":"a"}`, []string{"fragment-html"}, 1, `"fragment" is required`},
		{"fragment-html bad fragment", `{"text":"a","fragment":{"version":1}}`, []string{"fragment-html"}, 1, "fragment"},
		{"invalid UTF-8", "a\xffb", []string{"parse"}, 1, "UTF-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantFail(t, codec(c.stdin, c.args...), c.code, c.say)
		})
	}
}

func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                 "plain",
		"a\nb\r\tc":             `a\nb\r\tc`,
		"esc \x1b[31mred":       `esc \x1b[31mred`,
		"ls\u2028ps\u2029 ü <>": `ls\u2028ps\u2029 ü <>`,
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCodecMissingOpListsOps(t *testing.T) {
	r := codec("")
	if r.code != 2 || r.stdout != "" || !strings.HasPrefix(r.stderr, "chipchat codec: missing op\n") {
		t.Errorf("got %v", r)
	}
	for _, op := range codecOps {
		if !strings.Contains(r.stderr, op.name) {
			t.Errorf("missing-op usage does not list %s", op.name)
		}
	}
}

func TestCodecHelp(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "help"} {
		r := codec("", arg)
		if !wantOK(t, r) {
			continue
		}
		for _, op := range codecOps {
			if !strings.Contains(r.stdout, "  "+op.name) {
				t.Errorf("codec %s does not list %s", arg, op.name)
			}
		}
	}
	for _, op := range codecOps {
		r := codec("", op.name, "--help")
		if wantOK(t, r) && !strings.Contains(r.stdout, "chipchat codec "+op.name) {
			t.Errorf("codec %s --help: %q", op.name, r.stdout)
		}
	}
}

func TestCodecRefusesHugeStdin(t *testing.T) {
	big := io.LimitReader(aaaa{}, maxCodecInput+1)
	var out, errb bytes.Buffer
	code := runCodec([]string{"parse"}, big, &out, &errb)
	wantFail(t, result{code, out.String(), errb.String()}, 1, "larger than 64 MiB")

	// Exactly the limit is accepted.
	out.Reset()
	errb.Reset()
	code = runCodec([]string{"parse"}, io.LimitReader(aaaa{}, maxCodecInput), &out, &errb)
	if code != 0 || errb.Len() != 0 || out.String() != "[]\n" {
		t.Errorf("64 MiB stdin: exit %d, stderr %q", code, errb.String())
	}
}

// aaaa reads as an endless run of 'a'.
type aaaa struct{}

func (aaaa) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

func TestCodecRecoversFromPanic(t *testing.T) {
	codecOps = append(codecOps, &codecOp{name: "boom", run: func(c *codecCall) error {
		c.out.WriteString("partial")
		panic("kaboom")
	}})
	defer func() { codecOps = codecOps[:len(codecOps)-1] }()
	r := codec("x", "boom")
	if r.code != 1 || r.stdout != "" || r.stderr != "chipchat codec boom: internal error: kaboom\n" {
		t.Errorf("got %v", r)
	}
}

func TestRunTopLevel(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(""), &out, &errb)
		if code != 0 || errb.Len() != 0 || !strings.Contains(out.String(), "chipchat codec <op>") {
			t.Errorf("chipchat %v: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
	var out, errb bytes.Buffer
	code := run([]string{"frob"}, strings.NewReader(""), &out, &errb)
	if code != 2 || out.Len() != 0 || lines(errb.String()) != 1 ||
		!strings.Contains(errb.String(), `unknown command "frob"`) || !strings.Contains(errb.String(), "--help") {
		t.Errorf("chipchat frob: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	for _, args := range [][]string{{"--nope"}, {"--data-dir"}, {"--new", "extra"}} {
		out.Reset()
		errb.Reset()
		if code := run(args, strings.NewReader(""), &out, &errb); code != 2 || lines(errb.String()) != 1 {
			t.Errorf("chipchat %v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// The real binary, built once for the exec tests.
var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// checkCitationParse compares a citation-parse run with a vector's output:
// the citation JSON, keys in the 3.8 order, byte for byte, and a newline;
// or, for null, exit 1 with one line on stderr.
func checkCitationParse(t *testing.T, name string, r result, want json.RawMessage) {
	t.Helper()
	if string(want) == "null" {
		if r.code != 1 || r.stdout != "" || lines(r.stderr) != 1 {
			t.Errorf("%s: want exit 1, no stdout and one stderr line; got %v", name, r)
		}
		return
	}
	var w bytes.Buffer
	if err := json.Compact(&w, want); err != nil {
		t.Fatal(err)
	}
	if wantOK(t, r) && r.stdout != w.String()+"\n" {
		t.Errorf("%s:\n got %q\nwant %q", name, r.stdout, w.String()+"\n")
	}
}

// TestBinaryVectors runs the vectors of the ops added with DESIGN.md 3.8
// through the built binary.
func TestBinaryVectors(t *testing.T) {
	v := loadVectors(t)
	for i, c := range v.CitationParse {
		checkCitationParse(t, fmt.Sprintf("citationParse[%d] %s", i, c.Name), execChipchat(t, c.Href, "codec", "citation-parse"), c.Output)
	}
	for i, c := range v.ProjectExpand {
		r := execChipchat(t, string(c.Input), "codec", "project")
		if wantOK(t, r) && r.stdout != c.Output {
			t.Errorf("projectExpand[%d]: got %q", i, r.stdout)
		}
	}
	for i, c := range v.Expand {
		in, _ := json.Marshal(map[string]any{"text": c.Text, "records": []any{}})
		r := execChipchat(t, string(in), "codec", "project")
		if wantOK(t, r) && r.stdout != c.Output {
			t.Errorf("expand[%d]: got %q", i, r.stdout)
		}
	}
	for i, c := range v.Project {
		r := execChipchat(t, string(c.Input), "codec", "project")
		if r.code != 0 || r.stdout != c.Output {
			t.Errorf("project[%d]: %v", i, r)
		}
	}
	for i, c := range v.Decode {
		r := execChipchat(t, string(c.Input), "codec", "decode")
		if string(c.Output) == "null" {
			if r.code != 1 {
				t.Errorf("decode[%d]: %v", i, r)
			}
			continue
		}
		if r.code != 0 || !sameJSON(t, []byte(r.stdout), c.Output) {
			t.Errorf("decode[%d]: %v", i, r)
		}
	}
	for i, c := range v.Upgrade {
		r := execChipchat(t, c.Text, "codec", "upgrade")
		if !wantOK(t, r) || !sameJSON(t, []byte(r.stdout), c.Output) {
			t.Errorf("upgrade[%d]: %v", i, r)
		}
	}
	// A bad href: exit 1, one line.
	r := execChipchat(t, "t3-citation://v1/a/b?text=q&start=0&end=5&prefix=&suffix=", "codec", "citation-parse")
	wantFail(t, r, 1, "chipchat codec citation-parse: ")
}

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == helperCommand {
		// This binary staged on a remote by a test, as chipchat is.
		os.Exit(runHelper(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func chipchatBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "chipchat-test-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "chipchat")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func execChipchat(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(chipchatBinary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("running chipchat: %v", err)
		}
		code = ee.ExitCode()
	}
	return result{code, out.String(), errb.String()}
}

func TestBinary(t *testing.T) {
	t.Run("context-id", func(t *testing.T) {
		r := execChipchat(t, "::", "codec", "context-id")
		if wantOK(t, r) && r.stdout != "ctx-980630f591da3738\n" {
			t.Errorf("got %q", r.stdout)
		}
	})
	t.Run("parse", func(t *testing.T) {
		r := execChipchat(t, "see ![a <b>](t3-context://v1/image/img_1)", "codec", "parse")
		want := `[{"kind":"image","contextId":"img_1","label":"a <b>","image":true,"start":4,"end":41}]` + "\n"
		if wantOK(t, r) && r.stdout != want {
			t.Errorf("got %q, want %q", r.stdout, want)
		}
	})
	t.Run("project", func(t *testing.T) {
		in := `{"text":"Use [$review](t3-context://v1/skill/s1) on [a.go](t3-context://v1/file/f1)","records":[` +
			`{"version":1,"contextId":"s1","kind":"skill","label":"$review","name":"review"},` +
			`{"version":1,"contextId":"f1","kind":"file","label":"a.go","attachmentId":"att_1","name":"a.go","mimeType":"text/x-go","sizeBytes":12}]}`
		want := "Use [Skill: $review; ref=s1] on [File: a.go; ref=f1]\n\n<t3_context version=\"1\">\n" +
			"<context kind=\"file\" id=\"f1\">\nname: a.go\nmimeType: text/x-go\nsizeBytes: 12\nattachmentId: att_1\n</context>\n</t3_context>"
		r := execChipchat(t, in, "codec", "project")
		if wantOK(t, r) && r.stdout != want {
			t.Errorf("got  %q\nwant %q", r.stdout, want)
		}
	})
	t.Run("failing decode", func(t *testing.T) {
		r := execChipchat(t, `{"version":2,"records":[]}`, "codec", "decode")
		wantFail(t, r, 1, "chipchat codec decode: ")
	})
	t.Run("garbage decode", func(t *testing.T) {
		r := execChipchat(t, "\x00\x01 not json", "codec", "decode")
		wantFail(t, r, 1, "chipchat codec decode: ")
	})
	t.Run("usage", func(t *testing.T) {
		r := execChipchat(t, "", "--help")
		if wantOK(t, r) && (!strings.Contains(r.stdout, "Usage:") || !strings.Contains(r.stdout, "--data-dir")) {
			t.Errorf("got %q", r.stdout)
		}
		// Without a terminal the app says so in one line.
		r = execChipchat(t, "", "--data-dir", t.TempDir())
		wantFail(t, r, 1, "chipchat: ")
		if !strings.Contains(r.stderr, "terminal") {
			t.Errorf("got %q", r.stderr)
		}
		r = execChipchat(t, "", "nope")
		wantFail(t, r, 2, `unknown command "nope"`)
	})
}

// TestCodecFragmentHTMLCarriers: with "html" the carrier is the <div> form
// around that HTML, unchanged; both forms decode back to the fragment.
func TestCodecFragmentHTMLCarriers(t *testing.T) {
	frag := `{"version":1,"source":{"environmentId":"env_1"},"records":[{"version":1,"contextId":"th","kind":"thread","label":"Fix","environmentId":"env_a","threadId":"t_1","title":"Fix"}]}`
	div := codec(`{"text":"see T1","html":"<p>see <code>T1</code></p>","fragment":`+frag+`}`, "fragment-html")
	if !wantOK(t, div) || !strings.HasPrefix(div.stdout, `<div data-t3-context-fragment="%7B`) || !strings.HasSuffix(div.stdout, `"><p>see <code>T1</code></p></div>`) {
		t.Fatalf("div carrier: %v", div)
	}
	pre := codec(`{"text":"a < b","fragment":`+frag+`}`, "fragment-html")
	if !wantOK(t, pre) || !strings.HasPrefix(pre.stdout, `<pre data-t3-context-fragment="`) || !strings.HasSuffix(pre.stdout, `">a &lt; b</pre>`) {
		t.Fatalf("pre carrier: %v", pre)
	}
	for _, carrier := range []string{div.stdout, pre.stdout} {
		back := codec(carrier, "fragment-decode")
		if !wantOK(t, back) || !sameJSON(t, []byte(back.stdout), []byte(frag)) {
			t.Errorf("carrier does not decode back: %v", back)
		}
	}
	wantFail(t, codec(`{"text":"x","html":1,"fragment":`+frag+`}`, "fragment-html"), 1, `"html" must be a string`)
}
