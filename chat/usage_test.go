package chat

import (
	"testing"

	"github.com/chipchat/chipchat/agent"
)

// The agent's usage_update (context, cost) and its prompt's tokens come as
// separate events: the thread's Info keeps both, and UsageLine draws the
// context as a percent of its size and the cost.
func TestUsageKeptAndDrawn(t *testing.T) {
	e := newEnv(t, agent.Capabilities{Sessions: true})
	e.send("hi")
	ft := e.turn()
	ft.emit(agent.Usage{ContextUsed: 84_000, ContextSize: 200_000, Cost: 0.1234, Currency: "USD"})
	ft.emit(agent.Usage{InputTokens: 11, OutputTokens: 22})
	ft.end <- nil
	until[ReplyFinished](e, nil)
	var last Info
	for _, ev := range e.events {
		if ai, ok := ev.(AgentInfo); ok {
			last = ai.Info
		}
	}
	if got := last.UsageLine(); got != "ctx 42% · $0.12" {
		t.Errorf("usage line %q (usage %+v)", got, last.Usage)
	}
	if last.Usage.InputTokens != 11 || last.Usage.ContextUsed != 84_000 {
		t.Errorf("usage %+v", last.Usage)
	}
}

func TestUsageLine(t *testing.T) {
	for _, c := range []struct {
		u    Usage
		want string
	}{
		{Usage{}, ""},
		{Usage{InputTokens: 5, OutputTokens: 6}, ""},
		{Usage{ContextUsed: 1234}, "ctx 1.2k tokens"},
		{Usage{ContextUsed: 12, ContextSize: 200_000}, "ctx <1%"},
		{Usage{ContextUsed: 200_000, ContextSize: 200_000}, "ctx 100%"},
		{Usage{Cost: 1.5, Currency: "eur"}, "1.50 EUR"},
		{Usage{ContextUsed: 2_500_000, Cost: 0, Currency: "USD"}, "ctx 2.5M tokens · $0.00"},
	} {
		if got := (Info{Usage: c.u}).UsageLine(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.u, got, c.want)
		}
	}
}
