package ui

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chat"
)

// steerLike is a fake backend whose turn runs until released; it steers
// when can is set, and reports usage as Claude's adapter does.
type steerLike struct {
	can     bool
	release chan struct{}
	mu      sync.Mutex
	steered []string
	prompts []string
}

func (b *steerLike) Name() string { return "acp:steer" }
func (b *steerLike) Capabilities() agent.Capabilities {
	return agent.Capabilities{Sessions: true, Cancel: true}
}
func (b *steerLike) Run(ctx context.Context, t agent.Turn, emit func(agent.Event)) error {
	b.mu.Lock()
	b.prompts = append(b.prompts, t.Prompt)
	b.mu.Unlock()
	emit(agent.TextDelta{Text: "working"})
	emit(agent.Usage{ContextUsed: 84_000, ContextSize: 200_000, Cost: 0.1234, Currency: "USD"})
	select {
	case <-b.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}
func (b *steerLike) CanSteer(string) bool { return b.can }
func (b *steerLike) Steer(_ context.Context, _, text string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.steered = append(b.steered, text)
	return nil
}
func (b *steerLike) seen() (steered, prompts []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.steered...), append([]string(nil), b.prompts...)
}

// alt+i while a turn runs puts the message into it; the header shows the
// context used and the cost the agent reported.
func TestSteerKeyAndUsageHeader(t *testing.T) {
	b := &steerLike{can: true, release: make(chan struct{})}
	h := openFake(t, b)
	h.typeText("first")
	h.press("enter")
	h.pumpUntil("the running turn", func() bool { return h.app.conv.phase() == chat.Streaming })
	h.pumpUntil("the usage in the header", func() bool {
		return strings.Contains(strings.Split(h.plain(), "\n")[0], "ctx 42% · $0.12")
	})
	h.typeText("use the other file")
	h.press("alt+i")
	h.pumpUntil("the steered message", func() bool { s, _ := b.seen(); return len(s) == 1 })
	if s, _ := b.seen(); s[0] != "use the other file" {
		t.Errorf("steered %q", s)
	}
	h.pumpUntil("the composer cleared", func() bool { return h.app.ed.Draft().IsEmpty() })
	close(b.release)
	h.pumpUntil("the turn's end", func() bool { return h.app.conv.phase() == chat.Idle })
	if _, p := b.seen(); len(p) != 1 {
		t.Errorf("the steered message was sent as a turn too: %q", p)
	}
}

// An agent that cannot steer: alt+i queues, with a toast saying why.
func TestSteerKeyQueuesWhenTheAgentCannot(t *testing.T) {
	b := &steerLike{release: make(chan struct{})}
	h := openFake(t, b)
	h.typeText("first")
	h.press("enter")
	h.pumpUntil("the running turn", func() bool { return h.app.conv.phase() == chat.Streaming })
	h.typeText("later")
	h.press("alt+i")
	h.pumpUntil("the toast", func() bool { return strings.Contains(h.plain(), "cannot take a message mid-turn") })
	h.pumpUntil("the queue", func() bool { return strings.Contains(h.plain(), "queued (1)") })
	close(b.release)
	h.pumpUntil("the queued message sent", func() bool { _, p := b.seen(); return len(p) == 2 })
	if s, _ := b.seen(); len(s) != 0 {
		t.Errorf("steered %q", s)
	}
}

// toggleLike offers one on/off option and one select option.
type toggleLike struct {
	mu    sync.Mutex
	calls []string
	fast  string
}

func (b *toggleLike) Name() string { return "acp:toggle" }
func (b *toggleLike) Capabilities() agent.Capabilities {
	return agent.Capabilities{Sessions: true, Cancel: true, Modes: true}
}
func (b *toggleLike) options() []agent.ConfigOption {
	b.mu.Lock()
	defer b.mu.Unlock()
	return []agent.ConfigOption{
		{ID: "fast", Name: "Fast mode", Boolean: true, Current: b.fast, Values: []agent.ConfigValue{{ID: "true", Name: "on"}, {ID: "false", Name: "off"}}},
		{ID: "model", Name: "Model", Category: "model", Current: "m1", Values: []agent.ConfigValue{{ID: "m1", Name: "Fast one"}, {ID: "m2", Name: "Big one"}}},
	}
}
func (b *toggleLike) Run(_ context.Context, t agent.Turn, emit func(agent.Event)) error {
	emit(agent.ConfigOptions{Options: b.options()})
	emit(agent.TextDelta{Text: "got: " + t.Prompt})
	return nil
}
func (b *toggleLike) SetMode(context.Context, string, string) error { return nil }
func (b *toggleLike) SetConfigOption(_ context.Context, _, id, value string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls = append(b.calls, id+"="+value)
	if id == "fast" {
		b.fast = value
	}
	return nil
}
func (b *toggleLike) SessionState(string) []agent.Event {
	return []agent.Event{agent.ConfigOptions{Options: b.options()}}
}

// In the modes picker an on/off option is one row with a box; space
// toggles it and the picker stays open, the box redrawn.
func TestModesPickerTogglesBoolean(t *testing.T) {
	b := &toggleLike{fast: "false"}
	h := openFake(t, b)
	h.typeText("hello")
	h.press("enter")
	h.pumpUntil("the first reply", func() bool {
		return strings.Contains(h.replyShown(), "got: hello") && len(h.app.conv.info().Options) > 0 && h.app.conv.phase() == chat.Idle
	})
	h.press("alt+m")
	if s := h.plain(); !strings.Contains(s, "[ ] Fast mode") || strings.Contains(s, "Fast mode: on") || !strings.Contains(s, "Model: Big one") {
		t.Fatalf("the picker:\n%s", s)
	}
	h.press("space")
	h.pumpUntil("the box checked", func() bool { return strings.Contains(h.plain(), "[x] Fast mode") })
	if bottomPicker(h.app) == nil {
		t.Fatal("space closed the picker")
	}
	h.press("space")
	h.pumpUntil("the box cleared", func() bool { return strings.Contains(h.plain(), "[ ] Fast mode") })
	b.mu.Lock()
	defer b.mu.Unlock()
	if strings.Join(b.calls, " ") != "fast=true fast=false" {
		t.Errorf("calls %q", b.calls)
	}
}
