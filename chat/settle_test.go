package chat

import (
	"context"
	"errors"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
)

// toolsOf is the calls of the thread's last reply as the store holds them,
// and as LoadThread shows them after a restart.
func (e *env) toolsOf() (stored, reopened map[string]message.Tool) {
	e.t.Helper()
	collect := func(items []message.Item) map[string]message.Tool {
		out := map[string]message.Tool{}
		for _, it := range items {
			if it.Kind == message.ItemTool && it.Tool != nil {
				out[it.Tool.CallID] = *it.Tool
			}
		}
		return out
	}
	ms := e.messages()
	stored = collect(ms[len(ms)-1].Items)
	loaded, err := LoadThread(e.st, e.thread.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	reopened = collect(loaded[len(loaded)-1].Items)
	return stored, reopened
}

// startTools runs a turn with a finished call "done", a pending "wait" and
// a running "run".
func startTools(e *env) (*fakeTurn, string) {
	e.send("go")
	ft := e.turn()
	rs := until[ReplyStarted](e, nil)
	ft.emit(agent.ToolCall{Tool: message.Tool{CallID: "done", Kind: "read", Status: message.ToolPending}})
	ok := message.ToolCompleted
	ft.emit(agent.ToolUpdate{CallID: "done", Status: &ok})
	ft.emit(agent.ToolCall{Tool: message.Tool{CallID: "wait", Kind: "edit", Status: message.ToolPending}})
	ft.emit(agent.ToolCall{Tool: message.Tool{CallID: "run", Kind: "execute", Status: message.ToolInProgress}})
	until[ItemChanged](e, func(c ItemChanged) bool { return c.Index == 2 })
	return ft, rs.Reply.ID
}

// Every call still pending or running when a turn ends settles, on disk
// and after a reopen: cancelled when the user stopped the turn, failed
// with the reason otherwise; a finished call keeps its status.
func TestCallsSettleWhenTheTurnEnds(t *testing.T) {
	for _, c := range []struct {
		name   string
		end    func(e *env, ft *fakeTurn)
		status string
		reason string
		reply  message.Status
	}{
		{"end_turn", func(e *env, ft *fakeTurn) { ft.end <- nil }, message.ToolFailed, message.ReasonTurnEnded, message.StatusDone},
		{"cancelled", func(e *env, ft *fakeTurn) { e.s.Cancel(e.thread.ID) }, message.ToolCancelled, "", message.StatusInterrupted},
		{"error", func(e *env, ft *fakeTurn) { ft.end <- errors.New("acp: prompt: internal error") }, message.ToolFailed, message.ReasonTurnEnded, message.StatusError},
		{"agent died", func(e *env, ft *fakeTurn) {
			ft.end <- &agent.Error{Err: errors.New("acp: agent exited with status 1 during prompt"), StderrTail: "panic"}
		}, message.ToolFailed, message.ReasonAgentDied, message.StatusError},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, agent.Capabilities{Cancel: true})
			ft, reply := startTools(e)
			c.end(e, ft)
			f := until[ReplyFinished](e, replyIs(reply))
			if f.Status != c.reply {
				t.Fatalf("reply %s, want %s", f.Status, c.reply)
			}
			stored, reopened := e.toolsOf()
			for name, tools := range map[string]map[string]message.Tool{"stored": stored, "reopened": reopened} {
				if d := tools["done"]; d.Status != message.ToolCompleted || d.Reason != "" {
					t.Errorf("%s: finished call became %q %q", name, d.Status, d.Reason)
				}
				for _, id := range []string{"wait", "run"} {
					if got := tools[id]; got.Status != c.status || got.Reason != c.reason || got.Ended.IsZero() {
						t.Errorf("%s: call %s is %q %q (ended %v), want %q %q", name, id, got.Status, got.Reason, got.Ended, c.status, c.reason)
					}
				}
			}
		})
	}
}

// A rejected permission cancels its call at once, though the agent goes on
// and never ends it; later updates that are not an end do not revive it. A
// call whose permission came before the call itself is cancelled when it
// comes.
func TestRejectedPermissionCancelsItsCall(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.send("go")
	ft := e.turn()
	rs := until[ReplyStarted](e, nil)
	ft.emit(agent.ToolCall{Tool: message.Tool{CallID: "c1", Kind: "edit", Status: message.ToolPending}})
	opts := []message.PermissionOption{{ID: "ok", Name: "Allow", Kind: message.AllowOnce}, {ID: "no", Name: "Reject", Kind: message.RejectOnce}}
	ask := func(call string) {
		reply := make(chan agent.PermissionAnswer, 1)
		ft.emit(agent.Permission{Request: message.Permission{ToolCallID: call, Asked: "Edit", Options: opts}, Reply: reply})
		pa := until[PermissionAsked](e, nil)
		e.s.AnswerPermission(pa.ID, PermissionAnswer{OptionID: "no", Outcome: "rejected"})
		<-reply
	}
	ask("c1")
	until[ItemChanged](e, func(c ItemChanged) bool { return c.Item.Tool != nil && c.Item.Tool.Status == message.ToolCancelled })
	running := message.ToolInProgress
	ft.emit(agent.ToolUpdate{CallID: "c1", Status: &running})
	ask("c2") // the call comes after its permission
	ft.emit(agent.ToolCall{Tool: message.Tool{CallID: "c2", Kind: "execute", Status: message.ToolPending}})
	ft.emit(agent.TextDelta{Text: "I will not edit it."})
	until[ItemChanged](e, func(c ItemChanged) bool { return c.Item.Text == "I will not edit it." })
	ft.end <- nil
	until[ReplyFinished](e, replyIs(rs.Reply.ID))
	stored, reopened := e.toolsOf()
	for name, tools := range map[string]map[string]message.Tool{"stored": stored, "reopened": reopened} {
		for _, id := range []string{"c1", "c2"} {
			if got := tools[id]; got.Status != message.ToolCancelled {
				t.Errorf("%s: %s is %q %q, want cancelled", name, id, got.Status, got.Reason)
			}
		}
	}
}

// A reply that ended with calls unfinished on disk (written by a chipchat
// that did not settle them, or that died mid-turn) shows them failed when
// the thread is reopened; a streaming reply's calls are left running.
func TestReopenSettlesLeftoverCalls(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true})
	e.send("go")
	ft := e.turn()
	rs := until[ReplyStarted](e, nil)
	ft.emit(agent.ToolCall{Tool: message.Tool{CallID: "c1", Kind: "execute", Status: message.ToolInProgress}})
	until[ItemChanged](e, nil)
	e.clock.Advance(e.s.opt.FlushEvery) // on disk, still streaming
	loaded, err := LoadThread(e.st, e.thread.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st := loaded[1].Items[0].Tool.Status; st != message.ToolInProgress {
		t.Fatalf("a streaming reply's call shows %q", st)
	}
	// The reply is over on disk with its call unfinished.
	if err := e.st.WriteReply(rs.Reply.ID, nil, message.StatusInterrupted); err != nil {
		t.Fatal(err)
	}
	loaded, err = LoadThread(e.st, e.thread.ID)
	if err != nil {
		t.Fatal(err)
	}
	if tool := loaded[1].Items[0].Tool; tool.Status != message.ToolFailed || tool.Reason != message.ReasonTurnEnded {
		t.Fatalf("reopened: %q %q", tool.Status, tool.Reason)
	}
	ft.end <- context.Canceled
}
