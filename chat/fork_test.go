package chat

import (
	"context"
	"testing"

	"github.com/chipchat/chipchat/agent"
)

// forkingBackend copies sessions (session/fork): each call's session is
// sent on asked; err, when set, is the agent's failure.
type forkingBackend struct {
	*fakeBackend
	asked chan string
	err   error
}

func (b *forkingBackend) ForkSession(_ context.Context, _, sessionID string) (string, error) {
	b.asked <- sessionID
	if b.err != nil {
		return "", b.err
	}
	return "copy-of-" + sessionID, nil
}

// A whole-thread fork copies the agent's session: the fork's first turn
// is handed the copy; a fork from an earlier message, a thread with no
// session or an agent that fails keeps a fork without one.
func TestForkCopiesTheAgentsSession(t *testing.T) {
	for _, c := range []struct {
		name      string
		err       error
		earlier   bool
		want      string // the fork's Turn.SessionID
		wantAsked bool
	}{
		{name: "whole", want: "copy-of-s1", wantAsked: true},
		{name: "earlier", earlier: true},
		{name: "not offered", err: agent.ErrNotOffered, wantAsked: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			fb := &fakeBackend{caps: agent.Capabilities{Cancel: true, Sessions: true}, turns: make(chan *fakeTurn, 4)}
			fk := &forkingBackend{fakeBackend: fb, asked: make(chan string, 1), err: c.err}
			e := newEnvFor(t, fb, fk)
			e.send("plan the release")
			ft := e.turn()
			ft.emit(agent.SessionStarted{ID: "s1"})
			ft.emit(agent.TextDelta{Text: "ok"})
			ft.end <- nil
			f := until[ReplyFinished](e, nil)
			upTo := f.ReplyID
			if c.earlier {
				ms, _ := e.st.Messages(e.thread.ID)
				upTo = ms[0].ID
			}
			e.s.Fork(e.thread.ID, upTo)
			forked := until[Forked](e, nil)
			select {
			case sid := <-fk.asked:
				if !c.wantAsked || sid != "s1" {
					t.Errorf("asked to fork %q", sid)
				}
			default:
				if c.wantAsked {
					t.Error("the agent was not asked")
				}
			}
			e.s.Send(forked.ThreadID, Submission{Markdown: "go on", Ref: 8})
			if got := e.turn().turn.SessionID; got != c.want {
				t.Errorf("the fork's turn has session %q, want %q", got, c.want)
			}
		})
	}
}
