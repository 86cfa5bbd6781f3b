//go:build unix

package agent

import (
	"context"
	"errors"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// UnstableForkSession is the fake agent's session/fork: "fork-of-<id>".
func (f *fakeACPAgent) UnstableForkSession(_ context.Context, p acp.UnstableForkSessionRequest) (acp.UnstableForkSessionResponse, error) {
	f.record(map[string]any{"ev": "fork", "session": string(p.SessionId), "cwd": p.Cwd})
	return acp.UnstableForkSessionResponse{SessionId: "fork-of-" + p.SessionId}, nil
}

// session/fork copies the thread's session when offered; the fork's first
// turn resumes the copy; an agent that does not offer it is not asked.
func TestACPForkSession(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_SESSIONS=fork,resume")
	evs := h.mustTurn("a", "hello")
	started := acpOf[SessionStarted](evs)
	if len(started) != 1 {
		t.Fatalf("sessions %v", started)
	}
	id, err := h.a.ForkSession(ctx, h.dir, started[0].ID)
	if err != nil || id != "fork-of-"+started[0].ID {
		t.Fatalf("fork = %q, %v", id, err)
	}
	if e := h.event("fork"); e["session"] != started[0].ID || e["cwd"] != h.dir {
		t.Errorf("the agent got %v", e)
	}
	h.mustTurn("b", "again") // another thread: a new session
	if _, err := h.run(Turn{ThreadID: "c", Prompt: "in the fork", SessionID: id}); err != nil {
		t.Fatal(err)
	}
	var resumed bool
	for _, e := range h.events("resume") {
		resumed = resumed || e["session"] == id
	}
	if !resumed {
		t.Errorf("the fork's turn did not resume %s: %v", id, h.events("resume"))
	}

	plain := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_SESSIONS=resume")
	plain.mustTurn("a", "hello")
	if _, err := plain.a.ForkSession(ctx, plain.dir, "sess-x"); !errors.Is(err, ErrNotOffered) {
		t.Errorf("without session/fork: %v", err)
	}
	if got := plain.events("fork"); len(got) != 0 {
		t.Errorf("asked an agent that does not offer it: %v", got)
	}
}
