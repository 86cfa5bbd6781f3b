package agent

import (
	"context"
	"testing"

	"github.com/chipchat/chipchat/message"
)

// ItemPuts waiting in the queue coalesce per kind and key (the last wins,
// at the first one's place); a Permission is a barrier they do not cross.
func TestACPItemPutsCoalesce(t *testing.T) {
	turn := newACPTurn(context.Background())
	put := func(key, text string) ItemPut {
		return ItemPut{Key: key, Item: message.Item{Kind: message.ItemNotice, Text: text}}
	}
	turn.mu.Lock()
	turn.push(put("a", "a1"), TextDelta{"x"}, put("b", "b1"), put("a", "a2"),
		ItemPut{Key: "a", Item: message.Item{Kind: message.ItemPlan}},
		Permission{}, put("a", "a3"), put("a", "a4"))
	turn.mu.Unlock()
	var got []string
	turn.flush(func(e Event) {
		switch e := e.(type) {
		case ItemPut:
			got = append(got, string(e.Item.Kind)+":"+e.Key+":"+e.Item.Text)
		case TextDelta:
			got = append(got, "text:"+e.Text)
		case Permission:
			got = append(got, "permission")
		}
	})
	want := []string{"notice:a:a2", "text:x", "notice:b:b1", "plan:a:", "permission", "notice:a:a4"}
	if len(got) != len(want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("events %q, want %q", got, want)
		}
	}
	// After a flush, a put queues anew.
	turn.mu.Lock()
	turn.push(put("a", "a5"))
	turn.mu.Unlock()
	n := 0
	turn.flush(func(Event) { n++ })
	if n != 1 {
		t.Errorf("%d events after the flush, want 1", n)
	}
}
