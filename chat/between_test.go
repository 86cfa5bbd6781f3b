package chat

import (
	"testing"

	"github.com/chipchat/chipchat/agent"
)

// betweenBackend is a fake backend that tells of its sessions between
// turns (agent.BetweenTurns).
type betweenBackend struct {
	*fakeBackend
	tell func(threadID string, evs []agent.Event)
}

func (b *betweenBackend) OnBetweenTurns(f func(string, []agent.Event)) { b.tell = f }

// A title and commands the agent sends after its turn ended are the
// thread's at once: the title is stored and told (TitleChanged), the
// commands are the thread's Info (AgentInfo) — not held for the next turn.
// A thread the user renamed keeps its name.
func TestBetweenTurnsTitleAndCommands(t *testing.T) {
	fb := &fakeBackend{caps: agent.Capabilities{Sessions: true, Commands: true}, turns: make(chan *fakeTurn, 4)}
	bb := &betweenBackend{fakeBackend: fb}
	e := newEnvFor(t, fb, bb)
	if bb.tell == nil {
		t.Fatal("the service did not ask the backend for its between-turns events")
	}
	e.send("fix the login bug please")
	e.turn().end <- nil
	until[ReplyFinished](e, nil)
	bb.tell(e.thread.ID, []agent.Event{agent.SessionTitle{Title: "Login bug"}, agent.Commands{Commands: []agent.Command{{Name: "review"}}}})
	tc := until[TitleChanged](e, nil)
	if tc.ThreadID != e.thread.ID || tc.Title != "Login bug" {
		t.Errorf("TitleChanged %+v", tc)
	}
	if th, _ := e.st.Thread(e.thread.ID); th.Title != "Login bug" {
		t.Errorf("stored title %q", th.Title)
	}
	e.cursor = 0
	info := until[AgentInfo](e, func(ai AgentInfo) bool { return len(ai.Info.Commands) == 1 })
	if info.ThreadID != e.thread.ID || info.Info.Commands[0].Name != "review" {
		t.Errorf("AgentInfo %+v", info)
	}
	if err := e.st.RenameThread(e.thread.ID, "mine"); err != nil {
		t.Fatal(err)
	}
	bb.tell(e.thread.ID, []agent.Event{agent.SessionTitle{Title: "Another idea"}})
	e.s.Send(e.thread.ID, Submission{Markdown: "sync"}) // a later op: the title's op is done
	e.turn().end <- nil
	until[ReplyFinished](e, nil)
	if th, _ := e.st.Thread(e.thread.ID); th.Title != "mine" {
		t.Errorf("stored title %q, want the user's", th.Title)
	}
}
