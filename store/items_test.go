package store

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
)

// A schema-3 database written by the previous release (testdata, made by
// that release's own store code) opens, migrates to 4 and shows every old
// reply unchanged, as one text item each.
func TestMigrateSchema3Database(t *testing.T) {
	dir := copyFixture(t, "schema3")
	s := open(t, dir)
	p, err := s.Project("/home/dev/proj")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := s.Threads(p.ID)
	if err != nil || len(ts) != 1 {
		t.Fatalf("threads: %v %v", ts, err)
	}
	msgs, err := s.Messages(ts[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		role   message.Role
		text   string
		status message.Status
	}{
		{message.RoleUser, "look at [a.txt](t3-context://v1/mention/ctx_m1)", message.StatusDone},
		{message.RoleAssistant, "## Done\n\nI read **a.txt**:\n\n```go\nfunc main() {}\n```\n\n> tool: Read a.txt (completed)\n", message.StatusDone},
		{message.RoleUser, "question 2", message.StatusDone},
		{message.RoleAssistant, "partial answer", message.StatusInterrupted},
		{message.RoleUser, "question 3", message.StatusDone},
		{message.RoleAssistant, "", message.StatusError},
		{message.RoleUser, "question 4", message.StatusDone},
		{message.RoleAssistant, "still streaming when the old chipchat was killed", message.StatusStreaming},
	}
	if len(msgs) != len(want) {
		t.Fatalf("%d messages, want %d", len(msgs), len(want))
	}
	for i, w := range want {
		m := msgs[i]
		if m.Role != w.role || m.Status != w.status {
			t.Errorf("message %d: %s %s, want %s %s", i, m.Role, m.Status, w.role, w.status)
		}
		if w.role == message.RoleUser {
			if m.Text != w.text || len(m.Items) != 0 {
				t.Errorf("user message %d: %q %v", i, m.Text, m.Items)
			}
			continue
		}
		if got := message.ReplyText(m.Items); got != w.text || m.Text != "" {
			t.Errorf("reply %d: items %q text %q, want %q", i, got, m.Text, w.text)
		}
		if w.text != "" && (len(m.Items) != 1 || m.Items[0].Kind != message.ItemText) {
			t.Errorf("reply %d: items %+v, want one text item", i, m.Items)
		}
	}
	if msgs[0].Context == nil || len(msgs[0].Context.Records) != 1 {
		t.Errorf("user context lost: %+v", msgs[0].Context)
	}
	if id, ok, err := s.AgentSession(ts[0].ID, "acp:x"); err != nil || !ok || id != "sess-1" {
		t.Errorf("agent session: %q %v %v", id, ok, err)
	}
	// The old streaming reply has no lease: opening the thread interrupts it.
	if n, err := s.RecoverThread(ts[0].ID); err != nil || n != 1 {
		t.Fatalf("RecoverThread = %d, %v", n, err)
	}
	msgs, _ = s.Messages(ts[0].ID)
	if msgs[7].Status != message.StatusInterrupted || message.ReplyText(msgs[7].Items) != want[7].text {
		t.Errorf("recovered reply: %s %q", msgs[7].Status, message.ReplyText(msgs[7].Items))
	}
}

func newReply(t *testing.T, s *Store) (Thread, Message) {
	t.Helper()
	p, _ := s.Project("/p")
	th, err := s.CreateThread(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	r, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleAssistant, Status: message.StatusStreaming})
	if err != nil {
		t.Fatal(err)
	}
	return th, r
}

