package agent

import (
	"context"
	"errors"
	"strings"
	"sync"
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

// Deleting a thread closes its session with session/close when the agent
// offers it; the thread's next turn gets a new session.
func TestACPCloseSessionOffered(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_SESSIONS=close")
	evs := h.mustTurn("a", "one")
	h.mustTurn("b", "two")
	sid := acpOf[SessionStarted](evs)[0].ID
	if err := h.a.CloseSession(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	closes := h.events("close")
	if len(closes) != 1 || closes[0]["session"] != sid {
		t.Errorf("closes = %v, want one of %s", closes, sid)
	}
	if h.a.SessionID("a") != "" || h.a.SessionID("b") == "" {
		t.Errorf("sessions after close: a %q, b %q", h.a.SessionID("a"), h.a.SessionID("b"))
	}
	h.mustTurn("a", "three")
	if len(h.events("new")) != 3 {
		t.Errorf("the closed thread's next turn did not get a new session: %v", h.events("new"))
	}
}

func TestACPCloseSessionNotOffered(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "one")
	if err := h.a.CloseSession(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	if len(h.events("close")) != 0 || h.a.SessionID("a") != "" {
		t.Errorf("closes %v, session %q", h.events("close"), h.a.SessionID("a"))
	}
}

// Quitting closes the open sessions but waits ACPQuitCloseWait at most for
// an agent that does not answer.
func TestACPQuitClosesSessionsWithoutWaiting(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_SESSIONS=close", "CHIPCHAT_ACP_SLOW_CLOSE=1")
	evs := h.mustTurn("a", "one")
	fire := make(chan time.Time)
	waited := make(chan time.Duration, 1)
	h.a.closeAfter = func(d time.Duration) <-chan time.Time {
		waited <- d
		return fire
	}
	closed := make(chan struct{})
	go func() {
		h.a.Close()
		close(closed)
	}()
	if e := h.waitEvent("close"); e["session"] != acpOf[SessionStarted](evs)[0].ID {
		t.Errorf("closed %v", e)
	}
	if d := <-waited; d != ACPQuitCloseWait || d > 100*time.Millisecond {
		t.Errorf("Close waits %v for session/close", d)
	}
	select {
	case <-closed:
		t.Fatal("Close returned before the agent answered or the wait was over")
	default:
	}
	close(fire)
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return once its wait was over")
	}
}

// An agent that answers at once is not waited for any longer.
func TestACPQuitClosesSessionsAnswered(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_SESSIONS=close")
	h.mustTurn("a", "one")
	h.mustTurn("b", "two")
	h.a.closeAfter = func(time.Duration) <-chan time.Time { return nil } // never
	closed := make(chan struct{})
	go func() {
		h.a.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited though the agent answered")
	}
	if n := len(h.events("close")); n != 2 {
		t.Errorf("%d sessions closed, want 2", n)
	}
}

func TestACPQuitWithoutClose(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "one")
	h.a.closeAfter = func(time.Duration) <-chan time.Time {
		t.Error("Close waited for session/close the agent does not offer")
		return nil
	}
	h.a.Close()
	if len(h.events("close")) != 0 {
		t.Errorf("closes %v", h.events("close"))
	}
}

// session_info_update's title is a SessionTitle event, one line; an agent
// that sends none gives none.
func TestACPSessionTitle(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	evs := h.mustTurn("a", "one")
	if st := acpOf[SessionTitle](evs); len(st) != 0 {
		t.Errorf("titles without session_info_update: %v", st)
	}
	evs = h.mustTurn("a", "[title]")
	if st := acpOf[SessionTitle](evs); len(st) != 1 || st[0].Title != "Fix the login bug" {
		t.Errorf("titles = %+v", st)
	}
	// The same title again is no news.
	evs = h.mustTurn("a", "[title]")
	if st := acpOf[SessionTitle](evs); len(st) != 0 {
		t.Errorf("the same title again: %+v", st)
	}
}

