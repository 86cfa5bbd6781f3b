package chat

import (
	"context"
	"time"

	"github.com/chipchat/chipchat/agent"
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
