package vtscreen

import "testing"

// RowDiff names the section and screen row of each differing row, the
// wanted row first, and says nothing of equal rows.
func TestRowDiff(t *testing.T) {
	want := "-- text --\nheader\nbody\n-- looks --\n####\n...\n"
	got := "-- text --\nheader\nbodY\n-- looks --\n####\n..~\n"
	if d := RowDiff(got, want); d != "text y=1:\n  -body\n  +bodY\nlooks y=1:\n  -...\n  +..~\n" {
		t.Fatalf("diff:\n%s", d)
	}
	if d := RowDiff(want, want); d != "" {
		t.Fatalf("equal screens: %q", d)
	}
	if d := RowDiff(want+"extra\n", want); d != "looks y=2:\n  -\n  +extra\n" {
		t.Fatalf("a longer screen: %q", d)
	}
}
