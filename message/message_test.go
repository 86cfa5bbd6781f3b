package message

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// An item's data keeps <, > and & of its raw output literal, and reads
// back the same.
func TestDataKeepsAngleBrackets(t *testing.T) {
	out := json.RawMessage(`{"stdout":"a <b> & c"}`)
	it := Item{Kind: ItemTool, Tool: &Tool{CallID: "c1", Title: "x < y && z", RawOutput: out}}
	data, err := it.Data()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `\u003c`) || strings.Contains(string(data), `\u0026`) || !strings.Contains(string(data), `a <b> & c`) {
		t.Fatalf("data: %s", data)
	}
	var back Item
	if err := back.SetData(data); err != nil {
		t.Fatal(err)
	}
	if back.Tool.Title != it.Tool.Title || string(back.Tool.RawOutput) != string(out) {
		t.Fatalf("read back: %+v", back.Tool)
	}
}

// Settle ends only an unfinished call: cancelled without a reason, failed
// with one; its end time is kept when it has one.
func TestSettle(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		status    string
		cancelled bool
		want      string
		reason    string
		settled   bool
	}{
		{ToolPending, false, ToolFailed, ReasonTurnEnded, true},
		{ToolInProgress, false, ToolFailed, ReasonTurnEnded, true},
		{"", true, ToolCancelled, "", true},
		{ToolInProgress, true, ToolCancelled, "", true},
		{ToolCompleted, true, ToolCompleted, "", false},
		{ToolFailed, false, ToolFailed, "", false},
		{ToolCancelled, false, ToolCancelled, "", false},
	} {
		tool := Tool{Status: c.status}
		got := tool.Settle(c.cancelled, ReasonTurnEnded, at)
		if got != c.settled || tool.Status != c.want || tool.Reason != c.reason {
			t.Errorf("%q cancelled=%v: settled %v, %q %q; want %v, %q %q", c.status, c.cancelled, got, tool.Status, tool.Reason, c.settled, c.want, c.reason)
		}
		if c.settled && !tool.Ended.Equal(at) {
			t.Errorf("%q: ended %v", c.status, tool.Ended)
		}
	}
}

// FindDiff finds the diff of a path in one item's tool call only.
func TestFindDiff(t *testing.T) {
	items := []Item{
		{ID: "a", Tool: &Tool{Content: []ToolContent{{Type: ContentDiff, Path: "x.go", NewText: "a"}}}},
		{ID: "b", Tool: &Tool{Content: []ToolContent{{Type: ContentText, Path: "x.go"}, {Type: ContentDiff, Path: "x.go", NewText: "b"}}}},
		{ID: "c"},
	}
	if d := FindDiff(items, "b", "x.go"); d == nil || d.NewText != "b" {
		t.Fatalf("b: %+v", d)
	}
	if FindDiff(items, "b", "y.go") != nil || FindDiff(items, "c", "x.go") != nil || FindDiff(items, "z", "x.go") != nil {
		t.Fatal("a diff where there is none")
	}
}
