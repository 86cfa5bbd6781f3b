package agent

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestElicitFieldValidation(t *testing.T) {
	r, err := acpDecodeElicit([]byte(`{"sessionId":"s","mode":"form","message":"m","requestedSchema":{"properties":{
		"email":{"type":"string","format":"email"},
		"code":{"type":"string","pattern":"^[A-Z]{2}-[0-9]+$","maxLength":6},
		"n":{"type":"number","minimum":0.5,"maximum":2},
		"i":{"type":"integer"},
		"day":{"type":"string","format":"date"},
		"pick":{"type":"array","items":{"anyOf":[{"const":"x","title":"X"},{"const":"y","title":"Y"}]},"minItems":1,"maxItems":1}
	},"required":["i"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	f := r.Form
	cases := []struct {
		field int
		in    ElicitInput
		want  string // "" valid
	}{
		{0, ElicitInput{Text: "ada@example.com"}, ""},
		{0, ElicitInput{Text: "ada at example"}, "an email address"},
		{0, ElicitInput{}, ""}, // not required: left out
		{1, ElicitInput{Text: "AB-12"}, ""},
		{1, ElicitInput{Text: "ab-12"}, "does not match the pattern ^[A-Z]{2}-[0-9]+$"},
		{1, ElicitInput{Text: "AB-1234"}, "at most 6 characters"},
		{2, ElicitInput{Text: "0.4"}, "at least 0.5"},
		{2, ElicitInput{Text: "3"}, "at most 2"},
		{2, ElicitInput{Text: "NaN"}, "a number"},
		{2, ElicitInput{Text: "1.5"}, ""},
		{3, ElicitInput{}, "required"},
		{3, ElicitInput{Text: "1.5"}, "a whole number"},
		{4, ElicitInput{Text: "2026-02-30"}, "a date (YYYY-MM-DD)"},
		{4, ElicitInput{Text: "2026-02-03"}, ""},
		{5, ElicitInput{}, "pick at least 1"},
		{5, ElicitInput{Picked: []int{0, 1}}, "pick at most 1"},
		{5, ElicitInput{Picked: []int{1}}, ""},
	}
	for _, c := range cases {
		_, err := f.Fields[c.field].Value(c.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s %+v: %q, want %q", f.Fields[c.field].Name, c.in, got, c.want)
		}
	}
	if v, _ := f.Fields[3].Value(ElicitInput{Text: " 42 "}); v != int64(42) {
		t.Errorf("integer = %#v", v)
	}
	if v, _ := f.Fields[5].Value(ElicitInput{Picked: []int{1}}); len(v.([]string)) != 1 || v.([]string)[0] != "y" {
		t.Errorf("multi = %#v", v)
	}
}

func TestElicitDecodeRefuses(t *testing.T) {
	for _, p := range []string{
		`{"sessionId":"s","mode":"form","message":"m"}`,
		`{"sessionId":"s","mode":"form","requestedSchema":{"type":"array"}}`,
		`{"sessionId":"s","mode":"form","requestedSchema":{"properties":{"a":{"type":"object"}}}}`,
		`{"sessionId":"s","mode":"form","requestedSchema":{"properties":{"a":{"type":"string"},"a":{"type":"string"}}}}`,
		`{"sessionId":"s","mode":"form","requestedSchema":{"properties":{"a":{"type":"string"}},"required":["b"]}}`,
		`{"sessionId":"s","mode":"form","requestedSchema":{"properties":{"a":{"type":"boolean","default":"yes"}}}}`,
		`{"sessionId":"s","mode":"form","requestedSchema":{"properties":{"a":{"type":"string","enum":[]},"b":{"type":"array"}}}}`,
		`{"sessionId":"s","mode":"form","requestedSchema":{"properties":[1,2]}}`,
		`{"sessionId":"s","mode":"url","elicitationId":"u","url":"javascript:alert(1)"}`,
		`{"sessionId":"s","mode":"url","elicitationId":"u","url":"file:///etc/passwd"}`,
		`{"sessionId":"s","mode":"url","url":"https://example.com"}`,
		`{"sessionId":"s","mode":"telepathy"}`,
		`[1]`,
	} {
		if r, err := acpDecodeElicit([]byte(p)); err == nil {
			t.Errorf("%s decoded as %+v", p, r)
		}
	}
	var b strings.Builder
	b.WriteString(`{"sessionId":"s","mode":"form","requestedSchema":{"properties":{`)
	for i := range ElicitMaxFields + 1 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"f` + strings.Repeat("x", i) + `":{"type":"string"}`)
	}
	b.WriteString("}}}")
	if _, err := acpDecodeElicit([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "more than 32 fields") {
		t.Errorf("33 fields: %v", err)
	}
	r, err := acpDecodeElicit([]byte(`{"sessionId":"s","mode":"form","message":"` + strings.Repeat("é", ElicitMaxText+10) + `","requestedSchema":{}}`))
	if err != nil || utf8.RuneCountInString(r.Message) != ElicitMaxText+1 {
		t.Errorf("long message: %v, %d runes", err, utf8.RuneCountInString(r.Message))
	}
}

func TestElicitRename(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":12,"method":"elicitation/create","params":{"sessionId":"s"}}` + "\n"
	var m map[string]json.RawMessage
	if err := json.Unmarshal(acpRenameElicit([]byte(in)), &m); err != nil {
		t.Fatal(err)
	}
	if string(m["method"]) != `"`+acpElicitMethod+`"` || string(m["id"]) != "12" || string(m["params"]) != `{"sessionId":"s"}` {
		t.Errorf("renamed to %v", m)
	}
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"text":"\"elicitation/create\""}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"x":"elicitation/complete"}}`,
		`not json "elicitation/create`,
	} {
		if got := acpRenameElicit([]byte(s)); string(got) != s {
			t.Errorf("%s renamed to %s", s, got)
		}
	}
}

