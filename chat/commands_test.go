package chat

import (
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// The commands an agent advertised are kept in the store: a service
// started again (before the agent has run) reports them at once as known,
// not advertised; what the agent sends next replaces them.
func TestAgentCommandsKnownBeforeTheAgentStarts(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true, Commands: true})
	if cmds, live := e.s.KnownCommands(); len(cmds) != 0 || live {
		t.Fatalf("known at first: %+v %v", cmds, live)
	}
	e.send("hi")
	ft := e.turn()
	ft.emit(agent.Commands{Commands: []agent.Command{{Name: "review", Description: "Review the changes"}, {Name: "init"}}})
	k := until[CommandsKnown](e, nil)
	if !k.Advertised || len(k.Commands) != 2 || k.Commands[0].Name != "review" {
		t.Fatalf("advertised: %+v", k)
	}
	if cmds, live := e.s.KnownCommands(); len(cmds) != 2 || !live {
		t.Fatalf("KnownCommands: %+v %v", cmds, live)
	}
	ft.end <- nil
	until[ReplyFinished](e, nil)
	e.s.Quit()
	until[QuitReady](e, nil)
	if got, ok, err := e.st.AgentCommands("fake"); err != nil || !ok || len(got) != 2 || got[0].Description != "Review the changes" {
		t.Fatalf("stored: %+v %v %v", got, ok, err)
	}
}

func TestAgentCommandsReloaded(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true, Commands: true})
	if err := e.st.SetAgentCommands("fake", []store.AgentCommand{{Name: "review", Description: "Review <it>"}, {Name: "help"}}); err != nil {
		t.Fatal(err)
	}
	// A second service over the same store: as chipchat started again.
	s2 := New(Options{Store: e.st, Assets: e.assets, Backend: e.b, Dir: t.TempDir(), Clock: e.clock})
	t.Cleanup(s2.Close)
	e2 := &env{t: t, st: e.st, assets: e.assets, clock: e.clock, b: e.b, s: s2, thread: e.thread}
	k := until[CommandsKnown](e2, nil)
	if k.Advertised || len(k.Commands) != 2 || k.Commands[0].Description != "Review <it>" {
		t.Fatalf("reloaded: %+v", k)
	}
	if cmds, live := s2.KnownCommands(); len(cmds) != 2 || live {
		t.Fatalf("KnownCommands: %+v %v", cmds, live)
	}
	// The agent sends new ones: they replace the recorded list, in the
	// store too.
	e2.send("hi")
	ft := e2.turn()
	ft.emit(agent.Commands{Commands: []agent.Command{{Name: "compact"}}})
	if k := until[CommandsKnown](e2, nil); !k.Advertised || len(k.Commands) != 1 || k.Commands[0].Name != "compact" {
		t.Fatalf("replaced: %+v", k)
	}
	ft.end <- nil
	until[ReplyFinished](e2, nil)
	s2.Quit()
	until[QuitReady](e2, nil) // the store's write ran before (one worker, in order)
	if got, ok, err := e.st.AgentCommands("fake"); err != nil || !ok || len(got) != 1 || got[0].Name != "compact" {
		t.Fatalf("stored: %+v %v %v", got, ok, err)
	}
}

// While the agent starts (its process, initialize, its session: state
// events only), the turn is not replying; the first update of the reply
// says since when it is.
func TestReplyingBeginsAtTheFirstUpdate(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Cancel: true, Sessions: true, Commands: true})
	e.send("hi")
	ft := e.turn()
	until[PhaseChanged](e, func(p PhaseChanged) bool { return p.Phase == Streaming })
	ft.emit(agent.SessionStarted{ID: "s1"})
	ft.emit(agent.Commands{Commands: []agent.Command{{Name: "init"}}})
	until[AgentInfo](e, nil)
	if _, ok := e.s.ReplyingSince(e.thread.ID); ok {
		t.Fatal("replying before any update of the reply")
	}
	e.clock.Advance(13_000_000_000) // opencode's cold start
	ft.emit(agent.TextDelta{Text: "Hello"})
	r := until[Replying](e, nil)
	if r.ThreadID != e.thread.ID || !r.Since.Equal(e.clock.Now()) {
		t.Fatalf("%+v at %v", r, e.clock.Now())
	}
	if since, ok := e.s.ReplyingSince(e.thread.ID); !ok || !since.Equal(r.Since) {
		t.Fatalf("ReplyingSince %v %v", since, ok)
	}
	ft.emit(agent.TextDelta{Text: " again"})
	ft.emit(agent.ToolCall{Tool: message.Tool{CallID: "c"}})
	ft.end <- nil
	until[ReplyFinished](e, nil)
	for _, ev := range e.events {
		if _, ok := ev.(Replying); ok && ev != Event(r) {
			t.Errorf("a second Replying: %+v", ev)
		}
	}
	if _, ok := e.s.ReplyingSince(e.thread.ID); ok {
		t.Error("replying after the turn")
	}
}
