package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chat"
)

// gatedBackend starts a turn and sends nothing until the test opens its
// gate: an agent still starting (spawning, initializing, loading the
// session).
type gatedBackend struct {
	agent.Echo
	gate chan struct{}
}

func (g *gatedBackend) Run(ctx context.Context, t agent.Turn, ev func(agent.Event)) error {
	select {
	case <-g.gate:
	case <-ctx.Done():
		return ctx.Err()
	}
	return g.Echo.Run(ctx, t, ev)
}

// Starting is not replying: until the turn's first update the header says
// "starting <agent>", and "replying" only from that update on.
func TestHeaderSaysStartingUntilTheFirstUpdate(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	b := &gatedBackend{gate: make(chan struct{})}
	opt.Backend = b
	h := e.openWith(opt)
	h.typeText("hello there")
	h.press("enter")
	header := func() string { return strings.SplitN(h.plain(), "\n", 2)[0] }
	// The backend runs (chat's phase Streaming) but has sent nothing yet.
	h.pumpUntil("the backend to run", func() bool {
		return h.app.chat.Phase(h.app.thread.ID) == chat.Streaming && h.app.conv.phase() == chat.Streaming
	})
	if hd := header(); strings.Contains(hd, "replying") || !strings.Contains(hd, "starting echo") {
		t.Fatalf("before the agent's first update the header says starting <agent>: %q", hd)
	}
	close(b.gate)
	h.pumpUntil("the first update", func() bool { return strings.Contains(header(), "replying") })
	if hd := header(); strings.Contains(hd, "starting") {
		t.Fatalf("once the agent replies the header says replying only: %q", hd)
	}
}
