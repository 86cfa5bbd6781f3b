package chat

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// closeSessionWait bounds a deleted thread's session/close.
const closeSessionWait = 5 * time.Second

// CloseSession ends the agent's own session of a thread the user deleted,
// when the backend can (agent.SessionCloser: session/close for an agent
// that offers it). It does not wait: a failure is a Notice.
func (s *Service) CloseSession(threadID string) {
	c, ok := s.opt.Backend.(agent.SessionCloser)
	if !ok {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), closeSessionWait)
		defer cancel()
		if err := c.CloseSession(ctx, threadID); err != nil {
			s.mu.Lock()
			s.emit(Notice{Text: "could not close the agent's session of the deleted thread: " + err.Error(), Err: true})
			s.mu.Unlock()
		}
	}()
}

// TitleChanged: the thread's title is now Title (the agent named its
// session, and the user had not renamed the thread).
type TitleChanged struct {
	ThreadID string
	Title    string
}

func (TitleChanged) isChatEvent() {}

// agentTitle stores the title the agent gave the thread's session, unless
// the user renamed the thread (store.AgentTitle); s.mu must be held.
func (s *Service) agentTitle(threadID, title string) {
	s.do(func() {
		changed, err := s.st.AgentTitle(threadID, title)
		var t store.Thread
		if err == nil && changed {
			t, err = s.st.Thread(threadID)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		switch {
		case err != nil:
			s.emit(Notice{ThreadID: threadID, Text: "the agent's title for the thread was not saved: " + err.Error(), Err: true})
		case changed:
			s.emit(TitleChanged{ThreadID: threadID, Title: t.Title})
		}
	})
}

// agentListWait bounds session/list and the load of an imported session.
const agentListWait = 60 * time.Second

// AgentSessions: the agent's own sessions for the project that are no
// thread of it yet (ListAgentSessions), the newest first. Err is set when
// they could not be listed; it wraps agent.ErrNotOffered when the agent
// has no session/list (or the backend no agent sessions).
type AgentSessions struct {
	Sessions []AgentSession
	Err      error
}

// AgentSession is one of the agent's own sessions as chat shows it
// (agent.AgentSession: ui does not import agent).
type AgentSession struct {
	ID      string
	Title   string // one line; "" when the agent gave none
	Cwd     string
	Updated time.Time // zero when the agent did not say
}

// SessionImported: the agent's session is now the thread ThreadID, titled
// Title, its history as the agent replayed it stored.
type SessionImported struct {
	ThreadID  string
	SessionID string
	Title     string
}

func (AgentSessions) isChatEvent()   {}
func (SessionImported) isChatEvent() {}

// ListAgentSessions asks the agent for its sessions of the project and
// reports them by an AgentSessions event (it starts the agent). It does
// not wait.
func (s *Service) ListAgentSessions() {
	go func() {
		list := s.AgentSessionList()
		s.mu.Lock()
		defer s.mu.Unlock()
		s.emit(list)
	}()
}

// AgentSessionList is the agent's sessions of the project that are no
// thread of it yet, as ListAgentSessions reports them, waited for (it
// starts the agent): the thread list's agent session rows, read in a
// command.
func (s *Service) AgentSessionList() AgentSessions {
	l, ok := s.opt.Backend.(agent.SessionLister)
	if !ok {
		return AgentSessions{Err: agent.ErrNotOffered}
	}
	ctx, cancel := context.WithTimeout(context.Background(), agentListWait)
	defer cancel()
	list, err := l.ListSessions(ctx, s.opt.Dir)
	var known map[string]bool
	if err == nil && s.st != nil {
		known, err = s.st.AgentSessionIDs(s.opt.ProjectID, s.opt.Backend.Name())
	}
	var out []AgentSession
	for _, a := range list {
		if !known[a.ID] {
			out = append(out, AgentSession(a))
		}
	}
	return AgentSessions{Sessions: out, Err: err}
}

// Row is an agent session's row in the thread list (a picker's
// item: title, detail, value).
type Row struct{ Title, Detail, Value string }

// Rows is the section's rows, one per session: its title ("(untitled
// session)" when the agent gave none), indented as a thread's; its detail "agent session", the
// session id and the time the agent last changed it when it said; its
// Value "\x00" and the id (a thread's id starts "thr_"). No heading row:
// every row opens something, and the list's count is what can be opened.
// None when no session is listed. Control characters are the drawing's to
// strip.
func (l AgentSessions) Rows() []Row {
	var rows []Row
	for _, a := range l.Sessions {
		title, detail := a.Title, SessionRowDetail+" · "+a.ID
		if title == "" {
			title = "(untitled session)"
		}
		if !a.Updated.IsZero() {
			detail += " · " + a.Updated.Local().Format("2006-01-02 15:04")
		}
		rows = append(rows, Row{Title: "  " + title, Detail: detail, Value: "\x00" + a.ID}) // under the threads' titles
	}
	return rows
}

// SessionRowDetail starts the detail of an agent session's row in the
// thread list (a thread's row shows its age and message count there).
const SessionRowDetail = "agent session"

// Of is the session whose row has value (ok false: not a session's row).
func (l AgentSessions) Of(value string) (AgentSession, bool) {
	id, ok := strings.CutPrefix(value, "\x00")
	for _, a := range l.Sessions {
		if ok && a.ID == id {
			return a, true
		}
	}
	return AgentSession{}, false
}

// ImportAgentSession opens one of the agent's sessions as a new thread:
// the agent loads it (session/load), its replayed history is stored once
// as the thread's messages, the thread keeps the session, and
// SessionImported reports it; a Notice says why when the agent cannot.
func (s *Service) ImportAgentSession(sess AgentSession) {
	l, ok := s.opt.Backend.(agent.SessionLister)
	if !ok {
		s.mu.Lock()
		s.emit(Notice{Text: s.opt.Backend.Name() + " has no sessions of its own to open", Err: true})
		s.mu.Unlock()
		return
	}
	th := s.st.NewThread(s.opt.ProjectID)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), agentListWait)
		defer cancel()
		msgs, err := l.ImportSession(ctx, th.ID, sess.ID, s.opt.Dir)
		s.mu.Lock()
		defer s.mu.Unlock()
		if err != nil {
			why := err.Error()
			if errors.Is(err, agent.ErrNotOffered) {
				why = "the agent cannot load its sessions (it offers no session/load)"
			}
			s.emit(Notice{Text: "could not open the agent's session " + sess.ID + ": " + why, Err: true})
			return
		}
		s.do(func() {
			err := s.storeImported(th.ID, sess, msgs)
			t, terr := s.st.Thread(th.ID)
			if err == nil {
				err = terr
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			if err != nil {
				s.emit(Notice{Text: "the agent's session " + sess.ID + " was not stored: " + err.Error(), Err: true})
				return
			}
			s.emit(SessionImported{ThreadID: th.ID, SessionID: sess.ID, Title: t.Title})
		})
	}()
}

// storeImported writes an imported session's history, its session id and
// its title (the agent's: it stays replaceable by the agent's updates).
func (s *Service) storeImported(threadID string, sess AgentSession, msgs []agent.HistoryMessage) error {
	for _, m := range msgs {
		role := message.RoleUser
		if m.Role == "assistant" {
			role = message.RoleAssistant
		}
		if strings.TrimSpace(m.Text) == "" {
			continue
		}
		if _, err := s.st.AddMessage(store.Message{ThreadID: threadID, Role: role, Text: m.Text}); err != nil {
			return err
		}
	}
	if err := s.st.SetAgentSession(threadID, s.opt.Backend.Name(), sess.ID); err != nil {
		return err
	}
	if sess.Title != "" {
		if _, err := s.st.AgentTitle(threadID, sess.Title); err != nil {
			return err
		}
	}
	return nil
}
