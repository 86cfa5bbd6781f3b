package chat

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// fakeBackend hands each turn to the test, which plays the agent.
type fakeBackend struct {
	caps  agent.Capabilities
	turns chan *fakeTurn
	// deaf: Run ignores its context (a backend that does not stop).
	deaf bool
}

type fakeTurn struct {
	turn agent.Turn
	emit func(agent.Event)
	end  chan error
	ctx  context.Context
}

func (b *fakeBackend) Name() string                     { return "fake" }
func (b *fakeBackend) Capabilities() agent.Capabilities { return b.caps }
func (b *fakeBackend) Run(ctx context.Context, t agent.Turn, emit func(agent.Event)) error {
	ft := &fakeTurn{turn: t, emit: emit, end: make(chan error, 1), ctx: ctx}
	b.turns <- ft
	if b.deaf {
		return <-ft.end
	}
	select {
	case err := <-ft.end:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

type env struct {
	t      *testing.T
	st     *store.Store
	assets *assets.Store
	clock  *ManualClock
	b      *fakeBackend
	s      *Service
	thread store.Thread
	events []Event // everything seen, in order
	cursor int     // events before it are past
}

func newEnv(t *testing.T, caps agent.Capabilities) *env {
	t.Helper()
	fb := &fakeBackend{caps: caps, turns: make(chan *fakeTurn, 4)}
	return newEnvFor(t, fb, fb)
}

// newEnvFor is a store, an asset store, a thread and a service running
// backend, whose turns fb hands to the test.
func newEnvFor(t *testing.T, fb *fakeBackend, backend agent.Backend) *env {
	t.Helper()
	return newEnvWith(t, fb, backend, nil)
}

// newEnvWith is newEnvFor with the service's options changed by opt (when
// not nil); fb may be nil for a backend that is no fake.
func newEnvWith(t *testing.T, fb *fakeBackend, backend agent.Backend, opt func(*Options)) *env {
	t.Helper()
	dir := fastTempDir(t)
	st, err := store.Open(filepath.Join(dir, "data"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	as, err := assets.Open(filepath.Join(dir, "data", "assets"), 0)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := st.Project("/proj")
	th, err := st.CreateThread(p.ID)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, st: st, assets: as, clock: NewManualClock(time.Unix(1_800_000_000, 0)), b: fb, thread: th}
	o := Options{Store: st, Assets: as, Backend: backend, ProjectID: p.ID, Dir: dir, Clock: e.clock, ExcerptMaxAge: time.Hour}
	if opt != nil {
		opt(&o)
	}
	e.s = New(o)
	t.Cleanup(e.s.Close)
	return e
}

// fastTempDir is a temporary directory in memory when the machine has one:
// a user message is fsynced (synchronous=FULL), which on a disk costs tens
// of milliseconds a message and would make these tests slow for no gain.
func fastTempDir(t *testing.T) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "chipchat-chat-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return t.TempDir()
}

// until reads events until one satisfies ok, and returns it. It fails the
// test when none comes within a second (a bound, not a wait: events come
// at once).
func until[T Event](e *env, ok func(T) bool) T {
	e.t.Helper()
	return untilWithin(e, 2*time.Second, ok)
}

func (e *env) turn() *fakeTurn {
	e.t.Helper()
	select {
	case ft := <-e.b.turns:
		return ft
	case <-time.After(2 * time.Second):
		e.t.Fatal("the backend was not started")
		return nil
	}
}

func (e *env) send(text string) {
	e.s.Send(e.thread.ID, Submission{Markdown: text, Ref: 7})
}

func (e *env) messages() []store.Message {
	e.t.Helper()
	ms, err := e.st.Messages(e.thread.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	return ms
}

func replyIs(id string) func(ReplyFinished) bool {
	return func(f ReplyFinished) bool { return f.ReplyID == id }
}

// The user's message is on disk before the backend sees the turn, and the
// draft is cleared there too.
func TestSendStoresBeforeTheBackendRuns(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	if err := e.st.SaveDraft(store.Draft{ThreadID: e.thread.ID, Markdown: "hello agent"}); err != nil {
		t.Fatal(err)
	}
	e.send("hello agent")
	us := until[UserStored](e, nil)
	if us.Ref != 7 || us.Queued || us.Message.Text != "hello agent" {
		t.Fatalf("%+v", us)
	}
	ft := e.turn()
	ms := e.messages()
	if len(ms) != 2 || ms[0].Text != "hello agent" || ms[1].Status != message.StatusStreaming {
		t.Fatalf("store when the backend started: %+v", ms)
	}
	if ft.turn.Prompt != "hello agent" || ft.turn.ThreadID != e.thread.ID {
		t.Errorf("turn: %+v", ft.turn)
	}
	if _, ok, _ := e.st.LoadDraft(e.thread.ID); ok {
		t.Error("draft still on disk after the send")
	}
	if e.s.Phase(e.thread.ID) != Streaming {
		t.Errorf("phase %v", e.s.Phase(e.thread.ID))
	}
	ft.end <- nil
	until[ReplyFinished](e, nil)
	if e.s.Phase(e.thread.ID) != Idle {
		t.Errorf("phase after the turn: %v", e.s.Phase(e.thread.ID))
	}
}

// Events fold into items: a tool call closes the open text item, an update
// replaces its item, the plan is updated in place; growing text is on disk
// within FlushEvery of the change however fast it comes, appended.
func TestItemsFoldAndPersist(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.send("go")
	ft := e.turn()
	rs := until[ReplyStarted](e, nil)
	ft.emit(agent.TextDelta{Text: "Let me look"})
	ft.emit(agent.TextDelta{Text: " at it."})
	ft.emit(agent.ToolCall{Tool: message.Tool{CallID: "c1", Kind: "execute", Title: "ls", Status: message.ToolPending}})
	ft.emit(agent.Plan{Entries: []message.PlanEntry{{Content: "read", Status: "in_progress"}}})
	done := message.ToolCompleted
	ft.emit(agent.ToolUpdate{CallID: "c1", Status: &done, Content: []message.ToolContent{{Type: message.ContentText, Text: "a.go\nb.go"}}})
	ft.emit(agent.Plan{Entries: []message.PlanEntry{{Content: "read", Status: "completed"}}})
	ft.emit(agent.TextDelta{Text: "Two files."})
	last := until[ItemChanged](e, func(c ItemChanged) bool { return c.Index == 3 && c.Item.Text == "Two files." })
	if last.ReplyID != rs.Reply.ID || last.Item.Kind != message.ItemText {
		t.Fatalf("%+v", last)
	}
	// Nothing written yet: the flush is 300 ms away.
	if got := e.messages()[1].Items; len(got) != 0 {
		t.Fatalf("written before the flush: %+v", got)
	}
	e.clock.Advance(299 * time.Millisecond)
	if got := e.messages()[1].Items; len(got) != 0 {
		t.Fatalf("written before 300 ms: %+v", got)
	}
	e.clock.Advance(time.Millisecond)
	items := e.messages()[1].Items
	if len(items) != 4 {
		t.Fatalf("after the flush: %+v", items)
	}
	kinds := []message.ItemKind{items[0].Kind, items[1].Kind, items[2].Kind, items[3].Kind}
	want := []message.ItemKind{message.ItemText, message.ItemTool, message.ItemPlan, message.ItemText}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("kinds %v, want %v", kinds, want)
		}
	}
	if items[0].Text != "Let me look at it." || items[1].Tool.Status != message.ToolCompleted || items[1].Tool.Content[0].Text != "a.go\nb.go" ||
		items[2].Plan[0].Status != "completed" || items[1].Tool.Ended.IsZero() {
		t.Errorf("items: %+v %+v %+v", items[0], items[1].Tool, items[2].Plan)
	}
	// Steady streaming: each change is on disk within 300 ms.
	for i := range 10 {
		ft.emit(agent.TextDelta{Text: " more"})
		until[ItemChanged](e, nil)
		e.clock.Advance(100 * time.Millisecond)
		if i%3 == 2 {
			if got := e.messages()[1].Items[3].Text; got != "Two files."+strings.Repeat(" more", i+1) {
				t.Fatalf("step %d: on disk %q", i, got)
			}
		}
	}
	ft.end <- nil
	f := until[ReplyFinished](e, replyIs(rs.Reply.ID))
	if f.Status != message.StatusDone {
		t.Fatal(f)
	}
	got := e.messages()[1]
	if got.Status != message.StatusDone || got.Items[3].Text != "Two files."+strings.Repeat(" more", 10) {
		t.Errorf("final: %s %q", got.Status, got.Items[3].Text)
	}
}

// enter while a turn runs queues the message; a done turn sends the next;
// a cancelled one pauses the queue until SendNext; alt+up takes the last
// queued message back.
func TestQueue(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.send("first")
	ft := e.turn()
	e.send("second")
	e.send("third")
	q := until[UserStored](e, func(u UserStored) bool { return u.Message.Text == "third" })
	if !q.Queued || q.Message.Status != message.StatusQueued {
		t.Fatalf("%+v", q)
	}
	qc := until[QueueChanged](e, func(c QueueChanged) bool { return len(c.Queued) == 2 })
	if qc.Paused {
		t.Error("queue paused while the turn runs")
	}
	ft.end <- nil // done: "second" goes next
	ft2 := e.turn()
	if ft2.turn.Prompt != "second" {
		t.Fatalf("next turn: %q", ft2.turn.Prompt)
	}
	if !e.s.Cancel(e.thread.ID) {
		t.Fatal("nothing to cancel")
	}
	f := until[ReplyFinished](e, func(f ReplyFinished) bool { return f.Status != message.StatusDone })
	if f.Status != message.StatusInterrupted {
		t.Fatal(f)
	}
	qc = until[QueueChanged](e, func(c QueueChanged) bool { return c.Paused })
	if len(qc.Queued) != 1 || qc.Queued[0].Text != "third" {
		t.Fatalf("paused queue: %+v", qc)
	}
	if !e.s.Unqueue(e.thread.ID) {
		t.Fatal("Unqueue")
	}
	un := until[Unqueued](e, nil)
	if un.Message.Text != "third" {
		t.Fatal(un)
	}
	if e.s.SendNext(e.thread.ID) {
		t.Error("SendNext with an empty queue")
	}
	// The thread, in order: first, its reply, second, its reply; "third" is gone.
	var texts []string
	for _, m := range e.messages() {
		texts = append(texts, string(m.Role)+":"+m.Text+":"+string(m.Status))
	}
	want := "user:first:done|assistant::done|user:second:done|assistant::interrupted"
	if strings.Join(texts, "|") != want {
		t.Errorf("thread %q", strings.Join(texts, "|"))
	}
	// A paused queue resumes on SendNext.
	e.send("fourth")
	ft4 := e.turn()
	e.send("fifth")
	until[UserStored](e, func(u UserStored) bool { return u.Message.Text == "fifth" })
	e.s.Cancel(e.thread.ID)
	_ = ft4
	until[QueueChanged](e, func(c QueueChanged) bool { return c.Paused })
	if !e.s.SendNext(e.thread.ID) {
		t.Fatal("SendNext")
	}
	if ft5 := e.turn(); ft5.turn.Prompt != "fifth" {
		t.Fatal(ft5.turn.Prompt)
	}
}

// An agent error ends the reply in error with a notice item holding the
// stderr tail; alt+r asks again for the same message, as a new reply.
func TestErrorAndRetry(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.send("please")
	ft := e.turn()
	ft.emit(agent.TextDelta{Text: "half"})
	ft.end <- &agent.Error{Err: errors.New("exit status 1"), StderrTail: "refusing to run as root"}
	f := until[ReplyFinished](e, nil)
	if f.Status != message.StatusError || f.Err == nil {
		t.Fatal(f)
	}
	reply := e.messages()[1]
	if reply.Status != message.StatusError || len(reply.Items) != 2 || reply.Items[0].Text != "half" ||
		reply.Items[1].Level != "error" || reply.Items[1].StderrTail != "refusing to run as root" ||
		!strings.Contains(reply.Items[1].Text, "alt+r") {
		t.Fatalf("%+v", reply)
	}
	if !e.s.CanRetry(e.thread.ID) || !e.s.Retry(e.thread.ID) {
		t.Fatal("no retry")
	}
	ft2 := e.turn()
	if ft2.turn.Prompt != "please" {
		t.Fatal(ft2.turn.Prompt)
	}
	ft2.end <- nil
	until[ReplyFinished](e, func(f ReplyFinished) bool { return f.Status == message.StatusDone })
	if e.s.CanRetry(e.thread.ID) {
		t.Error("retry still offered after a done reply")
	}
	if ms := e.messages(); len(ms) != 3 || ms[2].Role != message.RoleAssistant {
		t.Errorf("retry: %d messages", len(ms))
	}
}

// Cancel ends the turn interrupted, keeping what the agent wrote; a
// backend that ignores the cancel is recorded interrupted after StopWait,
// and what it sends later is dropped.
func TestCancelAndStuckBackend(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.b.deaf = true
	e.send("x")
	ft := e.turn()
	ft.emit(agent.TextDelta{Text: "partial"})
	until[ItemChanged](e, nil)
	e.s.Cancel(e.thread.ID)
	until[PhaseChanged](e, func(p PhaseChanged) bool { return p.Phase == Stopping })
	if ft.ctx.Err() == nil {
		t.Fatal("the backend's context was not cancelled")
	}
	e.clock.Advance(3 * time.Second)
	f := until[ReplyFinished](e, nil)
	if f.Status != message.StatusInterrupted {
		t.Fatal(f)
	}
	ft.emit(agent.TextDelta{Text: " too late"})
	ft.end <- nil
	reply := e.messages()[1]
	if reply.Status != message.StatusInterrupted || message.ReplyText(reply.Items) != "partial" {
		t.Errorf("%s %q", reply.Status, message.ReplyText(reply.Items))
	}
}

// A permission question reaches the UI; the answer reaches the backend and
// is recorded in the reply; a cancel answers pending questions cancelled.
func TestPermission(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.send("edit it")
	ft := e.turn()
	reply := make(chan agent.PermissionAnswer, 1)
	opts := []message.PermissionOption{{ID: "always", Name: "Always Allow", Kind: message.AllowAlways}, {ID: "once", Name: "Allow", Kind: message.AllowOnce}, {ID: "no", Name: "Reject", Kind: message.RejectOnce}}
	ft.emit(agent.Permission{Request: message.Permission{ToolCallID: "c1", Asked: "Edit a.go", Options: opts}, Reply: reply})
	pa := until[PermissionAsked](e, nil)
	if pa.Request.Asked != "Edit a.go" || len(pa.Request.Options) != 3 {
		t.Fatal(pa)
	}
	e.s.AnswerPermission(pa.ID, PermissionAnswer{OptionID: "once", Outcome: "selected"})
	if got := <-reply; got.OptionID != "once" {
		t.Fatal(got)
	}
	c := until[ItemChanged](e, func(c ItemChanged) bool { return c.Item.Permission != nil && c.Item.Permission.Outcome != "" })
	until[AskClosed](e, nil)
	if c.Item.Permission.ChosenName() != "Allow" {
		t.Errorf("%+v", c.Item.Permission)
	}
	reply2 := make(chan agent.PermissionAnswer, 1)
	ft.emit(agent.Permission{Request: message.Permission{Asked: "Run rm", Options: opts}, Reply: reply2})
	until[PermissionAsked](e, nil)
	e.s.Cancel(e.thread.ID)
	if got := <-reply2; got.Outcome != "cancelled" {
		t.Errorf("pending question on cancel: %+v", got)
	}
	until[ReplyFinished](e, nil)
	items := e.messages()[1].Items
	if len(items) != 2 || items[1].Permission.Outcome != "cancelled" || items[0].Permission.Chosen != "once" {
		t.Errorf("%+v", items)
	}
}

// Quit waits for running turns to be on disk (interrupted), bounded by
// StopWait for a backend that does not stop.
func TestQuit(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.s.Quit()
	until[QuitReady](e, nil) // nothing running: at once

	e = newEnv(t, agent.Capabilities{Cancel: true})
	e.b.deaf = true
	e.send("x")
	ft := e.turn()
	ft.emit(agent.TextDelta{Text: "so far"})
	e.send("queued")
	until[UserStored](e, func(u UserStored) bool { return u.Queued })
	e.s.Quit()
	e.clock.Advance(3 * time.Second)
	until[QuitReady](e, nil)
	ms := e.messages()
	if ms[1].Status != message.StatusInterrupted || message.ReplyText(ms[1].Items) != "so far" || ms[2].Status != message.StatusQueued {
		t.Errorf("after quit: %+v", ms)
	}
	ft.end <- nil
}

// A crash (a streaming reply whose lease nobody holds) opens as interrupted
// with its items; its message can be retried and the queue is kept,
// paused. A reply still written by a live service is never touched.
func TestCrashRecovery(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	u, _ := e.st.AddMessage(store.Message{ThreadID: e.thread.ID, Role: message.RoleUser, Text: "slow one"})
	r, _ := e.st.AddMessage(store.Message{ThreadID: e.thread.ID, Role: message.RoleAssistant, Status: message.StatusStreaming})
	if err := e.st.WriteReply(r.ID, []store.ItemWrite{{Pos: 0, Item: message.Item{ID: "item_1", Kind: message.ItemText}, Meta: true, Append: "partial text"}}, ""); err != nil {
		t.Fatal(err)
	}
	e.st.AddMessage(store.Message{ThreadID: e.thread.ID, Role: message.RoleUser, Text: "next", Status: message.StatusQueued})
	msgs, err := LoadThread(e.st, e.thread.ID)
	if err != nil {
		t.Fatal(err)
	}
	if msgs[1].Status != message.StatusInterrupted || message.ReplyText(msgs[1].Items) != "partial text" {
		t.Fatalf("%+v", msgs[1])
	}
	e.s.Adopt(e.thread.ID, msgs)
	qc := until[QueueChanged](e, nil)
	if !qc.Paused || len(qc.Queued) != 1 {
		t.Fatal(qc)
	}
	if !e.s.Retry(e.thread.ID) {
		t.Fatal("no retry after the crash")
	}
	ft := e.turn()
	if ft.turn.Prompt != u.Text {
		t.Fatal(ft.turn.Prompt)
	}
	// A second process opening the thread now leaves the live reply alone.
	rs := until[ReplyStarted](e, nil)
	other, err := store.Open(e.st.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	msgs, _ = LoadThread(other, e.thread.ID)
	for _, m := range msgs {
		if m.ID == rs.Reply.ID && m.Status != message.StatusStreaming {
			t.Errorf("live reply marked %s by another process", m.Status)
		}
	}
	ft.end <- nil
	until[ReplyFinished](e, nil)
	// Done: the paused queue stays paused until the user asks (it was
	// paused before this retry).
	if q, paused := e.s.Queue(e.thread.ID); len(q) != 0 && !paused {
		t.Logf("queue after retry: %d paused=%v", len(q), paused)
	}
}

// Send refuses what the contract refuses, keeps the draft's Ref, and drops
// expired terminal excerpts with a notice.
func TestSendLimitsAndExpiry(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.send("   ")
	if f := until[SendFailed](e, nil); f.Ref != 7 || f.Err == nil {
		t.Fatal(f)
	}
	if e.s.Phase(e.thread.ID) != Idle {
		t.Error("not idle after a refused send")
	}
	old := &contextref.TerminalRecord{Base: contextref.Base{Version: 1, ContextID: "ctx_old", Label: "T1", Kind: contextref.KindTerminal},
		TerminalID: "t1", TerminalLabel: "Terminal 1", LineStart: 1, LineEnd: 1, Text: "secret"}
	if err := e.st.NoteExcerpt("ctx_old", e.clock.Now().Add(-2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	e.s.Send(e.thread.ID, Submission{Markdown: "see [T1](t3-context://v1/terminal/ctx_old)", Records: []contextref.Record{old}})
	n := until[Notice](e, nil)
	if !strings.Contains(n.Text, "1 terminal excerpt") {
		t.Error(n.Text)
	}
	ft := e.turn()
	if strings.Contains(ft.turn.Prompt, "secret") || !strings.Contains(ft.turn.Prompt, `unavailable="true"`) {
		t.Errorf("expired excerpt reached the agent: %q", ft.turn.Prompt)
	}
	ft.end <- nil
}

// A harness backend gets the history; /compact asks it to compact; a
// session backend gets its session back after a restart.
func TestHistoryCompactAndSessions(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true, History: true, Compact: true, Sessions: true})
	e.send("one")
	ft := e.turn()
	ft.emit(agent.TextDelta{Text: "answer one"})
	ft.emit(agent.SessionStarted{ID: "sess-9"})
	ft.end <- nil
	until[ReplyFinished](e, nil)
	e.send("/compact")
	ft = e.turn()
	if !ft.turn.Compact || len(ft.turn.History) != 2 || ft.turn.History[1].Text != "answer one" || ft.turn.SessionID != "sess-9" {
		t.Fatalf("%+v", ft.turn)
	}
	ft.end <- nil
	until[ReplyFinished](e, nil)

	// A new service (a restart) hands the stored session back.
	s2 := New(Options{Store: e.st, Assets: e.assets, Backend: e.b, Dir: t.TempDir(), Clock: e.clock})
	defer s2.Close()
	s2.Send(e.thread.ID, Submission{Markdown: "again"})
	if ft := e.turn(); ft.turn.SessionID != "sess-9" {
		t.Errorf("session after restart: %q", ft.turn.SessionID)
	} else {
		ft.end <- nil
	}
}

// A fork copies the messages up to the chosen one and is titled
// "<title> (fork)".
func TestFork(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.send("plan the release")
	ft := e.turn()
	ft.emit(agent.TextDelta{Text: "ok"})
	ft.end <- nil
	f := until[ReplyFinished](e, nil)
	e.s.Fork(e.thread.ID, f.ReplyID)
	fk := until[Forked](e, nil)
	if fk.Title != "plan the release (fork)" {
		t.Errorf("title %q", fk.Title)
	}
	ms, _ := e.st.Messages(fk.ThreadID)
	if len(ms) != 2 || message.ReplyText(ms[1].Items) != "ok" {
		t.Errorf("fork: %+v", ms)
	}
	if forkTitle(strings.Repeat("x", 80)) != strings.Repeat("x", 73)+" (fork)" {
		t.Error(forkTitle(strings.Repeat("x", 80)))
	}
}
