package chat

import (
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
)

// A permission question for a call the reply shows is drawn in the call's
// item (one item per call, the answer above the output that came after
// it), stored and reopened so; a question for no known call keeps an item
// of its own.
func TestPermissionLivesInItsCall(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.send("go")
	ft := e.turn()
	rs := until[ReplyStarted](e, nil)
	ft.emit(agent.ToolCall{Tool: message.Tool{CallID: "c1", Kind: "execute", Title: "seq 1 3", Status: message.ToolPending}})
	opts := []message.PermissionOption{{ID: "ok", Name: "Allow", Kind: message.AllowOnce}, {ID: "no", Name: "Reject", Kind: message.RejectOnce}}
	reply := make(chan agent.PermissionAnswer, 1)
	ft.emit(agent.Permission{Request: message.Permission{ToolCallID: "c1", Asked: "seq 1 3", Options: opts}, Reply: reply})
	waiting := until[ItemChanged](e, func(c ItemChanged) bool { return c.Item.Tool != nil && c.Item.Tool.Permission != nil })
	pa := until[PermissionAsked](e, nil)
	if waiting.Item.Tool.Permission.Outcome != "" || waiting.Item.Tool.CallID != "c1" {
		t.Fatalf("the waiting question in its call: %+v", waiting.Item.Tool.Permission)
	}
	e.s.AnswerPermission(pa.ID, PermissionAnswer{OptionID: "ok", Outcome: "selected"})
	<-reply
	done := message.ToolCompleted
	ft.emit(agent.ToolUpdate{CallID: "c1", Status: &done, Content: []message.ToolContent{{Type: message.ContentText, Text: "1\n2\n3\n"}}})
	reply2 := make(chan agent.PermissionAnswer, 1)
	ft.emit(agent.Permission{Request: message.Permission{ToolCallID: "nowhere", Asked: "Fetch a page", Options: opts}, Reply: reply2})
	pa2 := until[PermissionAsked](e, nil)
	e.s.AnswerPermission(pa2.ID, PermissionAnswer{OptionID: "no", Outcome: "selected"})
	<-reply2
	ft.end <- nil
	until[ReplyFinished](e, replyIs(rs.Reply.ID))
	ms := e.messages()
	items := ms[len(ms)-1].Items
	if len(items) != 2 || items[0].Kind != message.ItemTool || items[1].Kind != message.ItemPermission {
		t.Fatalf("items %+v", items)
	}
	if p := items[1].Permission; p.ToolCallID != "nowhere" || p.Chosen != "no" {
		t.Errorf("the question without a call: %+v", p)
	}
	stored, reopened := e.toolsOf()
	for name, tools := range map[string]map[string]message.Tool{"stored": stored, "reopened": reopened} {
		c := tools["c1"]
		if c.Permission == nil || c.Permission.Chosen != "ok" || c.Permission.Outcome != "selected" || c.Permission.Asked != "seq 1 3" {
			t.Errorf("%s: the call's question %+v", name, c.Permission)
		}
		if c.Status != message.ToolCompleted || len(c.Content) != 1 || c.Content[0].Text != "1\n2\n3\n" {
			t.Errorf("%s: the call %+v", name, c)
		}
	}
}
