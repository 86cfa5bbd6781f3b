package chat

import (
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/store"
)

// The agent's slash commands. An ACP agent advertises them only once it
// runs (its first turn), so the service keeps the last list each agent
// (by backend name) advertised in the store and reports it at start
// (CommandsKnown) until the agent sends a new one. Where an agent command
// and one of chipchat's own have the same name, the agent's keeps it and
// chipchat's is "/chipchat:<name>" (Info.AgentServes, OwnPrefix).

// CommandsKnown: the agent's slash commands as last known, advertised in
// this run or recorded from an earlier one (Advertised false): what the
// `/` picker offers before the agent has started.
type CommandsKnown struct {
	Commands   []Command
	Advertised bool
}

func (CommandsKnown) isChatEvent() {}

// OwnPrefix is how chipchat's own command is named when an agent command
// has its name: "/chipchat:review".
const OwnPrefix = "chipchat:"

// loadCommands reads the agent's recorded commands (worker) and reports
// them, unless the agent advertised some meanwhile.
func (s *Service) loadCommands() {
	cmds, ok, err := s.st.AgentCommands(s.opt.Backend.Name())
	if err != nil || !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.knownSet {
		return
	}
	s.known, s.knownSet = nil, true
	for _, c := range cmds {
		s.known = append(s.known, Command(c))
	}
	s.emit(CommandsKnown{Commands: s.known})
}

// advertised keeps the commands the agent just sent as the known ones, in
// memory and in the store; s.mu must be held.
func (s *Service) advertised(e agent.Commands) {
	s.known, s.knownSet, s.knownLive = nil, true, true
	rec := make([]store.AgentCommand, 0, len(e.Commands))
	for _, c := range e.Commands {
		s.known = append(s.known, Command(c))
		rec = append(rec, store.AgentCommand(c))
	}
	s.emit(CommandsKnown{Commands: s.known, Advertised: true})
	name := s.opt.Backend.Name()
	s.do(func() { _ = s.st.SetAgentCommands(name, rec) }) // a lost write costs only the list before the next start
}

// KnownCommands is the agent's slash commands as last known (a thread's
// own list is in its Info once the agent advertised it there), and
// whether the agent advertised them in this run.
func (s *Service) KnownCommands() ([]Command, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Command(nil), s.known...), s.knownLive
}

// Replying: the turn's first update of its reply arrived (Since): the
// agent has started and replies. Until it, while the phase is Starting or
// Streaming, the agent is still starting (its process, initialize, its
// session): the header says "starting <agent>", then "replying".
type Replying struct {
	ThreadID string
	ReplyID  string
	Since    time.Time
}

func (Replying) isChatEvent() {}

// ReplyingSince is when the thread's running turn got its first update of
// the reply; ok is false while none came (or no turn runs).
func (s *Service) ReplyingSince(threadID string) (since time.Time, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	th := s.threads[threadID]
	if th == nil || th.turn == nil || th.turn.replying.IsZero() {
		return time.Time{}, false
	}
	return th.turn.replying, true
}
