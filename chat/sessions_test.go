package chat

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
)

// closingBackend is a fake backend that can close sessions: each call's
// thread goes to closed; err is what it answers.
type closingBackend struct {
	*fakeBackend
	closed chan string
	err    error
}

func (b *closingBackend) CloseSession(_ context.Context, threadID string) error {
	err := b.err // read before the test hears of the call (it sets err next)
	b.closed <- threadID
	return err
}

func TestCloseSessionOfDeletedThread(t *testing.T) {
	fb := &fakeBackend{caps: agent.Capabilities{Sessions: true}, turns: make(chan *fakeTurn, 4)}
	cb := &closingBackend{fakeBackend: fb, closed: make(chan string, 1)}
	e := newEnvFor(t, fb, cb)
	e.s.CloseSession(e.thread.ID)
	select {
	case id := <-cb.closed:
		if id != e.thread.ID {
			t.Errorf("closed %q, want %q", id, e.thread.ID)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the backend's session was not closed")
	}

	cb.err = errors.New("acp: session/close: no such session")
	e.s.CloseSession("other")
	<-cb.closed
	n := until[Notice](e, nil)
	if !n.Err || !strings.Contains(n.Text, "could not close the agent's session") || !strings.Contains(n.Text, "no such session") {
		t.Errorf("notice %+v", n)
	}
}

// A backend that cannot close sessions is left alone.
func TestCloseSessionBackendWithout(t *testing.T) {
	e := newEnv(t, agent.Capabilities{})
	e.s.CloseSession(e.thread.ID) // must not panic or block
	e.send("hi")
	ft := e.turn()
	ft.end <- nil
	until[ReplyFinished](e, nil)
	for _, ev := range e.events {
		if n, ok := ev.(Notice); ok {
			t.Errorf("notice %+v", n)
		}
	}
}

// The agent's session title becomes the thread's until the user renames it.
func TestAgentTitleFeedsTheThread(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Sessions: true})
	e.send("fix the login bug please")
	ft := e.turn()
	ft.emit(agent.SessionTitle{Title: "Login bug"})
	ft.end <- nil
	until[ReplyFinished](e, nil)
	e.cursor = 0 // the title's store op and the reply's end come in either order
	tc := until[TitleChanged](e, nil)
	if tc.ThreadID != e.thread.ID || tc.Title != "Login bug" {
		t.Errorf("TitleChanged %+v", tc)
	}
	if th, _ := e.st.Thread(e.thread.ID); th.Title != "Login bug" {
		t.Errorf("stored title %q", th.Title)
	}
	if err := e.st.RenameThread(e.thread.ID, "mine"); err != nil {
		t.Fatal(err)
	}
	e.send("more")
	ft = e.turn()
	ft.emit(agent.SessionTitle{Title: "Another idea"})
	ft.end <- nil
	until[ReplyFinished](e, nil)
	e.s.Send(e.thread.ID, Submission{Markdown: "sync"}) // a later op: the title's op is done
	e.turn().end <- nil
	until[ReplyFinished](e, nil)
	for _, ev := range e.events {
		if tc, ok := ev.(TitleChanged); ok && tc.Title != "Login bug" {
			t.Errorf("the user's title was replaced: %+v", tc)
		}
	}
	if th, _ := e.st.Thread(e.thread.ID); th.Title != "mine" {
		t.Errorf("stored title %q, want the user's", th.Title)
	}
}

// listingBackend is a fake backend with sessions of its own.
type listingBackend struct {
	*fakeBackend
	list    []agent.AgentSession
	history []agent.HistoryMessage
	err     error
	mu      sync.Mutex
	imports []string // "thread session"
}

func (b *listingBackend) ListSessions(context.Context, string) ([]agent.AgentSession, error) {
	return b.list, b.err
}

func (b *listingBackend) ImportSession(_ context.Context, threadID, sid, _ string) ([]agent.HistoryMessage, error) {
	b.mu.Lock()
	b.imports = append(b.imports, threadID+" "+sid)
	b.mu.Unlock()
	return b.history, b.err
}

func newListingEnv(t *testing.T) (*env, *listingBackend) {
	fb := &fakeBackend{caps: agent.Capabilities{Sessions: true}, turns: make(chan *fakeTurn, 4)}
	lb := &listingBackend{fakeBackend: fb}
	return newEnvFor(t, fb, lb), lb
}

