package store_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

func hitIDs(t *testing.T, s *store.Store, q store.SearchQuery) []string {
	t.Helper()
	hits, err := s.Search(q)
	if err != nil {
		t.Fatalf("Search(%+v): %v", q, err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.MessageID)
	}
	return ids
}

// The schema-6 fixture migrated to schema 9: every message stored before
// the index existed is found (a user message by its text and its chips'
// labels, not their links; a reply by its thought and its tool call's
// output), in its project or in every project.
func TestSearchIndexBuiltForTheSchema6Fixture(t *testing.T) {
	s, err := store.Open(store.CopyFixture(t, "schema6"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, _ := s.ProjectByKey(fixProject)
	other, _ := s.ProjectByKey(fixOther)
	hits, err := s.Search(store.SearchQuery{Text: "unicode", ProjectID: p.ID})
	if err != nil || len(hits) != 2 { // Alpha's message and its fork's copy
		t.Fatalf("unicode (diacritics folded): %+v, %v", hits, err)
	}
	var h store.SearchHit
	for _, x := range hits {
		if x.MessageID == "msg_fix6_a1" {
			h = x
		}
	}
	if h.ThreadTitle != "Alpha" || h.Role != message.RoleUser || !h.Created.Equal(fixAt(1)) || !strings.Contains(h.Snippet, store.MarkOn+"ünïcödé"+store.MarkOff) {
		t.Fatalf("the hit %+v", h)
	}
	if ids := hitIDs(t, s, store.SearchQuery{Text: "notes.pdf", ProjectID: p.ID}); !slices.Contains(ids, "msg_fix6_a1") {
		t.Fatalf("a chip's label: %v", ids)
	}
	if ids := hitIDs(t, s, store.SearchQuery{Text: "t3-context", ProjectID: p.ID}); len(ids) != 0 {
		t.Fatalf("the links' addresses are indexed: %v", ids)
	}
	for q, id := range map[string]string{"running the tests": "msg_fix6_a2", "tests fixed": "msg_fix6_a2", "typed while": "msg_fix6_b3"} {
		if ids := hitIDs(t, s, store.SearchQuery{Text: q}); !slices.Contains(ids, id) {
			t.Errorf("%q: %v, want %s", q, ids, id)
		}
	}
	if ids := hitIDs(t, s, store.SearchQuery{Text: "gamma", ProjectID: p.ID}); len(ids) != 0 {
		t.Fatalf("another project's message in this project's search: %v", ids)
	}
	if ids := hitIDs(t, s, store.SearchQuery{Text: "gamma"}); !slices.Contains(ids, "msg_fix6_g1") {
		t.Fatalf("every project: %v", ids)
	}
	if ids := hitIDs(t, s, store.SearchQuery{Text: "gamma", ProjectID: other.ID}); !slices.Contains(ids, "msg_fix6_g1") {
		t.Fatalf("the other project: %v", ids)
	}
}

// A user message is found once stored; a reply only when it ends (not
// while it streams), then with all its text; a fork's copies are found; a
// deleted thread's messages are not.
func TestSearchIndexFollowsTheStore(t *testing.T) {
	s, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	u, err := s.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: "why does the parser crash"})
	if err != nil {
		t.Fatal(err)
	}
	if ids := hitIDs(t, s, store.SearchQuery{Text: "pars", ProjectID: p.ID}); !slices.Equal(ids, []string{u.ID}) {
		t.Fatalf("the last word is a prefix: %v", ids)
	}
	if ids := hitIDs(t, s, store.SearchQuery{Text: "pars crash"}); len(ids) != 0 {
		t.Fatalf("a word before the last is whole: %v", ids)
	}
	r, _ := s.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleAssistant, Status: message.StatusStreaming})
	w := func(text string, st message.Status) {
		if err := s.WriteReply(r.ID, []store.ItemWrite{{Pos: 0, Item: message.Item{ID: "i", Kind: message.ItemText}, Meta: true, Append: text}}, st); err != nil {
			t.Fatal(err)
		}
	}
	w("the tokenizer ", "")
	if ids := hitIDs(t, s, store.SearchQuery{Text: "tokenizer"}); len(ids) != 0 {
		t.Fatalf("a streaming reply is indexed: %v", ids)
	}
	w("overflows", message.StatusDone)
	if ids := hitIDs(t, s, store.SearchQuery{Text: "tokenizer overflows"}); !slices.Equal(ids, []string{r.ID}) {
		t.Fatalf("the ended reply: %v", ids)
	}
	fork, err := s.ForkThread(p.ID, th.ID, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	hits, _ := s.Search(store.SearchQuery{Text: "overflows"})
	if len(hits) != 2 || hits[0].ThreadID != fork.ID {
		t.Fatalf("after the fork, newest first: %+v", hits)
	}
	if err := s.DeleteThread(th.ID); err != nil {
		t.Fatal(err)
	}
	if hits, _ := s.Search(store.SearchQuery{Text: "overflows"}); len(hits) != 1 || hits[0].ThreadID != fork.ID {
		t.Fatalf("after deleting the thread: %+v", hits)
	}
	for _, q := range []string{`"`, `a OR b*`, `NEAR(x`, `-x ^y`, "  "} {
		if _, err := s.Search(store.SearchQuery{Text: q}); err != nil {
			t.Errorf("%q: %v", q, err)
		}
	}
}

// FuzzSearchQuery: whatever the user types, the search is a query FTS5
// takes (no error), and a stored word's prefix finds it.
func FuzzSearchQuery(f *testing.F) {
	for _, s := range []string{"parser", `"`, `a OR b*`, "NEAR(x y", "-x ^y:", "col:x", "ünï", "*", "AND", "\x00"} {
		f.Add(s)
	}
	s, err := store.Open(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	if _, err := s.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: "the parser AND the NEAR tokenizer"}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if _, err := s.Search(store.SearchQuery{Text: q}); err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if len(q) > 2 && (strings.HasPrefix("parser", q) || strings.HasPrefix("tokenizer", q)) {
			if hits, _ := s.Search(store.SearchQuery{Text: q}); len(hits) != 1 {
				t.Fatalf("%q: %d hits", q, len(hits))
			}
		}
	})
}

// A huge reply is indexed by its first SearchBodyMax bytes: its opening
// words are found, words only past the cut are not, and the cut never
// splits a rune (the index takes it).
func TestSearchIndexesTheFirstMebibyteOfAHugeReply(t *testing.T) {
	s, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	r, _ := s.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleAssistant, Status: message.StatusStreaming})
	filler := strings.Repeat("ünïcode filler ", store.SearchBodyMax/16+1)
	for i, text := range []string{"opening zebrafish ", filler, " closing quetzal"} {
		st := message.Status("")
		if i == 2 {
			st = message.StatusDone
		}
		if err := s.WriteReply(r.ID, []store.ItemWrite{{Pos: 0, Item: message.Item{ID: "i", Kind: message.ItemText}, Meta: i == 0, Append: text}}, st); err != nil {
			t.Fatal(err)
		}
	}
	if ids := hitIDs(t, s, store.SearchQuery{Text: "zebrafish"}); !slices.Equal(ids, []string{r.ID}) {
		t.Errorf("the reply's opening word: %v", ids)
	}
	if ids := hitIDs(t, s, store.SearchQuery{Text: "quetzal"}); len(ids) != 0 {
		t.Errorf("a word past the first MiB is indexed: %v", ids)
	}
}
