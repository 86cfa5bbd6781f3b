package contextref

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// vectors is the shape of testdata/vectors.json (shared conformance vectors).
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
		Text   string       `json:"text"`
		Output []Occurrence `json:"output"`
	} `json:"parse"`
	Project []struct {
		Input struct {
			Text    string            `json:"text"`
			Records []json.RawMessage `json:"records"`
		} `json:"input"`
		Output string `json:"output"`
	} `json:"project"`
	Decode []struct {
		Input  json.RawMessage `json:"input"`
		Output json.RawMessage `json:"output"`
	} `json:"decode"`
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
		Name  string `json:"name"`
		Input struct {
			Text    string            `json:"text"`
			Records []json.RawMessage `json:"records"`
		} `json:"input"`
		Output string `json:"output"`
	} `json:"projectExpand"`
	Upgrade []struct {
		Text   string `json:"text"`
		Output struct {
			Text    string            `json:"text"`
			Records []json.RawMessage `json:"records"`
		} `json:"output"`
	} `json:"upgrade"`
}

func loadVectors(t testing.TB) vectors {
	t.Helper()
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// jsonEqual compares two JSON texts as values.
func jsonEqual(t testing.TB, got, want []byte) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("want is not JSON: %v: %s", err, want)
	}
	return reflect.DeepEqual(g, w)
}

func TestVectorsContextID(t *testing.T) {
	for _, c := range loadVectors(t).ContextID {
		if got := ToContextID(c.Input); got != c.Output {
			t.Errorf("ToContextID(%q) = %q, want %q", c.Input, got, c.Output)
		}
	}
}

func TestVectorsLabel(t *testing.T) {
	for _, c := range loadVectors(t).Label {
		if got := SanitizeLabel(c.Label, c.Kind); got != c.Output {
			t.Errorf("SanitizeLabel(%q, %q) = %q, want %q", c.Label, c.Kind, got, c.Output)
		}
	}
}

func TestVectorsParse(t *testing.T) {
	for _, c := range loadVectors(t).Parse {
		got := Scan(c.Text)
		if len(got) == 0 && len(c.Output) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.Output) {
			t.Errorf("Scan(%q)\n got %+v\nwant %+v", c.Text, got, c.Output)
		}
	}
}

// decodeEach decodes records one by one, dropping undecodable ones.
func decodeEach(t testing.TB, raws []json.RawMessage) []Record {
	var recs []Record
	for _, raw := range raws {
		if r, err := DecodeRecord(raw); err == nil {
			recs = append(recs, r)
		}
	}
	return recs
}

func TestVectorsProject(t *testing.T) {
	for i, c := range loadVectors(t).Project {
		got := Project(c.Input.Text, decodeEach(t, c.Input.Records))
		if got != c.Output {
			t.Errorf("project vector %d:\n got %q\nwant %q", i, got, c.Output)
		}
	}
}

func TestVectorsDecode(t *testing.T) {
	for i, c := range loadVectors(t).Decode {
		ctx, _, err := DecodeContext(c.Input)
		if string(c.Output) == "null" {
			if err == nil {
				t.Errorf("decode vector %d: want the whole context to fail, got %d records", i, len(ctx.Records))
			}
			continue
		}
		if err != nil {
			t.Errorf("decode vector %d: %v", i, err)
			continue
		}
		got, err := ctx.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !jsonEqual(t, got, c.Output) {
			t.Errorf("decode vector %d:\n got %s\nwant %s", i, got, c.Output)
			continue
		}
		// Field order too (DESIGN.md 3.1): the vectors list keys in it.
		var want bytes.Buffer
		if err := json.Compact(&want, c.Output); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("decode vector %d: field order\n got %s\nwant %s", i, got, want.Bytes())
		}
	}
}

func TestVectorsCitationParse(t *testing.T) {
	v := loadVectors(t)
	if len(v.CitationParse) == 0 {
		t.Fatal("no citationParse vectors")
	}
	for _, c := range v.CitationParse {
		got, err := ParseCitationHref(c.Href)
		if string(c.Output) == "null" {
			if err == nil {
				t.Errorf("%s: %q parsed, want a failure", c.Name, c.Href)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %q: %v", c.Name, c.Href, err)
			continue
		}
		raw, err := MarshalCitation(got)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.Compact(&want, c.Output); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(raw, want.Bytes()) {
			t.Errorf("%s:\n got %s\nwant %s", c.Name, raw, want.Bytes())
		}
	}
}

func TestVectorsExpand(t *testing.T) {
	v := loadVectors(t)
	if len(v.Expand) == 0 || len(v.ProjectExpand) == 0 {
		t.Fatal("no expand or projectExpand vectors")
	}
	for _, c := range v.Expand {
		if got := ExpandCitations(c.Text); got != c.Output {
			t.Errorf("expand %s:\n got %q\nwant %q", c.Name, got, c.Output)
		}
		if got := ProjectForProvider(c.Text, nil); got != c.Output {
			t.Errorf("expand %s through ProjectForProvider:\n got %q\nwant %q", c.Name, got, c.Output)
		}
	}
	for _, c := range v.ProjectExpand {
		if got := ProjectForProvider(c.Input.Text, decodeEach(t, c.Input.Records)); got != c.Output {
			t.Errorf("projectExpand %s:\n got %q\nwant %q", c.Name, got, c.Output)
		}
	}
	// The projection vectors hold no valid citation: the provider reads
	// exactly the projection.
	for i, c := range v.Project {
		if got := ProjectForProvider(c.Input.Text, decodeEach(t, c.Input.Records)); got != c.Output {
			t.Errorf("project vector %d through ProjectForProvider:\n got %q\nwant %q", i, got, c.Output)
		}
	}
}
