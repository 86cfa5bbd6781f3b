package chat

import (
	"context"
	"errors"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/store"
)

// steerWait bounds the agent's answer to a steered message.
const steerWait = 30 * time.Second

// CanSteer reports whether a message sent now would go into the thread's
// running turn (the backend steers, the agent advertises it, a turn runs).
func (s *Service) CanSteer(threadID string) bool {
	st, ok := s.opt.Backend.(agent.Steerer)
	if !ok {
		return false
	}
	s.mu.Lock()
	th := s.threads[threadID]
	running := th != nil && th.phase == Streaming
	s.mu.Unlock()
	return running && st.CanSteer(threadID)
}

// Steer sends a message into the thread's running turn (alt+i): stored
// first, as every message is, then handed to the agent's steering. When no
// turn runs it is Send; when the agent cannot take it mid-turn (or refuses
// it) it stays queued, as enter would have queued it, and a Notice says so.
func (s *Service) Steer(threadID string, sub Submission) {
	st, ok := s.opt.Backend.(agent.Steerer)
	s.mu.Lock()
	th := s.thread(threadID)
	running := th.phase == Streaming
	s.mu.Unlock()
	switch {
	case !running:
		s.Send(threadID, sub)
		return
	case !ok || !st.CanSteer(threadID):
		s.Send(threadID, sub)
		s.mu.Lock()
		s.emit(Notice{ThreadID: threadID, Text: s.opt.Backend.Name() + " cannot take a message mid-turn: it is queued"})
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	th.steer = append(th.steer, sub.Ref)
	s.mu.Unlock()
	s.Send(threadID, sub) // stored queued; store hands it to steerStored
}

// steerStored hands a stored (queued) message to the agent's steering; it
// is in no queue meanwhile, so the turn's end cannot send it again. Taken,
// it is marked sent (after the running reply); refused, it goes back to
// the head of the queue. s.mu must be held.
func (s *Service) steerStored(th *thread, user store.Message) {
	st := s.opt.Backend.(agent.Steerer)
	text := user.Text
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), steerWait)
		defer cancel()
		err := st.Steer(ctx, th.id, text)
		if err != nil {
			s.mu.Lock()
			defer s.mu.Unlock()
			why := err.Error()
			if errors.Is(err, agent.ErrNoTurn) {
				why = "the turn was over"
			}
			s.emit(Notice{ThreadID: th.id, Text: "the agent did not take the message mid-turn (" + why + "): it is queued"})
			th.queue = append([]store.Message{user}, th.queue...)
			if th.phase == Idle && !s.quitting && !th.paused {
				s.sendNext(th)
				return
			}
			s.queueChanged(th)
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.do(func() {
			sent, err := s.st.Dequeue(user.ID)
			s.mu.Lock()
			defer s.mu.Unlock()
			if err != nil {
				s.emit(Notice{ThreadID: th.id, Text: "the steered message is still marked queued: " + err.Error(), Err: true})
				return
			}
			s.emit(UserStored{ThreadID: th.id, Message: viewMessage(sent)})
			s.emit(Notice{ThreadID: th.id, Text: "steered into the running turn"})
		})
	}()
}

// logoutWait bounds the agent's sign-out.
const logoutWait = 30 * time.Second

// Logout signs out of the agent (chipchat's /logout, when the agent has no
// /logout command of its own): a Notice tells how it went. It does not
// wait.
func (s *Service) Logout(threadID string) {
	lo, ok := s.opt.Backend.(agent.LoggerOut)
	name := s.opt.Backend.Name()
	if !ok {
		s.mu.Lock()
		s.emit(Notice{ThreadID: threadID, Text: name + " has no sign-in to sign out of", Err: true})
		s.mu.Unlock()
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), logoutWait)
		defer cancel()
		err := lo.Logout(ctx)
		s.mu.Lock()
		defer s.mu.Unlock()
		switch {
		case errors.Is(err, agent.ErrNotOffered):
			s.emit(Notice{ThreadID: threadID, Text: name + " offers no logout: sign out with the agent's own command", Err: true})
		case err != nil:
			s.emit(Notice{ThreadID: threadID, Text: "logout failed: " + err.Error(), Err: true})
		default:
			s.emit(Notice{ThreadID: threadID, Text: "signed out of " + name + "; the next turn asks you to sign in"})
		}
	}()
}
