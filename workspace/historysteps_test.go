package workspace

import "testing"

// Up goes back through the entries and stays at the oldest; down comes
// forward and from the newest back to the typed draft; a recall's number
// says which import is the latest; the history read while stepping waits.
func TestHistorySteps(t *testing.T) {
	var h HistorySteps
	if s, _ := h.Up(); s != NoStep {
		t.Fatalf("up with no history: %v, want the editor's key", s)
	}
	h.Read([]HistoryEntry{{Markdown: "new"}, {Markdown: "old"}})
	if s, start := h.Up(); s != Show || !start {
		t.Fatalf("first up: %v %v", s, start)
	}
	if e, _ := h.Shown(); e.Markdown != "new" {
		t.Fatalf("shown %q", e.Markdown)
	}
	h.Read([]HistoryEntry{{Markdown: "other"}})
	if s, start := h.Up(); s != Show || start {
		t.Fatalf("second up: %v %v", s, start)
	}
	e, seq := h.Shown()
	if e.Markdown != "old" || !h.Latest(seq) {
		t.Fatalf("shown %q, latest %v", e.Markdown, h.Latest(seq))
	}
	if s, _ := h.Up(); s != Stay {
		t.Fatalf("up at the oldest: %v", s)
	}
	if h.Down() != Show || h.Latest(seq) {
		t.Fatal("down shows the newer entry, and the older recall is no longer the latest")
	}
	if h.Down() != Back || h.Stepping() || h.Down() != NoStep {
		t.Fatal("down from the newest goes back to the draft and ends the stepping")
	}
	h.Choose(1)
	if e, _ := h.Shown(); e.Markdown != "old" || !h.Stepping() {
		t.Fatalf("the search's choice: %q", e.Markdown)
	}
}
