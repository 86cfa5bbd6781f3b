package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// env is a data directory with a project directory; every test drives a
// Workspace through its public methods and reads the store back.
type env struct {
	t    *testing.T
	st   *store.Store
	as   *assets.Store
	dir  string
	data string
	now  time.Time
}

func newEnv(t *testing.T, limit int64) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{t: t, data: filepath.Join(root, "data"), dir: filepath.Join(root, "project"), now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(e.data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	as, err := assets.Open(filepath.Join(e.data, "assets"), limit)
	if err != nil {
		t.Fatal(err)
	}
	e.st, e.as = st, as
	return e
}

// rawMessages reads messages as chat.LoadThread does, without chat.
func rawMessages(st *store.Store, id string) ([]store.Message, error) { return st.MessagesRaw(id) }

func (e *env) open(o Options) *Workspace {
	e.t.Helper()
	o.Store, o.Dir = e.st, e.dir
	if o.Messages == nil {
		o.Messages = rawMessages
	}
	if o.Now == nil {
		o.Now = func() time.Time { return e.now }
	}
	w, err := Open(o)
	if err != nil {
		e.t.Fatal(err)
	}
	return w
}

func (e *env) workspace() *Workspace { return e.open(Options{Assets: e.as}) }

// thread stores a thread with one user message.
func (e *env) thread(w *Workspace, text string) Thread {
	e.t.Helper()
	th, err := e.st.CreateThread(w.ProjectID())
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.st.AddMessage(store.Message{ThreadID: th.ID, Role: message.RoleUser, Text: text, Status: message.StatusDone}); err != nil {
		e.t.Fatal(err)
	}
	t, err := w.Thread(th.ID)()
	if err != nil {
		e.t.Fatal(err)
	}
	return t
}

func must[T any](t *testing.T, f func() (T, error)) T {
	t.Helper()
	v, err := f()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func noErr(t *testing.T, f func() error) {
	t.Helper()
	if err := f(); err != nil {
		t.Fatal(err)
	}
}

func TestOpenNeedsAStoreAndAMessageReader(t *testing.T) {
	e := newEnv(t, 0)
	if _, err := Open(Options{Dir: e.dir, Messages: rawMessages}); err == nil {
		t.Error("no store: opened")
	}
	if _, err := Open(Options{Store: e.st, Dir: e.dir}); err == nil {
		t.Error("no message reader: opened")
	}
}

func TestStartPicksTheThread(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	// No thread yet: a new one, stored only with its first message or draft.
	for range 3 {
		o := must(t, w.Start("", false))
		if o.Thread.ID == "" || len(o.Messages) != 0 || o.Draft != nil {
			t.Fatalf("empty project opened %+v", o)
		}
	}
	if ts := must(t, w.Threads()); len(ts) != 0 {
		t.Fatalf("opening new threads stored %d", len(ts))
	}
	older := e.thread(w, "older work")
	newer := e.thread(w, "newer work")
	if o := must(t, w.Start("", false)); o.Thread.ID != newer.ID || o.Thread.Title != "newer work" || len(o.Messages) != 1 {
		t.Fatalf("most recent: %+v", o)
	}
	if o := must(t, w.Start(older.ID, false)); o.Thread.ID != older.ID || o.Messages[0].Text != "older work" {
		t.Fatalf("given: %+v", o)
	}
	if o := must(t, w.Start("", true)); o.Thread.ID == older.ID || o.Thread.ID == newer.ID {
		t.Fatalf("--new opened %s", o.Thread.ID)
	}
	_, err := w.Start("thr_missing", false)()
	if err == nil || !strings.Contains(err.Error(), "no thread thr_missing in "+e.st.Dir()) {
		t.Fatalf("missing thread: %v", err)
	}
}

func TestLoadBringsTheDraftAndItsRevision(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	th := e.thread(w, "hello")
	noErr(t, func() error {
		_, err := w.SaveDraft(1, Draft{ThreadID: th.ID, Markdown: "half typed", Caret: Caret{Line: 0, Col: 4}})()
		return err
	})
	o := must(t, w.Load(th.ID))
	if o.Draft == nil || o.Draft.Markdown != "half typed" || o.Draft.Caret != (Caret{0, 4}) || o.Draft.Rev == 0 {
		t.Fatalf("draft %+v", o.Draft)
	}
	if _, err := w.Load("thr_missing")(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
}

func TestRenameDeleteAndLatest(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	a := e.thread(w, "first")
	b := e.thread(w, "second")
	noErr(t, w.Rename(a.ID, "renamed"))
	if th := must(t, w.Thread(a.ID)); th.Title != "renamed" {
		t.Fatalf("title %q", th.Title)
	}
	noErr(t, w.Delete(b.ID))
	ts := must(t, w.Threads())
	if len(ts) != 1 || ts[0].ID != a.ID {
		t.Fatalf("threads %+v", ts)
	}
	if o := must(t, w.Latest()); o.Thread.ID != a.ID {
		t.Fatalf("latest %s, want %s", o.Thread.ID, a.ID)
	}
	noErr(t, w.Delete(a.ID))
	if o := must(t, w.Latest()); o.Thread.ID == "" || o.Thread.ID == a.ID {
		t.Fatalf("latest of none: %+v", o.Thread)
	}
}

func TestThreadSourceLeavesOutTheOpenThread(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	a := e.thread(w, "alpha")
	b := e.thread(w, "beta")
	src := w.ThreadSource()
	src.SetCurrent(a.ID)
	refs, err := src.List()
	if err != nil || len(refs) != 1 || refs[0].ThreadID != b.ID || refs[0].Title != "beta" || refs[0].EnvironmentID != e.st.EnvironmentID() {
		t.Fatalf("refs %+v %v", refs, err)
	}
	src.SetCurrent(b.ID)
	if refs, _ := src.List(); len(refs) != 1 || refs[0].ThreadID != a.ID {
		t.Fatalf("refs %+v", refs)
	}
}

func TestHereTellsOtherProjectsAndGoneThreads(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	mine := e.thread(w, "mine")
	otherDir := filepath.Join(filepath.Dir(e.dir), "other")
	if err := os.MkdirAll(otherDir, 0o755); err != nil {
		t.Fatal(err)
	}
	ow, err := Open(Options{Store: e.st, Dir: otherDir, Messages: rawMessages})
	if err != nil {
		t.Fatal(err)
	}
	theirs := e.thread(ow, "theirs")
	if title, other, err := w.Here(mine.ID)(); err != nil || other || title != "mine" {
		t.Fatalf("mine: %q %v %v", title, other, err)
	}
	if title, other, err := w.Here(theirs.ID)(); err != nil || !other || title != "theirs" {
		t.Fatalf("theirs: %q %v %v", title, other, err)
	}
	if _, _, err := w.Here("thr_gone")(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("gone: %v", err)
	}
}

// Two processes (two workspaces) save one thread's draft: the second's
// save over a revision it has not seen keeps the first's version in the
// stash, once; saving on over its own revision is no conflict.
func TestSaveDraftConflictGoesToTheStash(t *testing.T) {
	e := newEnv(t, 0)
	mine, theirs := e.workspace(), e.workspace()
	th := mine.NewThread()
	mine.DraftLoaded(th.ID, nil)
	if res := must(t, theirs.SaveDraft(1, Draft{ThreadID: th.ID, Markdown: "their words"})); res.Conflict || res.Skipped {
		t.Fatalf("first save: %+v", res)
	}
	if res := must(t, mine.SaveDraft(1, Draft{ThreadID: th.ID, Markdown: "mine"})); !res.Conflict {
		t.Fatalf("save over an unseen revision: %+v", res)
	}
	if res := must(t, mine.SaveDraft(2, Draft{ThreadID: th.ID, Markdown: "mine too"})); res.Conflict {
		t.Fatalf("save over its own revision: %+v", res)
	}
	stash := must(t, mine.Stashed())
	if len(stash) != 1 || stash[0].Markdown != "their words" {
		t.Fatalf("stash %+v", stash)
	}
	if o := must(t, mine.Load(th.ID)); o.Draft == nil || o.Draft.Markdown != "mine too" {
		t.Fatalf("draft %+v", o.Draft)
	}
}

// A save numbered before one already written is skipped: an older draft
// never overwrites a newer one.
func TestSaveDraftSkipsAnOlderSave(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	th := w.NewThread()
	w.DraftLoaded(th.ID, nil)
	older := w.SaveDraft(1, Draft{ThreadID: th.ID, Markdown: "older"})
	must(t, w.SaveDraft(2, Draft{ThreadID: th.ID, Markdown: "newer"}))
	if res := must(t, older); !res.Skipped {
		t.Fatalf("older save: %+v", res)
	}
	if o := must(t, w.Load(th.ID)); o.Draft.Markdown != "newer" {
		t.Fatalf("draft %q", o.Draft.Markdown)
	}
}

func TestClearSentDraft(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	th := w.NewThread()
	w.DraftLoaded(th.ID, nil)
	must(t, w.SaveDraft(1, Draft{ThreadID: th.ID, Markdown: "typed on"}))
	noErr(t, w.ClearSentDraft(th.ID, "something else"))
	if o := must(t, w.Load(th.ID)); o.Draft == nil {
		t.Fatal("a draft that is not the sent text was cleared")
	}
	noErr(t, w.ClearSentDraft(th.ID, "typed on"))
	if o := must(t, w.Load(th.ID)); o.Draft != nil && o.Draft.Markdown != "" {
		t.Fatalf("the sent draft stayed: %+v", o.Draft)
	}
}

func TestStashPushListDrop(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	rec := &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "m1", "a.go"), Path: "a.go"}
	first := must(t, w.Stash("first", nil))
	second := must(t, w.Stash("see "+contextref.LinkFor(rec), []contextref.Record{rec}))
	es := must(t, w.Stashed())
	if len(es) != 2 || !strings.HasPrefix(es[0].Markdown, "see ") || len(es[0].Records) != 1 || es[1].Markdown != "first" {
		t.Fatalf("stash %+v", es)
	}
	if es[0].ID != second || es[1].ID != first || first == second {
		t.Errorf("Stash answered ids %d, %d; listed %d, %d", first, second, es[1].ID, es[0].ID)
	}
	noErr(t, w.DropStash(es[0].ID))
	if es := must(t, w.Stashed()); len(es) != 1 || es[0].Markdown != "first" {
		t.Fatalf("after drop %+v", es)
	}
}

// The history is the project's, shared by every workspace over it.
func TestHistorySharedByTwoWorkspaces(t *testing.T) {
	e := newEnv(t, 0)
	a, b := e.workspace(), e.workspace()
	noErr(t, a.Remember("from a", nil))
	noErr(t, b.Remember("from b", nil))
	hs := must(t, a.History())
	if len(hs) != 2 || hs[0].Markdown != "from b" || hs[1].Markdown != "from a" {
		t.Fatalf("history %+v", hs)
	}
}

// The excerpt's time is the workspace's clock when NoteExcerpt is called,
// not when its func runs.
func TestNoteExcerptUsesTheClock(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	note := w.NoteExcerpt("ctx_term")
	taken := e.now
	e.now = e.now.Add(time.Hour)
	noErr(t, note)
	at, ok, err := e.st.ExcerptCaptured("ctx_term")
	if err != nil || !ok || !at.Equal(taken) {
		t.Fatalf("captured %v %v %v, want %v", at, ok, err, taken)
	}
}

func TestErrorWords(t *testing.T) {
	if got := ErrorWords(errors.New("plain")); got != "plain" {
		t.Errorf("plain error: %q", got)
	}
	ioe := &store.IOError{Path: "/data/chipchat.db", Cause: store.CauseDiskFull, Err: errors.New("no space left on device")}
	want := store.CauseDiskFull.String() + " (/data/chipchat.db)"
	if got := ErrorWords(fmt.Errorf("save: %w", ioe)); got != want {
		t.Errorf("a store error: %q, want %q", got, want)
	}
}

func TestTitleIsTheFirstLineWithChipsAsLabels(t *testing.T) {
	rec := &contextref.FileRecord{AttachmentRecord: contextref.AttachmentRecord{Base: contextref.NewBase(contextref.KindFile, "c1", "notes.txt"),
		AttachmentID: "att_1", Name: "notes.txt", MimeType: "text/plain"}}
	if got := Title("\n  see " + contextref.LinkFor(rec) + " please  \nsecond line"); got != "see notes.txt please" {
		t.Errorf("title %q", got)
	}
}

// Issue 25 item 8: the history search lists a prompt with its chips as
// labels and a quote as its words and the user's comment, never the quote
// link's percent-encoded text.
func TestHistoryTitleShowsChipsAsLabels(t *testing.T) {
	e := newEnv(t, 0)
	w := e.workspace()
	rec := &contextref.MentionRecord{Base: contextref.NewBase(contextref.KindMention, "m1", "notes.md"), Path: "notes.md"}
	comment := "is this  right?"
	q := &contextref.Citation{Version: 1, EnvironmentID: "local", ThreadID: "t1", MessageID: "m1",
		Text: "The cache is\nflushed on exit.", Comment: &comment, Start: 0, End: 27}
	noErr(t, w.Remember("look at "+contextref.LinkFor(rec)+"\nand "+q.Link()+" thanks", []contextref.Record{rec}))
	hs := must(t, w.History())
	want := "look at [notes.md] and [❝ The cache is flushed on exit.] is this right? thanks"
	if len(hs) != 1 || hs[0].Title != want {
		t.Fatalf("history title %q, want %q", hs[0].Title, want)
	}
	long := strings.Repeat("word ", 30)
	lq := &contextref.Citation{Version: 1, EnvironmentID: "local", ThreadID: "t1", MessageID: "m1", Text: long, End: int64(len(long))}
	if got := HistoryTitle(lq.Link()); got != "[❝ "+long[:64]+"…]" {
		t.Errorf("a long quote: %q", got)
	}
}
