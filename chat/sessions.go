package chat

import (
	"context"
	"time"

	"github.com/chipchat/chipchat/agent"
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
