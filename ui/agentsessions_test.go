package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/message"
)

// listingEcho is the echo agent with sessions of its own (session/list)
// that it loads with their history (session/load), or fails to (loadErr).
type listingEcho struct {
	agent.Echo
	list    []agent.AgentSession
	history []agent.HistoryMessage
	loadErr error
	mu      sync.Mutex
	loads   []string // the session ids loaded
}

func (b *listingEcho) ListSessions(context.Context, string) ([]agent.AgentSession, error) {
	return b.list, nil
}

func (b *listingEcho) ImportSession(_ context.Context, _, sid, _ string) ([]agent.HistoryMessage, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.loads = append(b.loads, sid)
	return b.history, b.loadErr
}

func (b *listingEcho) loaded() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.loads...)
}

// openListing opens the app over b on its most recent thread, of which
// the agent's session "sess-mine" is already the session.
func openListing(t *testing.T, b agent.Backend) (*testEnv, *harness) {
	e := newTestEnv(t)
	_, beta := twoThreads(e)
	if err := e.st.SetAgentSession(beta.ID, b.Name(), "sess-mine"); err != nil {
		t.Fatal(err)
	}
	opt := e.options(beta.ID)
	opt.Backend = b
	return e, e.openWith(opt)
}

// The thread list shows, below the threads, the agent's sessions that are
// no thread yet, with their title and time; enter opens one as a new
// thread holding the history the agent replayed, stored once.
func TestThreadListAgentSessions(t *testing.T) {
	updated := time.Date(2026, 11, 3, 14, 5, 0, 0, time.UTC)
	b := &listingEcho{list: []agent.AgentSession{
		{ID: "sess-outside", Title: "Outside work", Updated: updated},
		{ID: "sess-mine", Title: "Already a thread"},
		{ID: "sess-hostile" + hostileOSC, Title: "Hostile" + hostileCSI},
	}, history: []agent.HistoryMessage{{Role: "user", Text: "old question"}, {Role: "assistant", Text: "old answer"}}}
	e, h := openListing(t, b)
	h.openSwitcher()
	h.pumpUntil("the agent's sessions", func() bool { return strings.Contains(h.overlayText(), "Outside work") })
	ov := h.overlayText()
	beta, outside := strings.Index(ov, "Beta plans"), strings.Index(ov, "Outside work")
	if beta < 0 || outside < beta || !strings.Contains(ov[outside:], chat.SessionRowDetail) {
		t.Fatalf("want the threads, then the session marked %q:\n%s", chat.SessionRowDetail, ov)
	}
	// Every row counted opens something: two threads, two sessions.
	if !strings.Contains(ov, "4 of 4") {
		t.Errorf("the count is not the rows that open something:\n%s", ov)
	}
	if !strings.Contains(ov, updated.Local().Format("2006-01-02 15:04")) {
		t.Errorf("the session's time is not shown:\n%s", ov)
	}
	checkNoControls(t, "the agent's sessions", h.view())
	if strings.Contains(ov, "Already a thread") {
		t.Errorf("a session that is a thread already is listed:\n%s", ov)
	}
	before := h.app.thread.ID
	h.typeText("outside")
	h.press("enter")
	h.pumpUntil("the imported thread", func() bool { return h.app.thread.ID != before && h.app.thread.Title == "Outside work" })
	if got := b.loaded(); len(got) != 1 || got[0] != "sess-outside" {
		t.Errorf("loaded %v, want sess-outside once", got)
	}
	scr := h.plain()
	for _, w := range []string{"old question", "old answer"} {
		if !strings.Contains(scr, w) {
			t.Errorf("the transcript lacks %q:\n%s", w, scr)
		}
	}
	ms := e.messages(h.app.thread.ID)
	if len(ms) != 2 || ms[0].Role != message.RoleUser || ms[0].Text != "old question" {
		t.Fatalf("stored %+v", ms)
	}
	if sid, _, _ := e.st.AgentSession(h.app.thread.ID, b.Name()); sid != "sess-outside" {
		t.Errorf("the thread's session is %q", sid)
	}
	// Listed again, it is a thread: under the threads, not a session.
	h.openSwitcher()
	h.pumpUntil("the sessions listed again", func() bool { return count[chat.AgentSessions](h) == 2 })
	ov = h.overlayText()
	row := ov[strings.Index(ov, "Outside work"):]
	if strings.Count(ov, "Outside work") != 1 || strings.Contains(row[:strings.IndexByte(row, '\n')], chat.SessionRowDetail) {
		t.Errorf("listed again:\n%s", ov)
	}
}

// A session the agent cannot load is a notice, and no thread.
func TestThreadListAgentSessionNotLoaded(t *testing.T) {
	b := &listingEcho{list: []agent.AgentSession{{ID: "sess-outside", Title: "Outside work"}}, loadErr: agent.ErrNotOffered}
	e, h := openListing(t, b)
	h.openSwitcher()
	h.pumpUntil("the agent's sessions", func() bool { return strings.Contains(h.overlayText(), "Outside work") })
	h.typeText("outside")
	h.press("enter")
	h.pumpUntil("the notice", func() bool { return strings.Contains(h.plain(), "could not open the agent's session") })
	if ts, _ := e.st.Threads(e.project.ID); len(ts) != 2 {
		t.Errorf("threads after a failed load: %d, want 2", len(ts))
	}
}

// An agent without session/list: the thread list has no section.
func TestThreadListNoAgentSessions(t *testing.T) {
	_, h := openListing(t, agent.Echo{})
	h.openSwitcher()
	h.pumpUntil("the sessions answer", func() bool { return count[chat.AgentSessions](h) == 1 })
	if ov := h.overlayText(); strings.Contains(ov, chat.SessionRowDetail) || !strings.Contains(ov, "Beta plans") {
		t.Errorf("the list:\n%s", ov)
	}
	if top[*dialog.Threads](h.app) == nil {
		t.Fatal("the thread list closed")
	}
}