// Items are written by position; a growing item's text is appended in
// chunks; a tool item is replaced in place; all of it reads back in order.
func TestWriteReplyItems(t *testing.T) {
	s := open(t, t.TempDir())
	th, r := newReply(t, s)
	text := message.Item{ID: "i1", Kind: message.ItemText}
	tool := message.Item{ID: "i2", Kind: message.ItemTool, Tool: &message.Tool{CallID: "c1", Title: "Run ls", Status: message.ToolPending}}
	if err := s.WriteReply(r.ID, []ItemWrite{{Pos: 0, Item: text, Meta: true, Append: "Hello, "}}, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteReply(r.ID, []ItemWrite{{Pos: 0, Append: "world."}, {Pos: 1, Item: tool, Meta: true}}, ""); err != nil {
		t.Fatal(err)
	}
	tool.Tool.Status = message.ToolCompleted
	tool.Tool.Content = []message.ToolContent{{Type: message.ContentText, Text: "a\nb"}}
	if err := s.WriteReply(r.ID, []ItemWrite{{Pos: 1, Item: tool, Meta: true}, {Pos: 2, Item: message.Item{ID: "i3", Kind: message.ItemText}, Meta: true, Append: "Done."}}, message.StatusDone); err != nil {
		t.Fatal(err)
	}
	msgs, err := s.Messages(th.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := msgs[1]
	if got.Status != message.StatusDone || len(got.Items) != 3 {
		t.Fatalf("%s %+v", got.Status, got.Items)
	}
	if got.Items[0].Text != "Hello, world." || got.Items[2].Text != "Done." {
		t.Errorf("texts: %q %q", got.Items[0].Text, got.Items[2].Text)
	}
	if tl := got.Items[1].Tool; tl == nil || tl.Status != message.ToolCompleted || tl.Content[0].Text != "a\nb" || got.Items[1].ID != "i2" {
		t.Errorf("tool: %+v", got.Items[1])
	}
	if err := s.WriteReply(r.ID, []ItemWrite{{Pos: 3, Item: message.Item{Kind: "bogus"}, Meta: true}}, ""); err == nil {
		t.Error("unknown kind accepted")
	}
	// A fork copies the items.
	f, err := s.ForkThread(th.ProjectID, th.ID, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	fm, _ := s.Messages(f.ID)
	if len(fm) != 2 || message.ReplyText(fm[1].Items) != message.ReplyText(got.Items) || fm[1].Items[1].Tool == nil {
		t.Errorf("fork: %+v", fm)
	}
}

// A queued message moves to the end when it is sent; pulling it back
// deletes it; neither works twice.
func TestQueue(t *testing.T) {
	s := open(t, t.TempDir())
	th, r := newReply(t, s)
	q1, err := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "next", Status: message.StatusQueued})
	if err != nil {
		t.Fatal(err)
	}
	q2, _ := s.AddMessage(Message{ThreadID: th.ID, Role: message.RoleUser, Text: "after", Status: message.StatusQueued})
	if err := s.SetStatus(r.ID, message.StatusDone); err != nil {
		t.Fatal(err)
	}
	sent, err := s.Dequeue(q1.ID)
	if err != nil || sent.Status != message.StatusDone || sent.Seq <= q2.Seq {
		t.Fatalf("Dequeue: %+v %v (q2 seq %d)", sent, err, q2.Seq)
	}
	if _, err := s.Dequeue(q1.ID); err == nil {
		t.Error("dequeued twice")
	}
	if err := s.Unqueue(q2.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Unqueue(q2.ID); err == nil {
		t.Error("unqueued twice")
	}
	msgs, _ := s.Messages(th.ID)
	var texts []string
	for _, m := range msgs {
		texts = append(texts, m.Text)
	}
	if strings.Join(texts, "|") != "hi||next" {
		t.Errorf("thread: %q", texts)
	}
}

// A reply whose lease is held — by this process or by another one — is
// never interrupted; once the holder is gone, it is.
func TestLeaseRecovery(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	th, r := newReply(t, s)
	l, err := s.AcquireLease(r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcquireLease(r.ID); err == nil {
		t.Error("lease taken twice")
	}
	other := open(t, dir) // a second chipchat on the same data dir
	if n, err := other.RecoverThread(th.ID); err != nil || n != 0 {
		t.Fatalf("live reply interrupted: %d %v", n, err)
	}
	l.Release()
	l.Release()
	if n, err := other.RecoverThread(th.ID); err != nil || n != 1 {
		t.Fatalf("dead reply not interrupted: %d %v", n, err)
	}

	// A lease held by a process that is then killed (SIGKILL: no chance
	// to release anything).
	_, r2 := newReply(t, s)
	holder := exec.Command(os.Args[0], "-test.run=^TestLeaseHolderProcess$")
	holder.Env = append(os.Environ(), "GO_WANT_LEASE_HOLDER="+dir+"|"+r2.ID)
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 5)
	if _, err := io.ReadFull(out, line); err != nil || string(line) != "held\n" {
		t.Fatalf("holder: %q %v", line, err)
	}
	if n, _ := other.RecoverThread(r2.ThreadID); n != 0 {
		t.Error("reply of a live process interrupted")
	}
	holder.Process.Kill()
	holder.Wait()
	if n, _ := other.RecoverThread(r2.ThreadID); n != 1 {
		t.Error("reply of a killed process not interrupted")
	}
}

// TestLeaseHolderProcess is the other process of TestLeaseRecovery: it
// takes a lease and waits to be killed.
func TestLeaseHolderProcess(t *testing.T) {
	arg := os.Getenv("GO_WANT_LEASE_HOLDER")
	if arg == "" {
		t.Skip("helper process of TestLeaseRecovery")
	}
	dir, id, _ := strings.Cut(arg, "|")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcquireLease(id); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("held\n")
	select {}
}

// A long append is stored in bounded rows, cut between characters, and
// reads back whole.
func TestWriteReplyLongAppendInChunks(t *testing.T) {
	s := open(t, t.TempDir())
	th, r := newReply(t, s)
	text := strings.Repeat("é€x", textChunk) // 6 bytes a step: cuts fall inside characters
	if err := s.WriteReply(r.ID, []ItemWrite{{Pos: 0, Item: message.Item{ID: "i1", Kind: message.ItemText}, Meta: true, Append: text}}, message.StatusDone); err != nil {
		t.Fatal(err)
	}
	var rows, longest int
	if err := s.db.QueryRow(`SELECT count(*), max(length(CAST(text AS BLOB))) FROM reply_text WHERE message_id = ?`, r.ID).Scan(&rows, &longest); err != nil {
		t.Fatal(err)
	}
	if rows < 2 || longest > textChunk {
		t.Errorf("%d rows, longest %d bytes", rows, longest)
	}
	msgs, _ := s.Messages(th.ID)
	if got := message.ReplyText(msgs[1].Items); got != text {
		t.Errorf("read back %d bytes, want %d", len(got), len(text))
	}
}

// ClearSentDraft removes a draft only when it holds exactly the sent text.
func TestClearSentDraft(t *testing.T) {
	s := open(t, t.TempDir())
	th, _ := newReply(t, s)
	if err := s.SaveDraft(Draft{ThreadID: th.ID, Markdown: "typed since"}); err != nil {
		t.Fatal(err)
	}
	if err := s.ClearSentDraft(th.ID, "sent"); err != nil {
		t.Fatal(err)
	}
	if d, ok, _ := s.LoadDraft(th.ID); !ok || d.Markdown != "typed since" {
		t.Fatalf("another draft was cleared: %+v %v", d, ok)
	}
	if err := s.SaveDraft(Draft{ThreadID: th.ID, Markdown: "sent"}); err != nil {
		t.Fatal(err)
	}
	if err := s.ClearSentDraft(th.ID, "sent"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.LoadDraft(th.ID); ok {
		t.Fatal("the sent text is still the draft")
	}
}
