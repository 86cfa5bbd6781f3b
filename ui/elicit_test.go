package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/ui/keymap"
)

// elicitBackend asks for input (a form, or a link when url) and answers
// with what it got back, as JSON.
type elicitBackend struct{ url bool }

func (*elicitBackend) Name() string                     { return "eliciting" }
func (*elicitBackend) Capabilities() agent.Capabilities { return agent.Capabilities{Cancel: true} }
func (b *elicitBackend) Run(ctx context.Context, t agent.Turn, ev func(agent.Event)) error {
	min18 := 18.0
	req := agent.ElicitRequest{Mode: "form", Message: "Who \x1b]0;pwned\x07are \x1b[2Jyou?", Form: agent.ElicitForm{Title: "Profile", Fields: []agent.ElicitField{
		{Name: "name", Title: "Your name", Kind: agent.ElicitText, Required: true},
		{Name: "age", Title: "Age", Kind: agent.ElicitInteger, Minimum: &min18},
		{Name: "color", Title: "Color", Kind: agent.ElicitChoice, Required: true, Choices: []agent.ElicitOption{{Value: "r", Label: "Red"}, {Value: "g", Label: "Green"}}},
		{Name: "agree", Title: "Agree", Kind: agent.ElicitBool},
	}}}
	if b.url {
		req = agent.ElicitRequest{Mode: "url", Message: "Sign in", URL: "https://example.com/device?code=AB", ElicitationID: "u1"}
	}
	reply := make(chan agent.ElicitAnswer, 1)
	ev(agent.Elicitation{Request: req, Reply: reply})
	select {
	case ans := <-reply:
		if b.url {
			ev(agent.ElicitationDone{ElicitationID: "u1"})
		}
		js, _ := json.Marshal(ans)
		ev(agent.TextDelta{Text: string(js)})
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *harness) elicit(t *testing.T, url bool) (*harness, string) {
	t.Helper()
	opt := h.e.options("")
	opt.Backend = &elicitBackend{url: url}
	h2 := h.e.openWith(opt)
	h2.typeText("go")
	h2.press("enter")
	h2.pumpUntil("the form", func() bool { return h2.app.OverlayScope() == keymap.ScopeElicit })
	return h2, h2.app.thread.ID
}

func (h *harness) reply(threadID string) string {
	h.pumpUntil("the reply", func() bool {
		msgs := h.e.messages(threadID)
		return len(msgs) == 2 && msgs[1].Status.Final()
	})
	return h.e.messages(threadID)[1].Text
}

// The form is drawn sanitized; enter checks it (each wrong field says so,
// the first is focused), the fields are filled from the keyboard, and the
// content reaches the agent.
func TestElicitFormFilledFromTheKeyboard(t *testing.T) {
	e := newTestEnv(t)
	h, th := e.open("").elicit(t, false)
	scr := h.plain()
	if !strings.Contains(scr, "The agent asks (Profile):") || !strings.Contains(scr, "Who are you?") || !strings.Contains(scr, "> Your name*:") ||
		!strings.Contains(scr, "( ) Red") || !strings.Contains(scr, "Agree: [ ] no") {
		t.Fatalf("the form:\n%s", scr)
	}
	if v := h.app.View().Content; strings.Contains(v, "\x1b]0;") || strings.Contains(v, "\x1b[2J") {
		t.Fatal("the agent's control sequences reached the screen")
	}
	h.press("enter")
	scr = h.plain()
	if !strings.Contains(scr, "Your name: required") || !strings.Contains(scr, "Color: required") || h.app.OverlayScope() != keymap.ScopeElicit {
		t.Fatalf("enter on an empty form:\n%s", scr)
	}
	h.typeText("Ada")
	h.press("tab")
	h.typeText("12")
	h.press("enter") // age is now checked too
	if scr = h.plain(); !strings.Contains(scr, "Age: at least 18") || strings.Contains(scr, "Your name: required") {
		t.Fatalf("after typing:\n%s", scr)
	}
	h.press("backspace", "backspace")
	h.typeText("30")
	h.press("tab", "right", "space", "tab", "space")
	if scr = h.plain(); !strings.Contains(scr, "(•) Green") || !strings.Contains(scr, "[x] yes") {
		t.Fatalf("picked:\n%s", scr)
	}
	h.press("enter")
	got := h.reply(th)
	var ans agent.ElicitAnswer
	if err := json.Unmarshal([]byte(got), &ans); err != nil {
		t.Fatalf("%q: %v", got, err)
	}
	c := ans.Content
	if ans.Action != "accept" || c["name"] != "Ada" || c["age"] != float64(30) || c["color"] != "g" || c["agree"] != true {
		t.Fatalf("the agent got %s", got)
	}
}

// esc declines, ctrl+g cancels: nothing of the form is sent.
func TestElicitDeclineAndCancel(t *testing.T) {
	for key, action := range map[string]string{"esc": "decline", "ctrl+g": "cancel"} {
		e := newTestEnv(t)
		h, th := e.open("").elicit(t, false)
		h.typeText("Ada")
		h.press(key)
		if got := h.reply(th); got != `{"Action":"`+action+`","Content":null}` {
			t.Errorf("%s: the agent got %s", key, got)
		}
	}
}

// A link is shown; enter opens it with $BROWSER and answers accept; the
// prompt waits until the agent says it is done.
func TestElicitLinkOpensAndWaits(t *testing.T) {
	t.Setenv("BROWSER", "true")
	e := newTestEnv(t)
	h, th := e.open("").elicit(t, true)
	if scr := h.plain(); !strings.Contains(scr, "https://example.com/device?code=AB") || !strings.Contains(scr, "Sign in") {
		t.Fatalf("the link:\n%s", scr)
	}
	h.press("enter")
	if got := h.reply(th); got != `{"Action":"accept","Content":null}` {
		t.Errorf("the agent got %s", got)
	}
	h.pumpUntil("the prompt closed by the agent's completion", func() bool { return h.app.OverlayScope() != keymap.ScopeElicit })
}
