//go:build unix

package agent

import (
	"context"
	"errors"
	"strings"
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

// A thread with earlier messages but no session (a fork from an earlier
// message) hands them to its new session; a new thread has none to hand.
func TestACPNewSessionTakesTheThreadsHistory(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	reads := 0
	evs, err := h.run(Turn{ThreadID: "fork", Prompt: "edited", Handover: handover(&reads)})
	if err != nil {
		t.Fatal(err)
	}
	if got := firstPromptText(t, h); got != strings.TrimRight(handedHistory, "\n")+"\n\nedited" {
		t.Errorf("first prompt = %q", got)
	}
	if n := acpOf[Notice](evs); len(n) != 1 || !strings.Contains(n[0].Text, "no session with the agent yet") || !strings.Contains(n[0].Text, "handed it this thread's history") {
		t.Errorf("notices = %v", n)
	}
	empty := &Handover{History: func() (string, int, int) { return "", 0, 0 }}
	evs, err = h.run(Turn{ThreadID: "new", Prompt: "hi", Handover: empty})
	if err != nil {
		t.Fatal(err)
	}
	if got := firstPromptText(t, h); got != "hi" || len(acpOf[Notice](evs)) != 0 {
		t.Errorf("a new thread: prompt %q, notices %v", got, acpOf[Notice](evs))
	}
}
