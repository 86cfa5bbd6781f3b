package store

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

func open(t testing.TB, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func ptr[T any](v T) *T { return &v }

// sampleRecords covers a few kinds, an unknown one included.
func sampleRecords() []contextref.Record {
	return []contextref.Record{
		&contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, "ctx_t", "Terminal 1 lines 3-4"),
			TerminalID: "term-1", TerminalLabel: "Terminal 1", LineStart: 3, LineEnd: 4, Text: "$ go test\nFAIL <b>&"},
		&contextref.ImageRecord{AttachmentRecord: contextref.AttachmentRecord{Base: contextref.NewBase(contextref.KindImage, "ctx_i", "shot.png"),
			AttachmentID: "att_1", Name: "shot.png", MimeType: "image/png", SizeBytes: 10}},
		&contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "ctx_m", "main.go"), Path: "main.go"},
		&contextref.ReviewCommentRecord{Base: contextref.NewBase(contextref.KindReviewComment, "ctx_r", "a.ts L4-L9"),
			SectionID: "s1", SectionTitle: "Diff", FilePath: "src/a.ts", StartIndex: 4, EndIndex: 9, RangeLabel: "L4-L9",
			Text: "Rename", Diff: "-old\n+new", FenceLanguage: ptr("diff"),
			PullRequest: &contextref.PullRequest{Number: 7, Title: "t", URL: "https://x/7", HeadBranch: "h", BaseBranch: "main", State: "open"}},
		&contextref.UnknownRecord{Base: contextref.NewBase("future", "ctx_u", "Future"), Payload: json.RawMessage(`{"a":"<b>","n":[1,2]}`)},
	}
}

