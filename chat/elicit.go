package chat

import "github.com/chipchat/chipchat/agent"

// The agent's elicitations (agent/acp_elicit*.go): a form to fill in or a
// URL to open. The form's types, validation and content are the agent
// package's, named here so the UI needs no agent import.
type (
	ElicitRequest = agent.ElicitRequest
	ElicitForm    = agent.ElicitForm
	ElicitField   = agent.ElicitField
	ElicitInput   = agent.ElicitInput
	ElicitAnswer  = agent.ElicitAnswer
	ElicitKind    = agent.ElicitKind
)

// The field kinds.
const (
	ElicitText    = agent.ElicitText
	ElicitNumber  = agent.ElicitNumber
	ElicitInteger = agent.ElicitInteger
	ElicitBool    = agent.ElicitBool
	ElicitChoice  = agent.ElicitChoice
	ElicitMulti   = agent.ElicitMulti
)

// ElicitationAsked: the agent asks for input (Request.Mode "form" or
// "url"). Answer it with Service.AnswerElicitation(ID, …); AskClosed
// drops it when its turn ends first.
type ElicitationAsked struct {
	ThreadID string
	ID       int64
	Request  ElicitRequest
}

// ElicitationDone: the agent says the URL elicitation of that id is
// finished (the user's browser flow completed).
type ElicitationDone struct {
	ThreadID      string
	ElicitationID string
}

func (ElicitationAsked) isChatEvent() {}
func (ElicitationDone) isChatEvent()  {}

// elicited takes the backend's Elicitation and ElicitationDone events;
// s.mu is held.
func (s *Service) elicited(t *turn, ev agent.Event) {
	switch e := ev.(type) {
	case agent.Elicitation:
		s.askSeq++
		s.asks[s.askSeq] = &ask{threadID: t.th.id, turn: t, pos: -1, elicit: e.Reply}
		s.emit(ElicitationAsked{ThreadID: t.th.id, ID: s.askSeq, Request: e.Request})
	case agent.ElicitationDone:
		s.emit(ElicitationDone{ThreadID: t.th.id, ElicitationID: e.ElicitationID})
	}
}

// AnswerElicitation answers an ElicitationAsked: "accept" with the form's
// content (ElicitForm.Content), "decline" or "cancel".
func (s *Service) AnswerElicitation(id int64, ans ElicitAnswer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.asks[id]
	if a == nil || a.elicit == nil {
		return
	}
	a.elicit <- ans
	a.elicit = nil
	s.closeAsk(id, a, agent.PermissionAnswer{Outcome: "cancelled"})
}

// ElicitMaxInput is the most runes a text field of a form takes.
const ElicitMaxInput = 10000
