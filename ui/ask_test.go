package ui

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
)

// askingBackend asks one permission question per turn and replies with
// the option the user chose.
type askingBackend struct {
	ask func(context.Context, agent.Question) (agent.Answer, error)
}

func (b *askingBackend) Name() string { return "asking" }
func (b *askingBackend) SetAsk(f func(context.Context, agent.Question) (agent.Answer, error)) {
	b.ask = f
}

func (*askingBackend) Capabilities() agent.Capabilities { return agent.Capabilities{Cancel: true} }
func (b *askingBackend) Run(ctx context.Context, t agent.Turn, ev func(agent.Event)) error {
	emit := func(s string) { ev(agent.TextDelta{Text: s}) }
	ans, err := b.ask(ctx, agent.Question{Kind: agent.QuestionPermission, Title: "Run \x1b[2Jrm -rf build?",
		Options: []agent.QuestionOption{{ID: "once", Label: "Allow once", Kind: "allow_once"}, {ID: "never", Label: "Reject", Kind: "reject_once"}}})
	if err != nil {
		return err
	}
	emit("chose " + ans.OptionID)
	return nil
}

func TestAgentQuestionIsAKeyboardPrompt(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	opt.Backend = &askingBackend{}
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	h.typeText("go")
	h.press("enter")
	h.pumpUntil("the question", func() bool { return h.app.ov == overlayAsk })
	scr := h.plain()
	if !strings.Contains(scr, "1. Allow once") || !strings.Contains(scr, "2. Reject") || strings.Contains(h.app.View().Content, "\x1b[2J") {
		t.Fatalf("the prompt shows the options, sanitized:\n%s", scr)
	}
	h.press("2")
	h.pumpUntil("the reply", func() bool {
		msgs := e.messages(threadID)
		return len(msgs) == 2 && msgs[1].Status == message.StatusDone
	})
	if got := e.messages(threadID)[1].Text; got != "chose never" {
		t.Fatalf("the agent got %q", got)
	}
	if h.app.ov != overlayNone {
		t.Fatal("the prompt closes once answered")
	}
}

// sessionBackend remembers sessions per thread like ACP does.
type sessionBackend struct {
	mu       sync.Mutex
	sessions map[string]string
	loaded   []string
}

func (b *sessionBackend) Name() string { return "acp:fake" }
func (b *sessionBackend) SessionID(th string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sessions[th]
}
func (b *sessionBackend) SetSessionID(th, id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.loaded = append(b.loaded, id)
	b.sessions[th] = id
}
func (*sessionBackend) Capabilities() agent.Capabilities { return agent.Capabilities{Cancel: true} }
func (b *sessionBackend) Run(ctx context.Context, t agent.Turn, ev func(agent.Event)) error {
	emit := func(s string) { ev(agent.TextDelta{Text: s}) }
	b.mu.Lock()
	if b.sessions[t.ThreadID] == "" {
		b.sessions[t.ThreadID] = "sess-" + t.ThreadID
	}
	b.mu.Unlock()
	emit("ok")
	return nil
}

func TestAgentSessionResumesAfterRestart(t *testing.T) {
	e := newTestEnv(t)
	opt := e.options("")
	first := &sessionBackend{sessions: map[string]string{}}
	opt.Backend = first
	h := e.openWith(opt)
	threadID := h.app.thread.ID
	h.typeText("hi")
	h.press("enter")
	h.pumpUntil("the session saved", func() bool {
		id, ok, _ := e.st.AgentSession(threadID, "acp:fake")
		return ok && id == "sess-"+threadID
	})
	// A new process: the backend knows nothing; the thread's session comes
	// back from the store before the next turn.
	opt = e.options(threadID)
	second := &sessionBackend{sessions: map[string]string{}}
	opt.Backend = second
	h2 := e.openWith(opt)
	h2.typeText("again")
	h2.press("enter")
	h2.pumpUntil("the reply", func() bool { return len(e.messages(threadID)) == 4 })
	second.mu.Lock()
	defer second.mu.Unlock()
	if len(second.loaded) != 1 || second.loaded[0] != "sess-"+threadID {
		t.Fatalf("the second process resumed %v", second.loaded)
	}
}
