package chat

import (
	"testing"

	"github.com/chipchat/chipchat/agent"
)

// An elicitation is asked of the UI, its answer reaches the backend and
// the prompt closes; one left open when the turn ends is cancelled and
// closed; a late answer to it goes nowhere.
func TestElicitationAskedAnsweredAndCancelled(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.send("go")
	ft := e.turn()
	rs := until[ReplyStarted](e, nil)
	form := agent.ElicitRequest{Mode: "form", Message: "Who?", Form: agent.ElicitForm{Fields: []agent.ElicitField{{Name: "name", Kind: agent.ElicitText, Required: true}}}}
	reply := make(chan agent.ElicitAnswer, 1)
	ft.emit(agent.Elicitation{Request: form, Reply: reply})
	ea := until[ElicitationAsked](e, nil)
	if ea.Request.Message != "Who?" || ea.ThreadID == "" {
		t.Fatalf("asked %+v", ea)
	}
	e.s.AnswerElicitation(ea.ID, ElicitAnswer{Action: "accept", Content: map[string]any{"name": "Ada"}})
	if got := <-reply; got.Action != "accept" || got.Content["name"] != "Ada" {
		t.Errorf("the backend got %+v", got)
	}
	until[AskClosed](e, func(c AskClosed) bool { return c.ID == ea.ID })

	ft.emit(agent.ElicitationDone{ElicitationID: "u1"})
	if d := until[ElicitationDone](e, nil); d.ElicitationID != "u1" {
		t.Errorf("done %+v", d)
	}

	reply2 := make(chan agent.ElicitAnswer, 1)
	ft.emit(agent.Elicitation{Request: form, Reply: reply2})
	ea2 := until[ElicitationAsked](e, nil)
	ft.end <- nil
	until[AskClosed](e, func(c AskClosed) bool { return c.ID == ea2.ID })
	if got := <-reply2; got.Action != "cancel" {
		t.Errorf("left open: the backend got %+v", got)
	}
	until[ReplyFinished](e, replyIs(rs.Reply.ID))
	e.s.AnswerElicitation(ea2.ID, ElicitAnswer{Action: "accept"}) // nothing waits: no block, no panic
	select {
	case got := <-reply2:
		t.Errorf("a late answer reached the backend: %+v", got)
	default:
	}
}
