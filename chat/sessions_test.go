package chat

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
)

// closingBackend is a fake backend that can close sessions: each call's
// thread goes to closed; err is what it answers.
type closingBackend struct {
	*fakeBackend
	closed chan string
	err    error
}

func (b *closingBackend) CloseSession(_ context.Context, threadID string) error {
	b.closed <- threadID
	return b.err
}

func TestCloseSessionOfDeletedThread(t *testing.T) {
	fb := &fakeBackend{caps: agent.Capabilities{Sessions: true}, turns: make(chan *fakeTurn, 4)}
	cb := &closingBackend{fakeBackend: fb, closed: make(chan string, 1)}
	e := newEnvFor(t, fb, cb)
	e.s.CloseSession(e.thread.ID)
	select {
	case id := <-cb.closed:
		if id != e.thread.ID {
			t.Errorf("closed %q, want %q", id, e.thread.ID)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the backend's session was not closed")
	}

	cb.err = errors.New("acp: session/close: no such session")
	e.s.CloseSession("other")
	<-cb.closed
	n := until[Notice](e, nil)
	if !n.Err || !strings.Contains(n.Text, "could not close the agent's session") || !strings.Contains(n.Text, "no such session") {
		t.Errorf("notice %+v", n)
	}
}

// A backend that cannot close sessions is left alone.
func TestCloseSessionBackendWithout(t *testing.T) {
	e := newEnv(t, agent.Capabilities{})
	e.s.CloseSession(e.thread.ID) // must not panic or block
	e.send("hi")
	ft := e.turn()
	ft.end <- nil
	until[ReplyFinished](e, nil)
	for _, ev := range e.events {
		if n, ok := ev.(Notice); ok {
			t.Errorf("notice %+v", n)
		}
	}
}
