package store_test

import (
	"testing"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// Issue 25 item 17: a reply's text mode is stored with it (an exec:
// backend's plain text stays plain under another agent): read back, kept
// by a fork, and "" for the replies of a schema-6 database migrated.
func TestTextModeKeptWithTheReply(t *testing.T) {
	dir := store.CopyFixture(t, "schema6")
	s, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, _ := s.ProjectByKey(fixProject)
	threads, err := s.Threads(p.ID)
	if err != nil || len(threads) == 0 {
		t.Fatal(threads, err)
	}
	old, err := s.Messages(threads[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range old {
		if m.TextMode != "" {
			t.Fatalf("a migrated message has a text mode it never had: %+v", m)
		}
	}
	th, err := s.CreateThread(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := s.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: "ls"})
	plain, err := s.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: "a\nb\n", TextMode: store.TextPlain})
	if err != nil {
		t.Fatal(err)
	}
	md, _ := s.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: "# x", TextMode: store.TextMarkdown})
	want := map[string]string{u.ID: "", plain.ID: store.TextPlain, md.ID: store.TextMarkdown}
	check := func(threadID string, byPos bool) {
		t.Helper()
		ms, err := s.Messages(threadID)
		if err != nil {
			t.Fatal(err)
		}
		modes := []string{"", store.TextPlain, store.TextMarkdown}
		if len(ms) != 3 {
			t.Fatalf("%d messages", len(ms))
		}
		for i, m := range ms {
			w := want[m.ID]
			if byPos {
				w = modes[i]
			}
			if m.TextMode != w {
				t.Errorf("message %d (%s): text mode %q, want %q", i, m.Role, m.TextMode, w)
			}
		}
	}
	check(th.ID, false)
	f, err := s.ForkThread(p.ID, th.ID, md.ID)
	if err != nil {
		t.Fatal(err)
	}
	check(f.ID, true)
}