// A title the agent sends after its turn ended reaches the between-turns
// callback at once, for the thread, sanitized — not the next turn, which
// may be hours away — and is not told again in the next turn.
func TestACPTitleBetweenTurns(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	got := make(chan []Event, 4)
	threads := make(chan string, 4)
	h.a.OnBetweenTurns(func(threadID string, evs []Event) {
		threads <- threadID
		got <- evs
	})
	evs := h.mustTurn("a", "[title-after]")
	if st := acpOf[SessionTitle](evs); len(st) != 0 {
		t.Fatalf("the title came with the turn: %+v", st)
	}
	// Other state the agent sends between turns (its commands) may be
	// told first, in a callback of its own.
	deadline := time.After(10 * time.Second)
	for titled := false; !titled; {
		select {
		case between := <-got:
			if th := <-threads; th != "a" {
				t.Errorf("told for thread %q", th)
			}
			st := acpOf[SessionTitle](between)
			if len(st) > 1 || len(st) == 1 && st[0].Title != "Named after the turn" {
				t.Errorf("between turns: %+v", between)
			}
			titled = len(st) == 1
		case <-deadline:
			t.Fatal("the title sent after the turn never reached the callback")
		}
	}
	if st := acpOf[SessionTitle](h.mustTurn("a", "one")); len(st) != 0 {
		t.Errorf("told again in the next turn: %+v", st)
	}
}

