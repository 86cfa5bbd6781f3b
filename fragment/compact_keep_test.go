package fragment

import "testing"

// A compaction's summary survives every next turn's rebuild (Fork), and a
// later compaction drops it (UserWords) in favour of the new one.
func TestForkKeepsTheSummaryCompactReplacesIt(t *testing.T) {
	r := Standard()
	sum := Render(ConversationSummary{Text: "old summary"})
	history := []Message{{Role: RoleUser, Parts: []string{"words"}}, {Role: RoleUser, Parts: []string{sum}}}
	forked, err := r.Fork(history, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(forked) != 2 || forked[1].Parts[0] != sum {
		t.Fatalf("Fork dropped the summary: %+v", forked)
	}
	compacted, err := r.Compact(history, "new summary", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(compacted) != 2 || compacted[0].Parts[0] != "words" || compacted[1].Parts[0] != Render(ConversationSummary{Text: "new summary"}) {
		t.Fatalf("Compact: %+v", compacted)
	}
}
