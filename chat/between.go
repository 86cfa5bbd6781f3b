package chat

import "github.com/chipchat/chipchat/agent"

// betweenTurns applies what the agent told of a thread's session while no
// turn of it ran (agent.BetweenTurns): a title feeds the thread's title
// as it does during a turn (unless the user renamed the thread), and
// commands, modes, options and usage update the thread's Info, told as
// AgentInfo. It runs on the backend's goroutine and does no I/O itself:
// the title is stored by the worker.
func (s *Service) betweenTurns(threadID string, evs []agent.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.closed:
		return
	default:
	}
	th := s.thread(threadID)
	info := false
	for _, ev := range evs {
		switch e := ev.(type) {
		case agent.SessionTitle:
			s.agentTitle(threadID, e.Title)
		case agent.Commands, agent.Modes, agent.ConfigOptions, agent.Usage:
			if c, ok := e.(agent.Commands); ok {
				s.advertised(c)
			}
			th.info.fold(e)
			info = true
		}
	}
	if info {
		s.emit(AgentInfo{ThreadID: threadID, Info: th.info})
	}
}
