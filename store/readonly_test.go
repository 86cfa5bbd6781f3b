package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
)

func fillThread(t *testing.T, s *Store, key string, n int) Thread {
	t.Helper()
	p, err := s.Project(key)
	if err != nil {
		t.Fatal(err)
	}
	th, err := s.CreateThread(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		m := Message{ThreadID: th.ID, Role: message.RoleUser, Text: "message " + strconv.Itoa(i+1)}
		if i%2 == 1 {
			m.Role, m.Text = message.RoleAssistant, ""
			m.Items = []message.Item{
				{ID: "t1", Kind: message.ItemText, Text: "message " + strconv.Itoa(i+1)},
				{ID: "th", Kind: message.ItemThought, Text: "thinking"},
				{ID: "tool", Kind: message.ItemTool, Tool: &message.Tool{CallID: "c1", Title: "ls", Status: message.ToolCompleted}},
				{ID: "t2", Kind: message.ItemText},
			}
		}
		if _, err := s.AddMessage(m); err != nil {
			t.Fatal(err)
		}
	}
	return th
}

type fileState struct {
	data  []byte
	mtime int64
}

func stateOf(t *testing.T, path string) fileState {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return fileState{data, fi.ModTime().UnixNano()}
}

// A read-only store reads what a closed writer left and never writes the
// database file; its writes are refused.
func TestOpenReadOnlyLeavesFileUnchanged(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	th := fillThread(t, w, "/p", 7)
	env := w.EnvironmentID()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, FileName)
	before := stateOf(t, path)

	r, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.EnvironmentID() != env {
		t.Fatalf("environment id %q, want %q", r.EnvironmentID(), env)
	}
	msgs, more, err := r.MessagesAfter(th.ID, 0, 5)
	if err != nil || len(msgs) != 5 || !more || msgs[0].Seq != 1 || msgs[4].Text != "message 5" {
		t.Fatalf("first page: %d messages, more %v, err %v", len(msgs), more, err)
	}
	msgs, more, err = r.MessagesAfter(th.ID, 5, 5)
	if err != nil || len(msgs) != 2 || more || msgs[1].Seq != 7 || msgs[1].Role != message.RoleUser || msgs[0].Role != message.RoleAssistant {
		t.Fatalf("last page: %+v, more %v, err %v", msgs, more, err)
	}
	if it := msgs[0].Items; len(it) != 4 || it[0].Text != "message 6" || it[2].Tool == nil || it[2].Tool.Title != "ls" || it[3].Text != "" {
		t.Fatalf("reply items: %+v", it)
	}
	if _, err := r.ProjectByKey("/p"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ProjectByKey("/elsewhere"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown project: %v, want ErrNotFound", err)
	}
	if _, err := r.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "no"}); err == nil {
		t.Fatal("a read-only store wrote a message")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	after := stateOf(t, path)
	if !bytes.Equal(before.data, after.data) || before.mtime != after.mtime {
		t.Fatalf("the database file changed: %d → %d bytes, mtime %d → %d", len(before.data), len(after.data), before.mtime, after.mtime)
	}
}

// A read-only store works beside a writer: it sees each commit, and the
// writer is never blocked by it.
func TestOpenReadOnlyBesideWriter(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	th := fillThread(t, w, "/p", 3)
	r, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := range 20 {
		msgs, _, err := r.MessagesAfter(th.ID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(msgs) != 3+i {
			t.Fatalf("round %d: read %d messages, want %d", i, len(msgs), 3+i)
		}
		if _, err := w.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "more"}); err != nil {
			t.Fatalf("write beside a reader: %v", err)
		}
	}
	th2, err := r.Thread(th.ID)
	if err != nil || th2.Title != "message 1" {
		t.Fatalf("thread %+v, err %v", th2, err)
	}
}

func TestOpenReadOnlyRefuses(t *testing.T) {
	missing := t.TempDir()
	if _, err := OpenReadOnly(missing); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("no database: %v, want ErrNotExist", err)
	}
	if _, err := os.Stat(filepath.Join(missing, FileName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("OpenReadOnly created the database")
	}
	junk := t.TempDir()
	if err := os.WriteFile(filepath.Join(junk, FileName), []byte("not a database at all, just text\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenReadOnly(junk); !errors.Is(err, ErrDamaged) {
		t.Fatalf("junk file: %v, want ErrDamaged", err)
	}
	newer := t.TempDir()
	w, err := Open(newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.db.Exec(`PRAGMA user_version = ` + strconv.Itoa(SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	var se *SchemaError
	if _, err := OpenReadOnly(newer); !errors.As(err, &se) || se.Found != SchemaVersion+1 {
		t.Fatalf("newer schema: %v, want *SchemaError", err)
	}
	// An older schema (chipchat upgraded, not run since) lacks what the
	// reads use ("no such table: reply_items"), and migrating is a write:
	// refused, saying how to upgrade it; once chipchat has, it opens.
	older := copyFixture(t, "schema3")
	before := readFile(t, filepath.Join(older, FileName))
	_, err = OpenReadOnly(older)
	if !errors.As(err, &se) || se.Found != 3 || se.Supported != SchemaVersion ||
		!strings.Contains(err.Error(), "schema 3, written by an older chipchat") || !strings.Contains(err.Error(), "run chipchat once with this --data-dir") {
		t.Fatalf("older schema: %v, want a *SchemaError saying how to upgrade", err)
	}
	if !bytes.Equal(readFile(t, filepath.Join(older, FileName)), before) {
		t.Fatal("OpenReadOnly changed the older database")
	}
	open(t, older).Close()
	r, err := OpenReadOnly(older)
	if err != nil {
		t.Fatalf("after the upgrade: %v", err)
	}
	defer r.Close()
	p, err := r.ProjectByKey("/home/dev/proj")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := r.Threads(p.ID)
	if err != nil || len(ts) != 1 {
		t.Fatalf("threads %v %v", ts, err)
	}
	if msgs, _, err := r.MessagesAfter(ts[0].ID, 0, 100); err != nil || len(msgs) == 0 {
		t.Fatalf("messages after the upgrade: %d, %v", len(msgs), err)
	}
}

// MessagesAfter pages give the same messages and items as MessagesRaw,
// appended text chunks included, whatever the page size.
func TestMessagesAfterMatchesMessagesRaw(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	th := fillThread(t, s, "/p", 11)
	reply, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleAssistant, Status: message.StatusStreaming})
	if err != nil {
		t.Fatal(err)
	}
	for i, chunk := range []string{"Hel", "lo, ", "wor", "ld"} {
		w := []ItemWrite{{Pos: 0, Item: message.Item{ID: "a", Kind: message.ItemText}, Meta: i == 0, Append: chunk}}
		if i == 2 {
			w = append(w, ItemWrite{Pos: 1, Item: message.Item{ID: "n", Kind: message.ItemNotice, Level: "error"}, Meta: true, Append: "oops"})
		}
		if err := s.WriteReply(reply.ID, w, ""); err != nil {
			t.Fatal(err)
		}
	}
	want, err := s.MessagesRaw(th.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 2, 5, 100} {
		var got []Message
		after := int64(0)
		for {
			page, more, err := s.MessagesAfter(th.ID, after, size)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, page...)
			if !more {
				break
			}
			after = page[len(page)-1].Seq
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("pages of %d differ from MessagesRaw:\n got %+v\nwant %+v", size, got, want)
		}
	}
	if it := want[len(want)-1].Items; len(it) != 2 || it[0].Text != "Hello, world" || it[1].Text != "oops" || it[1].Level != "error" {
		t.Fatalf("streamed reply items: %+v", it)
	}
}
