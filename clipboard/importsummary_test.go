package clipboard

import (
	"testing"

	"github.com/chipchat/chipchat/contextref"
)

func TestImportResultSummary(t *testing.T) {
	note, isErr := ImportResult{Records: make([]contextref.Record, 2)}.Summary("pasted")
	if note != "pasted with 2 chip record(s)" || isErr {
		t.Fatalf("no notes: %q %v", note, isErr)
	}
	note, isErr = ImportResult{Notes: []string{"a.png stays unresolved: gone", "b"}}.Summary("stash entry restored")
	if note != "stash entry restored with 0 chip record(s) · a.png stays unresolved: gone; b" || !isErr {
		t.Fatalf("notes: %q %v", note, isErr)
	}
}