// FuzzACPDecodeElicit: any params decode or fail without panicking; what
// decodes keeps the bounds, its names are distinct, its defaults validate
// or fail without panicking, and rename keeps id and params.
func FuzzACPDecodeElicit(f *testing.F) {
	f.Add([]byte(`{"sessionId":"s","mode":"form","message":"m","requestedSchema":{"properties":{"a":{"type":"string","enum":["x"],"default":"x"},"b":{"type":"integer","minimum":1,"default":3},"c":{"type":"array","items":{"enum":["p","q"]},"default":["q"]},"d":{"type":"boolean","default":false},"e":{"type":"string","pattern":"a+","minLength":1,"format":"email"}},"required":["a","e"]}}`))
	f.Add([]byte(`{"sessionId":"s","mode":"url","elicitationId":"u","url":"https://h/x","message":"go"}`))
	f.Add([]byte(`{"requestedSchema":{"properties":{"a":{"type":"number","maximum":1e308}}}}`))
	f.Add([]byte(`{"mode":"form","requestedSchema":{"properties":{"\u0000":{"type":"string","oneOf":[{"const":"","title":""}]}}}}`))
	f.Fuzz(func(t *testing.T, params []byte) {
		r, err := acpDecodeElicit(params)
		if err == nil {
			fs := r.Form.Fields
			if len(fs) > ElicitMaxFields {
				t.Fatalf("%d fields", len(fs))
			}
			seen := map[string]bool{}
			for _, fl := range fs {
				if seen[fl.Name] {
					t.Fatalf("%q twice", fl.Name)
				}
				seen[fl.Name] = true
				if len(fl.Choices) > ElicitMaxChoices || utf8.RuneCountInString(fl.Title) > ElicitMaxText+1 {
					t.Fatalf("field %q over the bounds", fl.Name)
				}
			}
			if utf8.RuneCountInString(r.Message) > ElicitMaxText+1 || !utf8.ValidString(r.Message) {
				t.Fatalf("message over the bounds")
			}
			if r.Mode == "url" && !strings.HasPrefix(r.URL, "http") {
				t.Fatalf("url %q", r.URL)
			}
			content, errs, ok := r.Form.Content(r.Form.Inputs())
			if len(errs) != len(fs) || ok && len(content) > len(fs) {
				t.Fatalf("content %v errs %v", content, errs)
			}
			if ok {
				if _, err := json.Marshal(content); err != nil {
					t.Fatalf("content does not encode: %v", err)
				}
			}
		}
		line := append(append([]byte(`{"jsonrpc":"2.0","id":"x","method":"elicitation/create","params":`), params...), "}\n"...)
		out := acpRenameElicit(line)
		if bytes.Equal(out, line) {
			return
		}
		var m struct {
			ID     string          `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(out, &m); err != nil || m.Method != acpElicitMethod || m.ID != "x" {
			t.Fatalf("renamed %q to %q (%v)", line, out, err)
		}
		var a, b any
		if json.Unmarshal(m.Params, &a) == nil && json.Unmarshal(params, &b) == nil {
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if !bytes.Equal(ja, jb) {
				t.Fatalf("params changed: %s → %s", params, m.Params)
			}
		}
	})
}
