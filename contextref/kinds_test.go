package contextref

import (
	"bytes"
	"strings"
	"testing"
)

// TestKindTableCoversEveryKind fails when a known kind lacks a surface of
// the contract: a table entry with a decoder, a projection body (or no
// entry by design), and a sample record that encodes, decodes to the same
// bytes, is recognised as its kind and projects as the kind says.
func TestKindTableCoversEveryKind(t *testing.T) {
	if len(Specs()) != len(KnownKinds) {
		t.Fatalf("%d specs for %d kinds", len(Specs()), len(KnownKinds))
	}
	for i, kind := range KnownKinds {
		spec, ok := Spec(kind)
		if !ok || Specs()[i].Kind != kind {
			t.Errorf("kind %q has no spec (or not in KnownKinds order)", kind)
			continue
		}
		if !spec.HasDecoder() || !spec.HasBody() || spec.sample == nil || spec.owns == nil {
			t.Errorf("kind %q lacks a surface", kind)
			continue
		}
		r := spec.Sample()
		raw, err := MarshalRecord(r)
		if err != nil {
			t.Fatal(err)
		}
		d, err := DecodeRecord(raw)
		if err != nil {
			t.Errorf("kind %q: sample does not decode: %v\n%s", kind, err, raw)
			continue
		}
		again, _ := MarshalRecord(d)
		if !bytes.Equal(raw, again) {
			t.Errorf("kind %q: sample changes when decoded:\n%s\n%s", kind, raw, again)
		}
		if !RecordOfKind(d, kind) || !IsKnownKind(kind) {
			t.Errorf("kind %q: decoded sample is not recognised", kind)
		}
		out := Project("see "+LinkFor(d), []Record{d})
		entry := strings.Contains(out, `<context kind="`+kind+`" id="`+d.RecordBase().ContextID+`">`)
		if entry != spec.Entry {
			t.Errorf("kind %q: entry %v, want %v:\n%s", kind, entry, spec.Entry, out)
		}
		if spec.Entry && !strings.Contains(out, spec.Body(d)) {
			t.Errorf("kind %q: the entry does not hold the body:\n%s", kind, out)
		}
	}
}

func TestThreadAndReviewFields(t *testing.T) {
	// A forward-compatible thread record with a payload fails its own schema.
	if _, err := DecodeRecord([]byte(`{"version":1,"contextId":"t","kind":"thread","label":"T","payload":{}}`)); err == nil {
		t.Error("a thread record without its fields must fail")
	}
	if _, err := DecodeRecord([]byte(`{"version":1,"contextId":"t","kind":"thread","label":"T","environmentId":" ","threadId":"x","title":""}`)); err == nil {
		t.Error("a blank environmentId must fail")
	}
	long := strings.Repeat("e", 5000)
	r, err := DecodeRecord([]byte(`{"version":1,"contextId":"t","kind":"thread","label":"T","environmentId":"` + long + `","threadId":"x","title":""}`))
	if err != nil {
		t.Errorf("ids have no length bound: %v", err)
	} else if got := strings.Split(Project("[t](t3-context://v1/thread/t)", []Record{r}), "\n"); got[4] != "title: " {
		t.Errorf("an empty title gives %q", got[4])
	}
	base := `{"version":1,"contextId":"r","kind":"review-comment","label":"L","sectionId":"s","sectionTitle":"S","filePath":"f","startIndex":1,"endIndex":2,"rangeLabel":"R","text":"","diff":""`
	for _, bad := range []string{`,"sourceStale":null`, `,"sourceStale":"true"`, `,"sourceStale":1`, `,"sourceRevision":null`, `,"sourceRevision":"` + strings.Repeat("a", 65) + `"`} {
		if _, err := DecodeRecord([]byte(base + bad + `}`)); err == nil {
			t.Errorf("%s must fail the record", bad)
		}
	}
	r, err = DecodeRecord([]byte(base + `,"pullRequest":{"number":1,"title":"","url":"","headBranch":"","baseBranch":"","state":"open","isDraft":false},"sourceStale":false,"sourceRevision":"","fenceLanguage":"go"}`))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := MarshalRecord(r)
	if !bytes.Contains(raw, []byte(`"fenceLanguage":"go","sourceRevision":"","sourceStale":false,"pullRequest":`)) {
		t.Errorf("field order: %s", raw)
	}
	out := Project("[r](t3-context://v1/review-comment/r)", []Record{r})
	if strings.Contains(out, "source revision") || strings.Contains(out, StaleSourceLine) {
		t.Errorf("sourceStale false and an empty revision add nothing:\n%s", out)
	}
}
