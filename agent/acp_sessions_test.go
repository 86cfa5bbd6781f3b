package agent

import (
	"strings"
	"testing"
	"time"
)

// An agent that offers session/resume gets it for a stored session: no
// session/load, no replay to drop and no quiet window waited for, the
// session's state from the answer, the prompt alone.
func TestACPResumeInsteadOfLoad(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_SESSIONS=resume")
	h.a.quietAfter = func(time.Duration) <-chan time.Time {
		t.Error("a resumed session waited for a replay to settle")
		c := make(chan time.Time)
		close(c)
		return c
	}
	reads := 0
	evs, err := h.run(Turn{ThreadID: "a", Prompt: "again", SessionID: "sess-old", Handover: handover(&reads)})
	if err != nil {
		t.Fatal(err)
	}
	resumes := h.events("resume")
	if len(resumes) != 1 || resumes[0]["session"] != "sess-old" || resumes[0]["cwd"] != h.dir {
		t.Errorf("resumes = %v, want one of sess-old in %s", resumes, h.dir)
	}
	if n := len(h.events("load")) + len(h.events("new")); n != 0 || len(acpOf[SessionStarted](evs)) != 0 {
		t.Errorf("load or new used besides resume: %v", h.events(""))
	}
	if p := h.event("prompt"); p["session"] != "sess-old" {
		t.Errorf("prompt went to %v", p["session"])
	}
	if got := firstPromptText(t, h); got != "again" || reads != 0 {
		t.Errorf("prompt = %q, history read %d times", got, reads)
	}
	if m := acpOf[Modes](evs); len(m) != 1 || m[0].Current != "plan" {
		t.Errorf("modes from session/resume = %+v", m)
	}
	if !strings.Contains(acpText(evs), "Hello world") || len(acpOf[Notice](evs)) != 0 {
		t.Errorf("text %q, notices %v", acpText(evs), acpOf[Notice](evs))
	}
	// The session is live now: the next turn neither resumes nor loads.
	h.mustTurn("a", "and again")
	if len(h.events("resume")) != 1 {
		t.Errorf("resumed again: %v", h.events("resume"))
	}
}

// An agent that offers load but not resume is loaded, as before.
func TestACPLoadWhenResumeNotOffered(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.a.quietAfter = func(time.Duration) <-chan time.Time {
		c := make(chan time.Time)
		close(c)
		return c
	}
	evs, err := h.run(Turn{ThreadID: "a", Prompt: "again", SessionID: "sess-old"})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.events("resume")) != 0 || len(h.events("load")) != 1 {
		t.Errorf("want one load and no resume: %v", h.events(""))
	}
	acpNoReplay(t, evs)
}

// A resume the agent refuses starts a new session with the thread's
// history, the notice quoting the agent.
func TestACPResumeRefusedHandsOverHistory(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_SESSIONS=resume")
	reads := 0
	evs, err := h.run(Turn{ThreadID: "a", Prompt: "hi", SessionID: "sess-gone", Handover: handover(&reads)})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.events("load")) != 0 || len(h.events("new")) != 1 {
		t.Errorf("want no load and one new session: %v", h.events(""))
	}
	if got := firstPromptText(t, h); got != strings.TrimRight(handedHistory, "\n")+"\n\nhi" {
		t.Errorf("first prompt = %q", got)
	}
	n := acpOf[Notice](evs)
	if len(n) != 1 || !strings.Contains(n[0].Text, "could not resume the agent's own session sess-gone") || !strings.Contains(n[0].Text, "Resource not found") {
		t.Errorf("notices = %v", n)
	}
}
