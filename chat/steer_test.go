package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
)

// steeringBackend is a fake backend that steers: each Steer's text goes to
// steered; it answers err.
type steeringBackend struct {
	*fakeBackend
	can     bool
	err     error
	steered chan string
}

func (b *steeringBackend) CanSteer(string) bool { return b.can }
func (b *steeringBackend) Steer(_ context.Context, _, text string) error {
	b.steered <- text
	return b.err
}

func newSteerEnv(t *testing.T, can bool, err error) (*env, *steeringBackend) {
	fb := &fakeBackend{caps: agent.Capabilities{Sessions: true, Cancel: true}, turns: make(chan *fakeTurn, 4)}
	sb := &steeringBackend{fakeBackend: fb, can: can, err: err, steered: make(chan string, 4)}
	return newEnvFor(t, fb, sb), sb
}

// streaming starts a turn and waits until it streams.
func (e *env) streaming() *fakeTurn {
	e.t.Helper()
	e.send("first")
	ft := e.turn()
	ft.emit(agent.TextDelta{Text: "working"})
	until[PhaseChanged](e, func(p PhaseChanged) bool { return p.Phase == Streaming })
	return ft
}

func TestSteerIntoRunningTurn(t *testing.T) {
	e, sb := newSteerEnv(t, true, nil)
	ft := e.streaming()
	if !e.s.CanSteer(e.thread.ID) {
		t.Fatal("CanSteer false while a turn streams")
	}
	e.s.Steer(e.thread.ID, Submission{Markdown: "use the other file", Ref: 9})
	if got := <-sb.steered; got != "use the other file" {
		t.Errorf("steered %q", got)
	}
	us := until[UserStored](e, func(u UserStored) bool { return !u.Queued && u.Message.Text == "use the other file" })
	if us.Message.Status != message.StatusDone {
		t.Errorf("steered message %+v", us.Message)
	}
	until[Notice](e, func(n Notice) bool { return strings.Contains(n.Text, "steered into the running turn") })
	ft.end <- nil
	until[ReplyFinished](e, nil)
	if q, _ := e.s.Queue(e.thread.ID); len(q) != 0 {
		t.Errorf("queue after a steer: %+v", q)
	}
	select {
	case ft := <-e.b.turns:
		t.Errorf("the steered message was sent again as a turn: %q", ft.turn.Prompt)
	default:
	}
	for _, m := range e.messages() {
		if m.Status == message.StatusQueued {
			t.Errorf("still queued in the store: %+v", m)
		}
	}
}

// An agent that cannot steer: the message is queued, a notice says why.
func TestSteerNotOfferedQueues(t *testing.T) {
	e, sb := newSteerEnv(t, false, nil)
	ft := e.streaming()
	e.s.Steer(e.thread.ID, Submission{Markdown: "later please", Ref: 9})
	until[Notice](e, func(n Notice) bool { return strings.Contains(n.Text, "cannot take a message mid-turn: it is queued") })
	until[QueueChanged](e, func(q QueueChanged) bool { return len(q.Queued) == 1 })
	ft.end <- nil
	if next := e.turn(); !strings.Contains(next.turn.Prompt, "later please") {
		t.Errorf("next turn %q", next.turn.Prompt)
	} else {
		next.end <- nil
	}
	if len(sb.steered) != 0 {
		t.Error("Steer called though the agent cannot")
	}
}

// A steer the agent refuses (its turn just ended) goes back to the queue
// and is sent next.
func TestSteerRefusedQueues(t *testing.T) {
	e, _ := newSteerEnv(t, true, agent.ErrNoTurn)
	ft := e.streaming()
	e.s.Steer(e.thread.ID, Submission{Markdown: "too late", Ref: 9})
	until[Notice](e, func(n Notice) bool {
		return strings.Contains(n.Text, "did not take the message mid-turn (the turn was over)")
	})
	ft.end <- nil
	if next := e.turn(); !strings.Contains(next.turn.Prompt, "too late") {
		t.Errorf("next turn %q", next.turn.Prompt)
	} else {
		next.end <- nil
	}
}

// With no turn running, alt+i sends as enter does.
func TestSteerIdleSends(t *testing.T) {
	e, sb := newSteerEnv(t, true, nil)
	e.s.Steer(e.thread.ID, Submission{Markdown: "hello", Ref: 3})
	if ft := e.turn(); !strings.Contains(ft.turn.Prompt, "hello") {
		t.Errorf("turn %q", ft.turn.Prompt)
	} else {
		ft.end <- nil
	}
	if len(sb.steered) != 0 {
		t.Error("steered with no turn running")
	}
}

type logoutBackend struct {
	*fakeBackend
	err error
}

func (b *logoutBackend) Logout(context.Context) error { return b.err }

func TestLogout(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, "signed out of fake"},
		{agent.ErrNotOffered, "offers no logout"},
	} {
		fb := &fakeBackend{caps: agent.Capabilities{Logout: true}, turns: make(chan *fakeTurn, 1)}
		e := newEnvFor(t, fb, &logoutBackend{fakeBackend: fb, err: c.err})
		e.s.Logout(e.thread.ID)
		if n := until[Notice](e, nil); !strings.Contains(n.Text, c.want) || n.Err != (c.err != nil) {
			t.Errorf("%v: notice %+v", c.err, n)
		}
	}
	e := newEnv(t, agent.Capabilities{})
	e.s.Logout(e.thread.ID)
	if n := until[Notice](e, nil); !n.Err || !strings.Contains(n.Text, "no sign-in") {
		t.Errorf("backend without logout: %+v", n)
	}
}