// The agent's sessions that are no thread yet are listed; one opened is a
// new thread holding its replayed history once, with the agent's title and
// its session, whose next turn goes on in that session.
func TestAgentSessionsListedAndImported(t *testing.T) {
	e, lb := newListingEnv(t)
	if err := e.st.SetAgentSession(e.thread.ID, "fake", "sess-mine"); err != nil {
		t.Fatal(err)
	}
	lb.list = []agent.AgentSession{{ID: "sess-outside", Title: "Outside work"}, {ID: "sess-mine", Title: "Already a thread"}}
	e.s.ListAgentSessions()
	as := until[AgentSessions](e, nil)
	if as.Err != nil || len(as.Sessions) != 1 || as.Sessions[0].ID != "sess-outside" {
		t.Fatalf("AgentSessions %+v", as)
	}
	lb.history = []agent.HistoryMessage{{Role: "user", Text: "old question"}, {Role: "assistant", Text: "old answer"}}
	e.s.ImportAgentSession(as.Sessions[0])
	si := until[SessionImported](e, nil)
	if si.Title != "Outside work" || si.SessionID != "sess-outside" {
		t.Errorf("SessionImported %+v", si)
	}
	ms, err := e.st.Messages(si.ThreadID)
	if err != nil || len(ms) != 2 || ms[0].Role != message.RoleUser || ms[0].Text != "old question" || message.ReplyText(ms[1].Items) != "old answer" {
		t.Fatalf("stored history %+v %v", ms, err)
	}
	if sid, _, _ := e.st.AgentSession(si.ThreadID, "fake"); sid != "sess-outside" {
		t.Errorf("stored session %q", sid)
	}
	if lb.imports[0] != si.ThreadID+" sess-outside" {
		t.Errorf("imports %v", lb.imports)
	}
	e.s.Send(si.ThreadID, Submission{Markdown: "go on"})
	if ft := e.turn(); ft.turn.SessionID != "sess-outside" {
		t.Errorf("the imported thread's turn has session %q", ft.turn.SessionID)
	} else {
		ft.end <- nil
	}
	// Listed again, it is a thread now.
	e.s.ListAgentSessions()
	if as := until[AgentSessions](e, nil); len(as.Sessions) != 0 {
		t.Errorf("listed again: %+v", as.Sessions)
	}
}

// An agent without session/list, or one that cannot load, says so.
func TestAgentSessionsNotOffered(t *testing.T) {
	e := newEnv(t, agent.Capabilities{})
	e.s.ListAgentSessions()
	if as := until[AgentSessions](e, nil); !errors.Is(as.Err, agent.ErrNotOffered) {
		t.Errorf("AgentSessions %+v", as)
	}
	e.s.ImportAgentSession(AgentSession{ID: "x"})
	if n := until[Notice](e, nil); !n.Err {
		t.Errorf("notice %+v", n)
	}

	e2, lb := newListingEnv(t)
	lb.err = agent.ErrNotOffered
	e2.s.ImportAgentSession(AgentSession{ID: "sess-x"})
	n := until[Notice](e2, nil)
	if !strings.Contains(n.Text, "could not open the agent's session sess-x") || !strings.Contains(n.Text, "cannot load its sessions") {
		t.Errorf("notice %+v", n)
	}
	ts, _ := e2.st.Threads(e2.thread.ProjectID)
	if len(ts) != 1 {
		t.Errorf("a failed import left threads: %+v", ts)
	}
}

// The thread list's agent sessions: a row per session with its title (or
// "(untitled session)"), "agent session", its id and time — no heading
// row, which could be selected and counted but opens nothing; a row's
// value finds its session, a thread's id none; no sessions, no rows.
func TestAgentSessionRows(t *testing.T) {
	if rows := (AgentSessions{Err: agent.ErrNotOffered}).Rows(); rows != nil {
		t.Errorf("rows without sessions: %+v", rows)
	}
	at := time.Date(2026, 11, 3, 14, 5, 0, 0, time.UTC)
	l := AgentSessions{Sessions: []AgentSession{{ID: "s1", Title: "Outside work", Updated: at}, {ID: "s2"}}}
	rows := l.Rows()
	if len(rows) != 2 {
		t.Fatalf("rows %+v", rows)
	}
	if r := rows[0]; r.Title != "  Outside work" || r.Detail != "agent session · s1 · "+at.Local().Format("2006-01-02 15:04") {
		t.Errorf("row %+v", r)
	}
	if r := rows[1]; r.Title != "  (untitled session)" || r.Detail != "agent session · s2" {
		t.Errorf("row %+v", r)
	}
	for i, r := range rows {
		if a, ok := l.Of(r.Value); !ok || a.ID != l.Sessions[i].ID {
			t.Errorf("Of(%q) = %+v %v", r.Value, a, ok)
		}
	}
	for _, v := range []string{"", "s1", "thr_s1"} {
		if _, ok := l.Of(v); ok {
			t.Errorf("Of(%q) is a session", v)
		}
	}
}
