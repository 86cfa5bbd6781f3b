package store

import (
	"errors"
	"testing"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

func TestHistoryNewestFirstSharedAndDeduplicated(t *testing.T) {
	dir := t.TempDir()
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(dir) // a second process on the same data dir
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, _ := a.Project("/proj")
	other, _ := a.Project("/other")
	rec := &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "m1", "main.go"), Path: "main.go"}
	for _, add := range []struct {
		st *Store
		md string
	}{{a, "first"}, {b, "second [main.go](t3-context://v1/mention/m1)"}, {b, "second [main.go](t3-context://v1/mention/m1)"}, {a, "third"}} {
		var recs []contextref.Record
		if add.md != "first" && add.md != "third" {
			recs = []contextref.Record{rec}
		}
		if err := add.st.AddHistory(p.ID, add.md, recs); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.AddHistory(other.ID, "elsewhere", nil); err != nil {
		t.Fatal(err)
	}
	h, err := b.History(p.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 3 || h[0].Markdown != "third" || h[2].Markdown != "first" {
		t.Fatalf("history = %+v", h)
	}
	if len(h[1].Records) != 1 || h[1].Records[0].RecordBase().ContextID != "m1" {
		t.Fatalf("the second prompt's records: %+v", h[1].Records)
	}
	if h, _ := a.History(p.ID, 1); len(h) != 1 || h[0].Markdown != "third" {
		t.Fatalf("limit 1: %+v", h)
	}
}

func TestHistoryKeepsMaxHistory(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/proj")
	for i := 0; i < MaxHistory+5; i++ {
		if err := s.AddHistory(p.ID, "prompt "+string(rune('a'+i%26))+string(rune('a'+i/26%26)), nil); err != nil {
			t.Fatal(err)
		}
	}
	h, err := s.History(p.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != MaxHistory {
		t.Fatalf("%d entries kept, want %d", len(h), MaxHistory)
	}
}

// A thread NewThread made is stored only with its first message or draft.
func TestNewThreadIsStoredLazily(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/proj")
	left := s.NewThread(p.ID) // opened and left
	if ts, _ := s.Threads(p.ID); len(ts) != 0 {
		t.Fatalf("an unsaved thread is listed: %+v", ts)
	}
	if got, err := s.Thread(left.ID); err != nil || got.ID != left.ID {
		t.Fatalf("Thread of an unsaved thread = %+v, %v", got, err)
	}
	if err := s.SaveDraft(Draft{ThreadID: left.ID}); err != nil { // an empty draft stores nothing
		t.Fatal(err)
	}
	if ts, _ := s.Threads(p.ID); len(ts) != 0 {
		t.Fatalf("an empty draft stored the thread: %+v", ts)
	}
	drafted := s.NewThread(p.ID)
	if _, err := s.SaveDraftOver(Draft{ThreadID: drafted.ID, Markdown: "typing"}, 0, 0); err != nil {
		t.Fatal(err)
	}
	sent := s.NewThread(p.ID)
	if _, err := s.AddMessage(Message{ThreadID: sent.ID, Role: message.RoleUser, Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	ts, _ := s.Threads(p.ID)
	if len(ts) != 2 {
		t.Fatalf("threads = %+v, want the drafted and the sent one", ts)
	}
	if ts[0].ID != sent.ID || ts[0].Title != "hello" {
		t.Fatalf("newest = %+v", ts[0])
	}
	if err := s.DeleteThread(left.ID); err != nil {
		t.Fatalf("deleting an unsaved thread: %v", err)
	}
	if _, err := s.Thread(left.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the deleted unsaved thread is still found: %v", err)
	}
}
