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

// The agent's session title becomes the thread's until the user renames it.
func TestAgentTitleFeedsTheThread(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Sessions: true})
	e.send("fix the login bug please")
	ft := e.turn()
	ft.emit(agent.SessionTitle{Title: "Login bug"})
	ft.end <- nil
	until[ReplyFinished](e, nil)
	e.cursor = 0 // the title's store op and the reply's end come in either order
	tc := until[TitleChanged](e, nil)
	if tc.ThreadID != e.thread.ID || tc.Title != "Login bug" {
		t.Errorf("TitleChanged %+v", tc)
	}
	if th, _ := e.st.Thread(e.thread.ID); th.Title != "Login bug" {
		t.Errorf("stored title %q", th.Title)
	}
	if err := e.st.RenameThread(e.thread.ID, "mine"); err != nil {
		t.Fatal(err)
	}
	e.send("more")
	ft = e.turn()
	ft.emit(agent.SessionTitle{Title: "Another idea"})
	ft.end <- nil
	until[ReplyFinished](e, nil)
	e.s.Send(e.thread.ID, Submission{Markdown: "sync"}) // a later op: the title's op is done
	e.turn().end <- nil
	until[ReplyFinished](e, nil)
	for _, ev := range e.events {
		if tc, ok := ev.(TitleChanged); ok && tc.Title != "Login bug" {
			t.Errorf("the user's title was replaced: %+v", tc)
		}
	}
	if th, _ := e.st.Thread(e.thread.ID); th.Title != "mine" {
		t.Errorf("stored title %q, want the user's", th.Title)
	}
}
