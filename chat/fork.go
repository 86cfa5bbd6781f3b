package chat

import (
	"context"
	"errors"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/store"
)

// forkSessionWait bounds the agent's session/fork.
const forkSessionWait = 15 * time.Second

// forkSession copies the agent's session of thread from into the fork t
// when the fork is the whole thread (upTo is its last message), the
// thread has a session and the backend can (agent.SessionForker): the
// fork's next turn resumes the copy, so the agent remembers the thread.
// It runs on the store's worker; the agent is asked on a goroutine of its
// own, and Forked is reported once the copy is stored (or, when the agent
// cannot, with a Notice: the fork starts a new session). It reports
// whether it took the fork over.
func (s *Service) forkSession(from, upTo string, t store.Thread) bool {
	f, ok := s.opt.Backend.(agent.SessionForker)
	if !ok {
		return false
	}
	name := s.opt.Backend.Name()
	sid, has, err := s.st.AgentSession(from, name)
	if err != nil || !has || sid == "" {
		return false
	}
	ms, err := s.st.Messages(from)
	if err != nil || len(ms) == 0 || ms[len(ms)-1].ID != upTo {
		return false
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), forkSessionWait)
		defer cancel()
		id, ferr := f.ForkSession(ctx, s.opt.Dir, sid)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.do(func() {
			if ferr == nil {
				ferr = s.st.SetAgentSession(t.ID, name, id)
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			if ferr != nil && !errors.Is(ferr, agent.ErrNotOffered) {
				s.emit(Notice{ThreadID: t.ID, Text: "the agent could not fork its session (the fork starts a new one): " + ferr.Error(), Err: true})
			}
			s.emit(Forked{From: from, ThreadID: t.ID, Title: t.Title})
		})
	}()
	return true
}
