package store

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/chipchat/chipchat/message"
)

// Every item kind's sample (message.Specs), written while a reply streams
// and as a whole new reply, reads back with all its fields, after a
// reopen too.
func TestEveryItemKindRoundTrips(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	th, r := newReply(t, s)
	var items []message.Item
	var ws []ItemWrite
	for pos, spec := range message.Specs {
		it := spec.Sample()
		it.ID = fmt.Sprintf("item_%d", pos+1)
		items = append(items, it)
		meta := it
		meta.Text = ""
		ws = append(ws, ItemWrite{Pos: pos, Item: meta, Meta: true, Append: it.Text})
	}
	if err := s.WriteReply(r.ID, ws, message.StatusDone); err != nil {
		t.Fatal(err)
	}
	whole, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleAssistant, Status: message.StatusDone, Items: items})
	if err != nil {
		t.Fatal(err)
	}
	check := func(s *Store, when string) {
		msgs, err := s.Messages(th.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			if m.ID != r.ID && m.ID != whole.ID {
				continue
			}
			if len(m.Items) != len(items) {
				t.Fatalf("%s: reply %s has %d items, want %d", when, m.ID, len(m.Items), len(items))
			}
			for k, it := range m.Items {
				if !reflect.DeepEqual(it, items[k]) {
					t.Errorf("%s: %s item of reply %s reads back as\n %+v\nwant %+v", when, items[k].Kind, m.ID, it, items[k])
				}
			}
		}
	}
	check(s, "open")
	s.Close()
	check(open(t, dir), "reopened")
}