func recordsJSON(t testing.TB, recs []contextref.Record) string {
	t.Helper()
	s, err := marshalRecords(recs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func contextJSON(t testing.TB, c *contextref.MessageContext) string {
	t.Helper()
	if c == nil {
		return "<nil>"
	}
	raw, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// copyFixture copies testdata/<name>/chipchat.db, a database an earlier
// schema's own code wrote, into a new data directory.
func copyFixture(t testing.TB, name string) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.Open(filepath.Join("testdata", name, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(filepath.Join(dir, FileName), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestReopenKeepsEverything(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s := open(t, dir)
	env := s.EnvironmentID()
	if !strings.HasPrefix(env, "env_") || len(env) != 4+16 {
		t.Fatalf("environment id %q", env)
	}
	if s.Dir() != dir {
		t.Fatalf("Dir() = %q, want %q", s.Dir(), dir)
	}
	p, err := s.Project("/home/u/proj")
	if err != nil {
		t.Fatal(err)
	}
	p2, err := s.Project("/home/u/proj")
	if err != nil || p2 != p {
		t.Fatalf("Project again = %+v, %v; want %+v", p2, err, p)
	}
	th, err := s.CreateThread(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(th.ID, "thr_") || len(th.ID) != 20 || th.Title != "" {
		t.Fatalf("thread %+v", th)
	}
	recs := sampleRecords()
	text := "Look at " + contextref.LinkFor(recs[1]) + " and " + contextref.LinkFor(recs[0]) + "\nsecond line"
	ctx := &contextref.MessageContext{Version: 1, Records: recs}
	m1, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: text, Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(m1.ID, "msg_") || len(m1.ID) != 20 || m1.Seq != 1 || m1.Status != message.StatusDone || m1.Created.IsZero() {
		t.Fatalf("message %+v", m1)
	}
	m2, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: "", Status: message.StatusStreaming})
	if err != nil {
		t.Fatal(err)
	}
	if m2.Seq != 2 {
		t.Fatalf("seq %d", m2.Seq)
	}
	if err := s.WriteReply(m2.ID, []ItemWrite{{Pos: 0, Item: message.Item{ID: "item_1", Kind: message.ItemText}, Meta: true, Append: "Sure: <done>"}}, message.StatusDone); err != nil {
		t.Fatal(err)
	}
	draftRecs := []contextref.Record{recs[2], recs[4]}
	draft := Draft{ThreadID: th.ID, Markdown: "draft " + contextref.LinkFor(recs[2]) + "\n" + contextref.LinkFor(recs[4]), Records: draftRecs, Caret: Caret{Line: 1, Col: 7}}
	if err := s.SaveDraft(draft); err != nil {
		t.Fatal(err)
	}
	st, err := s.PushStash(StashEntry{ProjectID: p.ID, Markdown: "stashed " + contextref.LinkFor(recs[3]), Records: recs[3:4]})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, dir)
	if s.EnvironmentID() != env {
		t.Fatalf("environment id changed: %q → %q", env, s.EnvironmentID())
	}
	p3, err := s.Project("/home/u/proj")
	if err != nil || p3.ID != p.ID || !p3.Created.Equal(p.Created) {
		t.Fatalf("project after reopen %+v, %v; want %+v", p3, err, p)
	}
	threads, err := s.Threads(p.ID)
	if err != nil || len(threads) != 1 || threads[0].ID != th.ID {
		t.Fatalf("threads %+v, %v", threads, err)
	}
	if got := threads[0].Title; got != "Look at shot.png and Terminal 1 lines 3-4" {
		t.Fatalf("title %q", got)
	}
	msgs, err := s.Messages(th.ID)
	if err != nil || len(msgs) != 2 {
		t.Fatalf("messages %+v, %v", msgs, err)
	}
	if msgs[0].ID != m1.ID || msgs[0].Text != text || msgs[0].Role != message.RoleUser || msgs[0].Seq != 1 || !msgs[0].Created.Equal(m1.Created) {
		t.Fatalf("message 1 %+v", msgs[0])
	}
	if got, want := contextJSON(t, msgs[0].Context), contextJSON(t, ctx); got != want {
		t.Fatalf("context round trip:\n got %s\nwant %s", got, want)
	}
	if message.ReplyText(msgs[1].Items) != "Sure: <done>" || msgs[1].Text != "" || msgs[1].Status != message.StatusDone || msgs[1].Context != nil || msgs[1].Role != message.RoleAssistant {
		t.Fatalf("message 2 %+v", msgs[1])
	}
	if n, err := s.MessageCount(th.ID); err != nil || n != 2 {
		t.Fatalf("count %d, %v", n, err)
	}
	d, ok, err := s.LoadDraft(th.ID)
	if err != nil || !ok {
		t.Fatalf("draft %v %v", ok, err)
	}
	if d.Markdown != draft.Markdown || d.Caret != draft.Caret || recordsJSON(t, d.Records) != recordsJSON(t, draftRecs) || d.Updated.IsZero() {
		t.Fatalf("draft %+v", d)
	}
	stash, err := s.Stash(p.ID)
	if err != nil || len(stash) != 1 || stash[0].ID != st.ID || stash[0].Markdown != st.Markdown ||
		recordsJSON(t, stash[0].Records) != recordsJSON(t, recs[3:4]) || !stash[0].Created.Equal(st.Created) {
		t.Fatalf("stash %+v, %v", stash, err)
	}
}

func TestDraftUpsertAndDelete(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	if _, ok, err := s.LoadDraft(th.ID); ok || err != nil {
		t.Fatalf("new thread has a draft: %v %v", ok, err)
	}
	if err := s.SaveDraft(Draft{ThreadID: th.ID, Markdown: "one", Caret: Caret{0, 3}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveDraft(Draft{ThreadID: th.ID, Markdown: "two", Caret: Caret{0, 1}}); err != nil {
		t.Fatal(err)
	}
	d, ok, err := s.LoadDraft(th.ID)
	if !ok || err != nil || d.Markdown != "two" || d.Caret != (Caret{0, 1}) || len(d.Records) != 0 {
		t.Fatalf("draft %+v %v %v", d, ok, err)
	}
	// Records alone keep the draft (an image on the shelf with no prose).
	if err := s.SaveDraft(Draft{ThreadID: th.ID, Records: sampleRecords()[1:2]}); err != nil {
		t.Fatal(err)
	}
	if d, ok, _ := s.LoadDraft(th.ID); !ok || len(d.Records) != 1 {
		t.Fatalf("records-only draft %+v %v", d, ok)
	}
	if err := s.SaveDraft(Draft{ThreadID: th.ID}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.LoadDraft(th.ID); ok || err != nil {
		t.Fatalf("empty draft still stored: %v %v", ok, err)
	}
	if err := s.SaveDraft(Draft{ThreadID: "thr_missing", Markdown: "x"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("draft of a missing thread: %v", err)
	}
}

func TestStashOrderAndDrop(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	q, _ := s.Project("/q")
	var ids []int64
	for i := range 3 {
		e, err := s.PushStash(StashEntry{ProjectID: p.ID, Markdown: fmt.Sprint("entry ", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	if _, err := s.PushStash(StashEntry{ProjectID: q.ID, Markdown: "other project"}); err != nil {
		t.Fatal(err)
	}
	list, err := s.Stash(p.ID)
	if err != nil || len(list) != 3 || list[0].ID != ids[2] || list[2].ID != ids[0] || list[0].Markdown != "entry 2" {
		t.Fatalf("stash %+v %v", list, err)
	}
	if err := s.DropStash(ids[1]); err != nil {
		t.Fatal(err)
	}
	if err := s.DropStash(ids[1]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second drop: %v", err)
	}
	if list, _ := s.Stash(p.ID); len(list) != 2 {
		t.Fatalf("after drop %+v", list)
	}
	if _, err := s.PushStash(StashEntry{ProjectID: 9999, Markdown: "x"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("stash in a missing project: %v", err)
	}
}

func TestThreadsOrdering(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	other, _ := s.Project("/other")
	a, _ := s.CreateThread(p.ID)
	b, _ := s.CreateThread(p.ID)
	c, _ := s.CreateThread(p.ID)
	if _, err := s.CreateThread(other.ID); err != nil {
		t.Fatal(err)
	}
	ids := func() []string {
		t.Helper()
		ts, err := s.Threads(p.ID)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, th := range ts {
			out = append(out, th.ID)
		}
		return out
	}
	if got, want := ids(), []string{c.ID, b.ID, a.ID}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("new threads: %v, want %v", got, want)
	}
	m, err := s.AddMessage(Message{ThreadID: a.ID, Role: message.RoleUser, Text: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ids(), []string{a.ID, c.ID, b.ID}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after a message in a: %v, want %v", got, want)
	}
	if _, err := s.AddMessage(Message{ThreadID: b.ID, Role: message.RoleAssistant, Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStatus(m.ID, message.StatusDone); err != nil {
		t.Fatal(err)
	}
	if got, want := ids(), []string{a.ID, b.ID, c.ID}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after updating a's message: %v, want %v", got, want)
	}
	if _, err := s.CreateThread(12345); !errors.Is(err, ErrNotFound) {
		t.Fatalf("thread in a missing project: %v", err)
	}
}

func TestDeleteCascades(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	a, _ := s.CreateThread(p.ID)
	b, _ := s.CreateThread(p.ID)
	for _, th := range []Thread{a, b} {
		for i := range 3 {
			if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: fmt.Sprint(i),
				Context: &contextref.MessageContext{Version: 1, Records: sampleRecords()}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.SaveDraft(Draft{ThreadID: th.ID, Markdown: "d"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteThread(a.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteThread(a.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if _, err := s.Thread(a.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Thread after delete: %v", err)
	}
	var msgs, drafts int
	s.db.QueryRow(`SELECT count(*) FROM messages WHERE thread_id = ?`, a.ID).Scan(&msgs)
	s.db.QueryRow(`SELECT count(*) FROM drafts WHERE thread_id = ?`, a.ID).Scan(&drafts)
	if msgs != 0 || drafts != 0 {
		t.Fatalf("left behind: %d messages, %d drafts", msgs, drafts)
	}
	if n, _ := s.MessageCount(b.ID); n != 3 {
		t.Fatalf("other thread lost messages: %d", n)
	}
	if _, ok, _ := s.LoadDraft(b.ID); !ok {
		t.Fatal("other thread lost its draft")
	}
	if list, err := s.Messages(a.ID); err != nil || len(list) != 0 {
		t.Fatalf("messages of a deleted thread: %v %v", list, err)
	}
}

func TestNotFound(t *testing.T) {
	s := open(t, t.TempDir())
	if _, err := s.Thread("thr_nope"); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if err := s.RenameThread("thr_nope", "x"); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if _, err := s.AddMessage(Message{ThreadID: "thr_nope", Role: message.RoleUser, Text: "x"}); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if err := s.SetStatus("msg_nope", message.StatusDone); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: "system", Text: "x"}); err == nil {
		t.Fatal("unknown role accepted")
	}
	if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "x", Status: "weird"}); err == nil {
		t.Fatal("unknown status accepted")
	}
	if _, err := s.Project(" "); err == nil {
		t.Fatal("empty project key accepted")
	}
}

func TestTitleDerivation(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: "Hello from the agent"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Thread(th.ID); got.Title != "" {
		t.Fatalf("assistant message gave a title: %q", got.Title)
	}
	term := sampleRecords()[0]
	text := "  Fix " + contextref.FormatLink(term.RecordBase().Kind, "ctx_t", "the [failing] test") + " please  \nmore"
	if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: text}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Thread(th.ID); got.Title != "Fix the failing test please" {
		t.Fatalf("title %q", got.Title)
	}
	if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "second"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Thread(th.ID); got.Title != "Fix the failing test please" {
		t.Fatalf("second user message changed the title: %q", got.Title)
	}
	if err := s.RenameThread(th.ID, "  Mine  "); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Thread(th.ID); got.Title != "Mine" {
		t.Fatalf("renamed title %q", got.Title)
	}

	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"\n \n  hello\nworld", "hello"},
		{strings.Repeat("é", 100), strings.Repeat("é", 80)},
		{strings.Repeat("a", 79) + " b", strings.Repeat("a", 79)},
		{"![shot](t3-context://v1/image/ctx_i) look", "shot look"},
		{"[x](t3-context://v1/file/a?q=1) stays", "[x](t3-context://v1/file/a?q=1) stays"},
	} {
		if got := TitleFromText(c.in); got != c.want {
			t.Errorf("TitleFromText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestBadStoredDataLoads(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	m, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "kept", Context: &contextref.MessageContext{Version: 1, Records: sampleRecords()}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`UPDATE messages SET context = '{"version":2,"records":[]}' WHERE id = ?`, m.ID); err != nil {
		t.Fatal(err)
	}
	m2, _ := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "one bad record"})
	if _, err := s.db.Exec(`UPDATE messages SET context = '{"version":1,"records":[{"version":1,"contextId":"ok","label":"","kind":"skill","name":"go"},{"kind":"terminal"}]}' WHERE id = ?`, m2.ID); err != nil {
		t.Fatal(err)
	}
	msgs, err := s.Messages(th.ID)
	if err != nil || len(msgs) != 2 {
		t.Fatalf("%v %v", msgs, err)
	}
	if msgs[0].Context != nil || msgs[0].Text != "kept" {
		t.Fatalf("undecodable context: %+v", msgs[0])
	}
	if msgs[1].Context == nil || len(msgs[1].Context.Records) != 1 {
		t.Fatalf("context with one bad record: %+v", msgs[1].Context)
	}
	if err := s.SaveDraft(Draft{ThreadID: th.ID, Markdown: "x", Records: sampleRecords()}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`UPDATE drafts SET records = '[{"kind":"image"},{"version":1,"contextId":"m","label":"","kind":"mention","path":"a.go"}]'`); err != nil {
		t.Fatal(err)
	}
	d, ok, err := s.LoadDraft(th.ID)
	if !ok || err != nil || len(d.Records) != 1 || d.Records[0].RecordBase().ContextID != "m" {
		t.Fatalf("draft with a bad record: %+v %v %v", d, ok, err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dirState is every file in dir with its content, for a check that
// nothing was written there.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		if e.Type().IsRegular() {
			out[e.Name()] = string(readFile(t, filepath.Join(dir, e.Name())))
		}
	}
	return out
}

// A database a newer chipchat wrote (its user_version above SchemaVersion)
// is refused by Open and OpenReadOnly with one line naming the file and
// both schema versions, and nothing in the data directory is written.
func TestNewerSchemaIsRefused(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "from the newer chipchat"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	path := filepath.Join(dir, FileName)
	newer := SchemaVersion + 3
	raw, err := sql.Open("sqlite", fileURI(path))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`PRAGMA user_version = ` + strconv.Itoa(newer)); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before := dirState(t, dir)
	if _, ok := before[FileName]; !ok || len(before) != 1 {
		t.Fatalf("the data directory holds %d files, want the database alone", len(before))
	}
	want := fmt.Sprintf("store: %s is schema %d, written by a newer chipchat; this one knows schema %d at most: upgrade chipchat or use another --data-dir",
		path, newer, SchemaVersion)
	for name, open := range map[string]func(string) (*Store, error){"Open": Open, "OpenReadOnly": OpenReadOnly} {
		got, err := open(dir)
		if err == nil {
			got.Close()
			t.Fatalf("%s opened a schema-%d database", name, newer)
		}
		var se *SchemaError
		if !errors.As(err, &se) || se.Found != newer || se.Supported != SchemaVersion || se.Path != path {
			t.Errorf("%s = %#v, want *SchemaError{%s, %d, %d}", name, err, path, newer, SchemaVersion)
		}
		if err.Error() != want {
			t.Errorf("%s says\n%s\nwant\n%s", name, err, want)
		}
		if after := dirState(t, dir); !maps.Equal(after, before) {
			t.Fatalf("%s changed the data directory of a newer database", name)
		}
	}

	// The newer version still in the write-ahead log (its writer is open,
	// nothing checkpointed): SQLite's reading of the file refuses it too.
	live := t.TempDir()
	open(t, live).Close()
	path = filepath.Join(live, FileName)
	raw, err = sql.Open("sqlite", fileURI(path)+"?_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`PRAGMA user_version = ` + strconv.Itoa(newer)); err != nil {
		t.Fatal(err)
	}
	db := readFile(t, path)
	if v := int(binary.BigEndian.Uint32(db[60:64])); v != SchemaVersion {
		t.Fatalf("the file's header says schema %d: the new version is not in the log alone", v)
	}
	for name, open := range map[string]func(string) (*Store, error){"Open": Open, "OpenReadOnly": OpenReadOnly} {
		var se *SchemaError
		if _, err := open(live); !errors.As(err, &se) || se.Found != newer {
			t.Errorf("%s with the version in the log = %v, want *SchemaError", name, err)
		}
	}
	if !bytes.Equal(readFile(t, path), db) {
		t.Fatal("the database file was written")
	}
}

// A user_version below 0 is no chipchat's: Open refuses the file as
// damaged and leaves it alone.
func TestNegativeSchemaIsRefused(t *testing.T) {
	dir := t.TempDir()
	open(t, dir).Close()
	path := filepath.Join(dir, FileName)
	raw, err := sql.Open("sqlite", fileURI(path))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`PRAGMA user_version = -2`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before := readFile(t, path)
	if _, err := Open(dir); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "schema version -2") {
		t.Fatalf("Open = %v, want ErrDamaged naming schema version -2", err)
	}
	if !bytes.Equal(readFile(t, path), before) {
		t.Fatal("the database was modified")
	}
}

func TestDamagedFilesAreRefused(t *testing.T) {
	// A healthy database to corrupt.
	good := t.TempDir()
	s := open(t, good)
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	for i := range 300 {
		s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: strings.Repeat(fmt.Sprint(i), 100)})
	}
	s.Close()
	healthy := readFile(t, filepath.Join(good, FileName))
	corrupt := bytes.Clone(healthy)
	for i := 4096 * 2; i < 4096*3; i++ { // wipe page 3
		corrupt[i] = 0xA5
	}

	foreign := filepath.Join(t.TempDir(), "foreign.db")
	fdb, _ := sql.Open("sqlite", fileURI(foreign))
	if _, err := fdb.Exec(`CREATE TABLE notes(x)`); err != nil {
		t.Fatal(err)
	}
	fdb.Close()

	for name, content := range map[string][]byte{
		"garbage":   []byte("this is not a database, just some text the user cared about\n"),
		"short":     []byte("SQLite format 3\x00"),
		"zeros":     make([]byte, 8192),
		"corrupted": corrupt,
		"foreign":   readFile(t, foreign),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			if err := os.WriteFile(path, content, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(dir)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("Open = %v, want ErrDamaged", err)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "unchanged") {
				t.Errorf("message %q", err)
			}
			if !bytes.Equal(readFile(t, path), content) {
				t.Fatal("the file was modified")
			}
		})
	}
}

func TestEmptyFileIsNewDatabase(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s := open(t, dir)
	if _, err := s.Project("/p"); err != nil {
		t.Fatal(err)
	}
}

func TestFilePermissionsAndOddPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a dir #1 ?x=%20&y", "data")
	s := open(t, dir)
	if _, err := s.Project("/p"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("database mode %v", fi.Mode().Perm())
	}
	di, _ := os.Stat(dir)
	if di.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v", di.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("files beside the data directory: %v", entries)
	}
	var mode string
	s.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	var fk, sync, busy int
	s.db.QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
	s.db.QueryRow(`PRAGMA synchronous`).Scan(&sync)
	s.db.QueryRow(`PRAGMA busy_timeout`).Scan(&busy)
	if mode != "wal" || fk != 1 || sync != 1 || busy != busyTimeoutMS {
		t.Errorf("pragmas: journal_mode=%s foreign_keys=%d synchronous=%d busy_timeout=%d", mode, fk, sync, busy)
	}
}

func TestProjectKey(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	nested := filepath.Join(repo, "a", "b", "c")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A worktree or submodule: .git is a file.
	wt := filepath.Join(repo, "a", "wt")
	os.MkdirAll(filepath.Join(wt, "src"), 0o755)
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: ../../.git/worktrees/wt\n"), 0o644)
	plain := filepath.Join(root, "plain", "x")
	os.MkdirAll(plain, 0o755)

	for _, c := range []struct{ cwd, want string }{
		{nested, repo},
		{repo, repo},
		{nested + "/../b/", repo},
		{filepath.Join(wt, "src"), wt},
		{plain, plain},
		{plain + "/./", plain},
	} {
		if got := ProjectKey(c.cwd); got != c.want {
			t.Errorf("ProjectKey(%q) = %q, want %q", c.cwd, got, c.want)
		}
	}
	// Relative paths resolve against the working directory.
	t.Chdir(nested)
	if got := ProjectKey("."); got != repo {
		t.Errorf("ProjectKey(.) = %q, want %q", got, repo)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("CHIPCHAT_HOME", "/tmp/cc-home")
	t.Setenv("XDG_DATA_HOME", "/tmp/xdg")
	t.Setenv("HOME", "/tmp/home")
	if d, err := DefaultDir(); err != nil || d != "/tmp/cc-home" {
		t.Errorf("with CHIPCHAT_HOME: %q %v", d, err)
	}
	t.Setenv("CHIPCHAT_HOME", "")
	if d, err := DefaultDir(); err != nil || d != "/tmp/xdg/chipchat" {
		t.Errorf("with XDG_DATA_HOME: %q %v", d, err)
	}
	t.Setenv("XDG_DATA_HOME", "")
	if d, err := DefaultDir(); err != nil || d != "/tmp/home/.local/share/chipchat" {
		t.Errorf("with HOME: %q %v", d, err)
	}
}

func TestFileURI(t *testing.T) {
	if got, want := fileURI("/a b/#c?d%e"), "file:/a b/%23c%3fd%25e"; got != want {
		t.Fatalf("fileURI = %q, want %q", got, want)
	}
}

func TestCreatedTimesKept(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	at := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	m, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: "x", Created: at})
	if err != nil || !m.Created.Equal(at) {
		t.Fatalf("%v %v", m.Created, err)
	}
	msgs, _ := s.Messages(th.ID)
	if !msgs[0].Created.Equal(at) {
		t.Fatalf("loaded %v", msgs[0].Created)
	}
}

func TestLongThreadDecodesEveryContext(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	const n = 3 * parallelDecodeMin
	want := make([]string, n)
	err := s.write(false, func(tx *sql.Tx) error {
		for i := range n {
			var ctx any
			want[i] = "<nil>"
			switch {
			case i%3 == 0: // no context
			case i%5 == 0: // undecodable
				ctx = `{"version":1,"records":[` + strings.Repeat(`{"version":1,"contextId":"dup","label":"","kind":"skill","name":"x"},`, 2) + `{"kind":"x"}]}`
			default:
				c := &contextref.MessageContext{Version: 1, Records: []contextref.Record{
					&contextref.SkillRecord{Base: contextref.NewBase(contextref.KindSkill, fmt.Sprint("s", i), ""), Name: fmt.Sprint("skill ", i)}}}
				want[i] = contextJSON(t, c)
				ctx = want[i]
			}
			if _, err := tx.Exec(`INSERT INTO messages(id, thread_id, seq, role, text, context, status, created_ns) VALUES (?, ?, ?, 'user', ?, ?, 'done', 1)`,
				newID("msg_"), th.ID, i+1, fmt.Sprint(i), ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := s.Messages(th.ID)
	if err != nil || len(msgs) != n {
		t.Fatalf("%d messages, %v", len(msgs), err)
	}
	for i, m := range msgs {
		if m.Text != fmt.Sprint(i) || contextJSON(t, m.Context) != want[i] {
			t.Fatalf("message %d: %q %s, want %s", i, m.Text, contextJSON(t, m.Context), want[i])
		}
	}
}

// After writes (durable ones included), every pooled connection is back to
// the store's pragmas.
func TestConnectionsKeepPragmas(t *testing.T) {
	s := open(t, t.TempDir())
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	for i := range 10 {
		role := message.RoleAssistant
		if i%2 == 0 {
			role = message.RoleUser
		}
		if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: role, Text: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	ctx := t.Context()
	var conns []*sql.Conn
	for range 4 {
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for i, c := range conns {
		var busy, sync, fk int
		c.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&busy)
		c.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&sync)
		c.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk)
		if busy != busyTimeoutMS || sync != 1 || fk != 1 {
			t.Errorf("connection %d: busy_timeout=%d synchronous=%d foreign_keys=%d", i, busy, sync, fk)
		}
	}
}

func TestAttachmentBindings(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	if _, ok, err := s.AttachmentBinding("att_local"); ok || err != nil {
		t.Fatalf("unbound: %v %v", ok, err)
	}
	if err := s.BindAttachment("att_local", "sha256-aaa"); err != nil {
		t.Fatal(err)
	}
	if err := s.BindAttachment("att_local", "sha256-bbb"); err != nil {
		t.Fatal(err)
	}
	if err := s.BindAttachment("", "x"); err == nil {
		t.Fatal("empty local id accepted")
	}
	s.Close()
	s = open(t, dir)
	if id, ok, err := s.AttachmentBinding("att_local"); id != "sha256-bbb" || !ok || err != nil {
		t.Fatalf("binding after reopen: %q %v %v", id, ok, err)
	}
}

func TestExcerptTimes(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.ExcerptCaptured("x"); ok || err != nil {
		t.Fatalf("unknown excerpt: %v %v", ok, err)
	}
	at := time.Unix(1700000000, 5)
	if err := s.NoteExcerpt("x", at); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, ok, err := s.ExcerptCaptured("x")
	if err != nil || !ok || !got.Equal(at) {
		t.Fatalf("got %v %v %v", got, ok, err)
	}
}

func TestAgentSessions(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	if _, ok, err := s.AgentSession(th.ID, "acp:x"); ok || err != nil {
		t.Fatalf("none yet: %v %v", ok, err)
	}
	if err := s.SetAgentSession(th.ID, "acp:x", "sess-1"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, _ = Open(dir)
	defer s.Close()
	if id, ok, err := s.AgentSession(th.ID, "acp:x"); !ok || err != nil || id != "sess-1" {
		t.Fatalf("after reopen: %q %v %v", id, ok, err)
	}
	if _, ok, _ := s.AgentSession(th.ID, "acp:y"); ok {
		t.Fatal("sessions are per agent")
	}
	if err := s.DeleteThread(th.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.AgentSession(th.ID, "acp:x"); ok {
		t.Fatal("deleting the thread forgets its sessions")
	}
}

func TestForkThreadCopiesRawContextsAtomically(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, _ := s.Project("/p")
	th, _ := s.CreateThread(p.ID)
	u, _ := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "one"})
	r, _ := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleAssistant, Text: "partial", Status: message.StatusStreaming})
	_, _ = s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "later"})
	// A context this version cannot decode is copied as stored.
	if _, err := s.db.Exec(`UPDATE messages SET context = '{"version":9}' WHERE id = ?`, u.ID); err != nil {
		t.Fatal(err)
	}
	f, err := s.ForkThread(p.ID, th.ID, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := s.MessagesRaw(f.ID)
	if len(msgs) != 2 || msgs[0].Text != "one" || string(msgs[0].RawContext) != `{"version":9}` || msgs[1].Status != message.StatusInterrupted {
		t.Fatalf("fork holds %+v", msgs)
	}
	if f.Title != "one" {
		t.Fatalf("fork title %q", f.Title)
	}
	if _, err := s.ForkThread(p.ID, th.ID, "msg_nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown message: %v", err)
	}
	if ts, _ := s.Threads(p.ID); len(ts) != 2 {
		t.Fatalf("a failed fork left a thread: %d threads", len(ts))
	}
}