// session/list: the sessions of the project's directory, every page, the
// newest first, titles on one line.
func TestACPListSessions(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_SESSIONS=list")
	list, err := h.a.ListSessions(context.Background(), h.dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "sess-newer" || list[0].Title != "Newer work" || list[1].ID != "sess-older" ||
		list[1].Updated.Year() != 2026 || list[0].Cwd != h.dir {
		t.Errorf("list = %+v", list)
	}
	if ls := h.events("list"); len(ls) != 2 || ls[0]["cwd"] != h.dir || ls[1]["cursor"] != "page2" {
		t.Errorf("requests %v", ls)
	}
}

func TestACPListSessionsNotOffered(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	if _, err := h.a.ListSessions(context.Background(), h.dir); !errors.Is(err, ErrNotOffered) {
		t.Errorf("err = %v, want ErrNotOffered", err)
	}
	if len(h.events("list")) != 0 {
		t.Error("session/list sent though not offered")
	}
}

// ImportSession loads the agent's session once, returns what it replayed
// (the messages, not thoughts or tools), and the thread goes on in it.
func TestACPImportSession(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_SESSIONS=list,resume")
	msgs, err := h.a.ImportSession(context.Background(), "imported", "sess-older", h.dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[0].Role != "user" || msgs[0].Text != "old question" || msgs[1].Role != "assistant" || msgs[1].Text != "old reply" {
		t.Errorf("history = %+v", msgs)
	}
	if l := h.events("load"); len(l) != 1 || l[0]["session"] != "sess-older" {
		t.Errorf("loads %v", l)
	}
	evs, err := h.run(Turn{ThreadID: "imported", Prompt: "go on", SessionID: "sess-older"})
	if err != nil {
		t.Fatal(err)
	}
	acpNoReplay(t, evs)
	if p := h.event("prompt"); p["session"] != "sess-older" || len(h.events("load"))+len(h.events("resume"))+len(h.events("new")) != 1 {
		t.Errorf("the imported thread's turn: prompt to %v; %v", p["session"], h.events(""))
	}
}

func TestACPImportSessionCannotLoad(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_CAPS=none")
	if _, err := h.a.ImportSession(context.Background(), "x", "sess-older", h.dir); !errors.Is(err, ErrNotOffered) {
		t.Errorf("err = %v, want ErrNotOffered", err)
	}
}

// chipchat advertises boolean config options (in the capabilities'
// _meta: the SDK has no field for them) and reports an agent's boolean
// option as one to toggle; a select option is not one.
func TestACPBooleanConfigOptions(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	evs := h.mustTurn("a", "one")
	caps, _ := h.event("initialize")["caps"].(map[string]any)
	meta, _ := caps["_meta"].(map[string]any)
	sess, _ := meta["session"].(map[string]any)
	co, _ := sess["configOptions"].(map[string]any)
	if _, ok := co["boolean"].(map[string]any); !ok {
		t.Errorf("client capabilities %v lack _meta.session.configOptions.boolean", caps)
	}
	var web, effort *ConfigOption
	for _, c := range acpOf[ConfigOptions](evs) {
		for i := range c.Options {
			switch c.Options[i].ID {
			case "web":
				web = &c.Options[i]
			case "effort":
				effort = &c.Options[i]
			}
		}
	}
	if web == nil || !web.Boolean || web.Current != "false" || effort == nil || effort.Boolean {
		t.Fatalf("options: web %+v, effort %+v", web, effort)
	}
	if err := h.a.SetConfigOption(context.Background(), "a", "web", "true"); err != nil {
		t.Fatal(err)
	}
	if req, _ := h.event("set-config")["req"].(string); !strings.Contains(req, `"type":"boolean"`) || !strings.Contains(req, `"value":true`) {
		t.Errorf("set_config_option %s", req)
	}
}

// Steering: an agent that advertises it takes a message into the running
// turn, whose answer carries it; an idle session is not started by it.
func TestACPSteer(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_SESSIONS=steer")
	h.mustTurn("a", "one")
	if !h.a.CanSteer("a") {
		t.Fatal("CanSteer is false for an agent that advertises steering")
	}
	if err := h.a.Steer(context.Background(), "a", "nobody runs"); !errors.Is(err, ErrNoTurn) {
		t.Errorf("steer while idle: %v, want ErrNoTurn", err)
	}
	done := make(chan struct {
		evs []Event
		err error
	}, 1)
	// The agent says "working; " once its steerable prompt runs: steer
	// then (the first text of the turn, seen by the emitter).
	started := make(chan struct{})
	var once sync.Once
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var evs []Event
		emit := h.emitter(&evs)
		err := h.a.Run(ctx, Turn{ThreadID: "a", Prompt: "[steerable]", Dir: h.dir}, func(e Event) {
			emit(e)
			if _, ok := e.(TextDelta); ok {
				once.Do(func() { close(started) })
			}
		})
		done <- struct {
			evs []Event
			err error
		}{evs, err}
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the steerable turn never ran")
	}
	err := h.a.Steer(context.Background(), "a", "use the other file")
	if err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || !strings.Contains(acpText(r.evs), "steered: use the other file") {
		t.Errorf("turn: %v, text %q", r.err, acpText(r.evs))
	}
	steers := h.events("steer")
	meta, _ := steers[len(steers)-1]["meta"].(map[string]any)
	if st, _ := meta["steering"].(map[string]any); st["idleBehavior"] != "promptRequired" {
		t.Errorf("steer _meta %v", meta)
	}
}

func TestACPSteerNotOffered(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "one")
	if h.a.CanSteer("a") {
		t.Error("CanSteer is true for an agent without steering")
	}
	if err := h.a.Steer(context.Background(), "a", "x"); !errors.Is(err, ErrNotOffered) {
		t.Errorf("err = %v, want ErrNotOffered", err)
	}
	if len(h.events("steer")) != 0 {
		t.Error("steered though not offered")
	}
}

func TestACPLogout(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_SESSIONS=logout")
	if err := h.a.Logout(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(h.events("logout")) != 1 {
		t.Errorf("logout not sent: %v", h.events(""))
	}
	h2 := newACPHarness(t, ACPOptions{})
	if err := h2.a.Logout(context.Background()); !errors.Is(err, ErrNotOffered) {
		t.Errorf("err = %v, want ErrNotOffered", err)
	}
	if len(h2.events("logout")) != 0 {
		t.Error("logout sent though not offered")
	}
}
