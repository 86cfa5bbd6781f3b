package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/store"
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

func (b *askingBackend) Stream(ctx context.Context, t agent.Turn, emit func(string)) error {
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
		return len(msgs) == 2 && msgs[1].Status == store.StatusDone
	})
	if got := e.messages(threadID)[1].Text; got != "chose never" {
		t.Fatalf("the agent got %q", got)
	}
	if h.app.ov != overlayNone {
		t.Fatal("the prompt closes once answered")
	}
}
