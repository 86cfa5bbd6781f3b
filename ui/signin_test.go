package ui

import (
	"errors"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/ui/keymap"
)

// A sign-in method that waits (for a browser) says so in the reply, and esc
// — nothing else being open — stops it: the turn is cancelled.
func TestSignInWaitingEscStops(t *testing.T) {
	b := &acpLike{signIn: &agent.Question{Kind: agent.QuestionAuth, Title: "Sign in to fake", Options: []agent.QuestionOption{
		{ID: "browser", Label: "Browser", Kind: agent.AuthAgent}}}}
	h := openFake(t, b)
	h.typeText("hello")
	h.press("enter")
	h.pumpUntil("the sign-in prompt", func() bool { return h.app.OverlayScope() == keymap.ScopeAsk })
	h.press("enter")
	h.pumpUntil("the waiting notice", func() bool { return strings.Contains(h.plain(), "esc stops it") })
	if h.app.conv.phase() != chat.Streaming {
		t.Fatalf("phase %v while signing in", h.app.conv.phase())
	}
	h.press("esc")
	h.pumpUntil("the cancelled turn", func() bool { return h.app.conv.phase() == chat.Idle })
	msgs := h.e.messages(h.app.thread.ID)
	if last := msgs[len(msgs)-1]; last.Role != message.RoleAssistant || last.Status != message.StatusInterrupted {
		t.Fatalf("the reply after esc: %s %s", last.Role, last.Status)
	}
}

// When the agent fails, the toast carries the error (the ACP backend puts
// the last line of the agent's stderr in it) and the reply shows the
// stderr's tail.
func TestAgentFailureShowsStderrTail(t *testing.T) {
	b := &acpLike{
		signIn: &agent.Question{Kind: agent.QuestionAuth, Title: "Sign in", Options: []agent.QuestionOption{{ID: "key", Label: "Key", Kind: agent.AuthEnvVar}}},
		fail: &agent.Error{Err: errors.New("acp: agent exited with code 1 during session/new: refusing to run as root without IS_SANDBOX=1"),
			StderrTail: "starting\nrefusing to run as root without IS_SANDBOX=1"},
	}
	h := openFake(t, b)
	h.typeText("hello")
	h.press("enter")
	h.pumpUntil("the sign-in prompt", func() bool { return h.app.OverlayScope() == keymap.ScopeAsk })
	h.press("enter")
	h.pumpUntil("the failure toast", func() bool { return h.app.toast.err && strings.Contains(h.app.Toast(), "IS_SANDBOX=1") })
	if !strings.Contains(h.app.Toast(), "alt+r retries") {
		t.Errorf("toast %q", h.app.Toast())
	}
	if scr := h.plain(); !strings.Contains(scr, "starting") {
		t.Errorf("the stderr tail is not in the reply:\n%s", scr)
	}
}
