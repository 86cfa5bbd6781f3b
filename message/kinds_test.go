package message

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// Every ItemKind constant this package declares has its entry in Specs
// (so in Kinds), each entry once, with a sample of its own kind.
func TestEveryKindConstantHasASpec(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var consts []ItemKind
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "ItemKind" {
					continue
				}
				for _, lit := range v.Values {
					b, ok := lit.(*ast.BasicLit)
					if !ok {
						t.Fatalf("%s: an ItemKind constant that is not a string literal", fset.Position(lit.Pos()))
					}
					var k string
					if err := json.Unmarshal([]byte(b.Value), &k); err != nil {
						t.Fatal(err)
					}
					consts = append(consts, ItemKind(k))
				}
			}
		}
	}
	if len(consts) < 6 {
		t.Fatalf("found %d ItemKind constants: the parse is wrong", len(consts))
	}
	for _, k := range consts {
		if !slices.Contains(Kinds, k) {
			t.Errorf("item kind %q has no entry in Specs", k)
		}
	}
	seen := map[ItemKind]bool{}
	for _, s := range Specs {
		if seen[s.Kind] {
			t.Errorf("item kind %q is in Specs twice", s.Kind)
		}
		seen[s.Kind] = true
		if !slices.Contains(consts, s.Kind) {
			t.Errorf("item kind %q has no constant", s.Kind)
		}
		if s.Sample == nil {
			t.Errorf("item kind %q has no sample", s.Kind)
			continue
		}
		if got := s.Sample().Kind; got != s.Kind {
			t.Errorf("the sample of %q is of kind %q", s.Kind, got)
		}
		if !s.Kind.Valid() || s.Kind.Grows() != s.Grows {
			t.Errorf("%q: Valid %v, Grows %v", s.Kind, s.Kind.Valid(), s.Kind.Grows())
		}
	}
	if ItemKind("hologram").Valid() || ItemKind("hologram").Grows() {
		t.Error("an unknown kind is valid or grows")
	}
}

// dataFields are Item's fields other than ID, Kind and Text: what the
// store keeps as the item's data.
func dataFields(t *testing.T) []reflect.StructField {
	var out []reflect.StructField
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Item]()) {
		switch f.Name {
		case "ID", "Kind", "Text", "Chunks":
			if f.Tag.Get("json") != "-" {
				t.Errorf("Item.%s is stored in the data too (json tag %q)", f.Name, f.Tag.Get("json"))
			}
			continue
		}
		out = append(out, f)
	}
	return out
}

// Every field of Item is used by some kind's sample, and each sample's
// fields read back from its data as they were: a field added to Item is
// stored, or this fails.
func TestSamplesRoundTripEveryField(t *testing.T) {
	used := map[string]bool{}
	for _, s := range Specs {
		it := s.Sample()
		v := reflect.ValueOf(it)
		for _, f := range dataFields(t) {
			if !v.FieldByIndex(f.Index).IsZero() {
				used[f.Name] = true
			}
		}
		data, err := it.Data()
		if err != nil {
			t.Fatalf("%s: %v", s.Kind, err)
		}
		back := Item{ID: it.ID, Kind: it.Kind, Text: it.Text}
		if err := back.SetData(data); err != nil {
			t.Fatalf("%s: %v", s.Kind, err)
		}
		if !reflect.DeepEqual(back, it) {
			t.Errorf("%s does not read back from its data %s:\n got %+v\nwant %+v", s.Kind, data, back, it)
		}
	}
	for _, f := range dataFields(t) {
		if !used[f.Name] {
			t.Errorf("Item.%s is set by no kind's sample (KindSpec.Sample)", f.Name)
		}
	}
}

// An item that sets any one field has data holding it, and one that sets
// none has none: no field is left out of what the store keeps.
func TestDataHoldsEachFieldAlone(t *testing.T) {
	full := Item{}
	fv := reflect.ValueOf(&full).Elem()
	for _, s := range Specs {
		sv := reflect.ValueOf(s.Sample())
		for _, f := range dataFields(t) {
			if x := sv.FieldByIndex(f.Index); !x.IsZero() {
				fv.FieldByIndex(f.Index).Set(x)
			}
		}
	}
	if d, err := (Item{ID: "i", Kind: ItemText, Text: "hi"}).Data(); err != nil || d != nil {
		t.Fatalf("an item without fields has data %q (%v)", d, err)
	}
	for _, f := range dataFields(t) {
		one := Item{Kind: "x"}
		reflect.ValueOf(&one).Elem().FieldByIndex(f.Index).Set(fv.FieldByIndex(f.Index))
		data, err := one.Data()
		if err != nil || data == nil {
			t.Errorf("an item with only %s set has no data (%v)", f.Name, err)
			continue
		}
		var back Item
		if err := back.SetData(data); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(reflect.ValueOf(back).FieldByIndex(f.Index).Interface(), fv.FieldByIndex(f.Index).Interface()) {
			t.Errorf("%s does not read back from %s", f.Name, data)
		}
	}
}

