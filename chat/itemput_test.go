package chat

import (
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
)

// An ItemPut adds its item once per kind and key; a later put of the same
// kind and key changes that item's fields (its text stays the first
// put's), another key adds another item, and a put of an unknown kind is
// dropped; all of it is stored.
func TestItemPutAddsThenChanges(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.send("go")
	ft := e.turn()
	rs := until[ReplyStarted](e, nil)
	ft.emit(agent.TextDelta{Text: "Running it."})
	ft.emit(agent.ItemPut{Key: "t1", Item: message.Item{Kind: message.ItemNotice, Text: "first", StderrTail: "one"}})
	ft.emit(agent.ItemPut{Key: "t2", Item: message.Item{Kind: message.ItemNotice, Text: "other"}})
	ft.emit(agent.ItemPut{Key: "t1", Item: message.Item{Kind: "hologram", Text: "dropped"}})
	ft.emit(agent.ItemPut{Key: "t1", Item: message.Item{Kind: message.ItemNotice, Text: "ignored", Level: "error", StderrTail: "two"}})
	ft.emit(agent.TextDelta{Text: "Done."})
	until[ItemChanged](e, func(c ItemChanged) bool { return c.Index == 3 && c.Item.Text == "Done." })
	ft.end <- nil
	until[ReplyFinished](e, replyIs(rs.Reply.ID))
	items := e.messages()[1].Items
	if len(items) != 4 {
		t.Fatalf("items: %+v", items)
	}
	if it := items[1]; it.Kind != message.ItemNotice || it.Text != "first" || it.Level != "error" || it.StderrTail != "two" {
		t.Errorf("the put item: %+v", it)
	}
	if it := items[2]; it.Text != "other" || it.Level != "" {
		t.Errorf("the second key: %+v", it)
	}
	if items[0].Text != "Running it." || items[3].Text != "Done." {
		t.Errorf("the text around the puts: %q %q", items[0].Text, items[3].Text)
	}
}
