package chat

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/chipchat/chipchat/agent"
)

// configBackend is a fakeBackend that switches modes and options and tells
// its session's state between turns, as the ACP backend does.
type configBackend struct {
	fakeBackend
	mu    sync.Mutex
	calls []string
	fail  error
	state []agent.Event
}

func (b *configBackend) SetMode(_ context.Context, threadID, modeID string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, "mode "+threadID+" "+modeID)
	return b.fail
}

func (b *configBackend) SetConfigOption(_ context.Context, threadID, optionID, value string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, "option "+threadID+" "+optionID+"="+value)
	return b.fail
}

func (b *configBackend) SessionState(string) []agent.Event {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

func newConfigEnv(t *testing.T, b *configBackend) *env {
	t.Helper()
	b.caps, b.turns = agent.Capabilities{Modes: true, Sessions: true}, make(chan *fakeTurn, 4)
	return newEnvFor(t, &b.fakeBackend, b)
}

// A mode or option switched between turns reaches the backend and comes
// back as AgentInfo at once: the requested value, then what the backend
// reports of its session (here the agent also changed its model).
func TestConfigureReportsAgentInfo(t *testing.T) {
	b := &configBackend{}
	e := newConfigEnv(t, b)
	model := agent.ConfigOption{ID: "model", Category: "model", Current: "a", Values: []agent.ConfigValue{{ID: "a"}, {ID: "b"}}}
	b.state = []agent.Event{agent.Modes{Current: "plan", Available: []agent.Mode{{ID: "default"}, {ID: "plan"}}}}
	e.s.SetMode(e.thread.ID, "plan")
	info := until(e, func(ai AgentInfo) bool { return ai.ThreadID == e.thread.ID })
	if info.Info.Modes.Current != "plan" || len(info.Info.Modes.Available) != 2 {
		t.Fatalf("after SetMode: %+v", info.Info)
	}
	b.mu.Lock()
	b.state = []agent.Event{agent.ConfigOptions{Options: []agent.ConfigOption{model}}}
	b.mu.Unlock()
	e.s.SetConfigOption(e.thread.ID, "model", "b")
	info = until(e, func(ai AgentInfo) bool { return ai.ThreadID == e.thread.ID })
	// The backend's report wins over the optimistic value: it says "a".
	if len(info.Info.Options) != 1 || info.Info.Options[0].Current != "a" || info.Info.Modes.Current != "plan" {
		t.Fatalf("after SetConfigOption: %+v", info.Info)
	}
	if got := e.s.Info(e.thread.ID); got.Modes.Current != "plan" || len(got.Options) != 1 {
		t.Fatalf("Info() = %+v", got)
	}
	b.mu.Lock()
	calls := append([]string(nil), b.calls...)
	b.mu.Unlock()
	if len(calls) != 2 || calls[0] != "mode "+e.thread.ID+" plan" || calls[1] != "option "+e.thread.ID+" model=b" {
		t.Fatalf("backend calls %q", calls)
	}
}

// A refused switch is a notice, and the state stays as it was.
func TestConfigureFailureIsANotice(t *testing.T) {
	b := &configBackend{fail: errors.New("no such mode")}
	e := newConfigEnv(t, b)
	e.s.SetMode(e.thread.ID, "warp")
	n := until(e, func(n Notice) bool { return n.Err })
	if n.Text != "could not switch mode: no such mode" {
		t.Fatalf("notice %q", n.Text)
	}
	if got := e.s.Info(e.thread.ID); got.Modes.Current != "" {
		t.Fatalf("the failed mode was recorded: %+v", got)
	}
}

// AgentInfo carries the agent's advertised state in chat's own types,
// every field of it: the commands, the modes, the options with their
// values.
func TestAgentInfoIsChatsOwn(t *testing.T) {
	b := &configBackend{}
	e := newConfigEnv(t, b)
	b.state = []agent.Event{
		agent.Commands{Commands: []agent.Command{{Name: "init", Description: "write AGENTS.md", InputHint: "[dir]"}}},
		agent.Modes{Current: "plan", Available: []agent.Mode{{ID: "plan", Name: "Plan", Description: "think first"}}},
		agent.ConfigOptions{Options: []agent.ConfigOption{{ID: "model", Name: "Model", Category: "model", Current: "a",
			Values: []agent.ConfigValue{{ID: "a", Name: "A one", Description: "fast"}}}}},
	}
	e.s.SetMode(e.thread.ID, "plan")
	got := until(e, func(ai AgentInfo) bool { return ai.ThreadID == e.thread.ID }).Info
	want := Info{
		Commands: []Command{{Name: "init", Description: "write AGENTS.md", InputHint: "[dir]"}},
		Modes:    Modes{Current: "plan", Available: []Mode{{ID: "plan", Name: "Plan", Description: "think first"}}},
		Options: []ConfigOption{{ID: "model", Name: "Model", Category: "model", Current: "a",
			Values: []ConfigValue{{ID: "a", Name: "A one", Description: "fast"}}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("info %+v\nwant %+v", got, want)
	}
}