// toolUpdateSample sets every field of a ToolUpdate.
func toolUpdateSample(t *testing.T) ToolUpdate {
	s := func(v string) *string { return &v }
	u := ToolUpdate{CallID: "c1", Kind: s("execute"), Title: s("make"), Status: s(ToolCompleted),
		Locations: []Location{{Path: "Makefile"}}, RawInput: json.RawMessage(`{"command":"make"}`),
		RawOutput: json.RawMessage(`{"stdout":"ok"}`), Content: []ToolContent{{Type: ContentText, Text: "ok"}}}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[ToolUpdate]()) {
		if reflect.ValueOf(u).FieldByIndex(f.Index).IsZero() {
			t.Fatalf("toolUpdateSample leaves ToolUpdate.%s unset", f.Name)
		}
	}
	return u
}

// Each field of a ToolUpdate, set alone, changes the call's field of the
// same name (Apply), survives Then over an empty update and replaces an
// earlier one, and makes the update not Empty; the lists Apply gives are
// copies.
func TestToolUpdateFoldsEveryField(t *testing.T) {
	full := toolUpdateSample(t)
	fv := reflect.ValueOf(full)
	if (ToolUpdate{CallID: "c1"}).Empty() != true {
		t.Fatal("an update of no field is not Empty")
	}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[ToolUpdate]()) {
		if f.Name == "CallID" {
			continue
		}
		one := ToolUpdate{CallID: "c1"}
		reflect.ValueOf(&one).Elem().FieldByIndex(f.Index).Set(fv.FieldByIndex(f.Index))
		if one.Empty() {
			t.Errorf("an update of %s is Empty", f.Name)
		}
		tool := Tool{CallID: "c1", Kind: "read", Title: "old", Status: ToolPending, Locations: []Location{{Path: "old"}},
			RawInput: json.RawMessage(`1`), RawOutput: json.RawMessage(`2`), Content: []ToolContent{{Type: ContentText, Text: "old"}}}
		before := tool
		one.Apply(&tool)
		got := reflect.ValueOf(tool).FieldByName(f.Name)
		if !got.IsValid() {
			t.Errorf("Tool has no field %s for ToolUpdate's", f.Name)
			continue
		}
		want := fv.FieldByIndex(f.Index)
		if want.Kind() == reflect.Pointer {
			want = want.Elem()
		}
		if !reflect.DeepEqual(got.Interface(), want.Interface()) {
			t.Errorf("Apply of %s: the call has %v, want %v", f.Name, got, want)
		}
		// Nothing else changed.
		reflect.ValueOf(&before).Elem().FieldByName(f.Name).Set(got)
		if !reflect.DeepEqual(before, tool) {
			t.Errorf("Apply of %s changed other fields: %+v", f.Name, tool)
		}
		if got.Kind() == reflect.Slice && got.Len() > 0 && want.Kind() == reflect.Slice && f.Name != "RawInput" && f.Name != "RawOutput" &&
			got.Index(0).Addr().Pointer() == want.Index(0).Addr().Pointer() {
			t.Errorf("Apply of %s shares the update's list", f.Name)
		}
		joined := (ToolUpdate{CallID: "c1"}).Then(one)
		if !reflect.DeepEqual(joined, one) {
			t.Errorf("Then dropped %s: %+v", f.Name, joined)
		}
		if back := one.Then(ToolUpdate{CallID: "c1"}); !reflect.DeepEqual(back, one) {
			t.Errorf("Then of an empty update lost %s", f.Name)
		}
	}
	// A later field wins.
	done := ToolCompleted
	failed := ToolFailed
	if got := (ToolUpdate{Status: &done}).Then(ToolUpdate{Status: &failed}); *got.Status != ToolFailed {
		t.Errorf("Then kept the earlier status %q", *got.Status)
	}
}
