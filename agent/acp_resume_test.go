package agent

import (
	"errors"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// firstPromptText is the text of the first block of the last prompt the
// fake agent got.
func firstPromptText(t *testing.T, h *acpHarness) string {
	t.Helper()
	blocks, _ := h.event("prompt")["blocks"].([]any)
	if len(blocks) == 0 {
		t.Fatal("no prompt")
	}
	b, _ := blocks[0].(map[string]any)
	s, _ := b["text"].(string)
	return s
}

const handedHistory = "<thread_history thread=\"a\" title=\"t\">\n(2 earlier messages left out)\nuser: first question\nassistant: first answer\n</thread_history>\n"

func handover(reads *int) *Handover {
	return &Handover{History: func() (string, int, int) {
		*reads++
		return handedHistory, 2, 2
	}}
}

// When session/load fails, the new session's first prompt starts with the
// thread's history, and the notice says in words that the agent's own
// session was not resumed and the history was handed over instead.
func TestACPResumeLoadFailsHandsOverHistory(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	reads := 0
	evs, err := h.run(Turn{ThreadID: "a", Prompt: "hi", SessionID: "sess-gone", Handover: handover(&reads)})
	if err != nil {
		t.Fatal(err)
	}
	if got := firstPromptText(t, h); got != strings.TrimRight(handedHistory, "\n")+"\n\nhi" {
		t.Errorf("first prompt = %q", got)
	}
	n := acpOf[Notice](evs)
	if len(n) != 1 || !strings.Contains(n[0].Text, "could not resume the agent's own session sess-gone") ||
		!strings.Contains(n[0].Text, "Resource not found") || !strings.Contains(n[0].Text, "handed it this thread's history instead") ||
		!strings.Contains(n[0].Text, "the last 2 earlier messages; 2 older left out") || strings.Contains(n[0].Text, "{") {
		t.Errorf("notices = %v", n)
	}
	if reads != 1 {
		t.Errorf("history read %d times", reads)
	}
	// The next turn is on the new, live session: no history again.
	reads2 := 0
	if _, err := h.run(Turn{ThreadID: "a", Prompt: "again", SessionID: acpOf[SessionStarted](evs)[0].ID, Handover: handover(&reads2)}); err != nil {
		t.Fatal(err)
	}
	if got := firstPromptText(t, h); got != "again" || reads2 != 0 {
		t.Errorf("second prompt = %q (history read %d times)", got, reads2)
	}
}

// A session that loads gets the prompt alone; the history is not even read.
func TestACPResumeLoadsWithoutHistory(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	reads := 0
	if _, err := h.run(Turn{ThreadID: "a", Prompt: "hi", SessionID: "sess-old", Handover: handover(&reads)}); err != nil {
		t.Fatal(err)
	}
	if got := firstPromptText(t, h); got != "hi" || reads != 0 {
		t.Errorf("prompt = %q, history read %d times", got, reads)
	}
}

// An agent that cannot load sessions gets the history too.
func TestACPResumeCannotLoadHandsOverHistory(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_CAPS=none")
	reads := 0
	evs, err := h.run(Turn{ThreadID: "a", Prompt: "hi", SessionID: "sess-old", Handover: handover(&reads)})
	if err != nil {
		t.Fatal(err)
	}
	if got := firstPromptText(t, h); !strings.HasPrefix(got, "<thread_history") || !strings.HasSuffix(got, "\n\nhi") {
		t.Errorf("prompt = %q", got)
	}
	if n := acpOf[Notice](evs); len(n) != 1 || !strings.Contains(n[0].Text, "cannot resume its sessions") || !strings.Contains(n[0].Text, "history instead") {
		t.Errorf("notices = %v", n)
	}
}

// The notice quotes what the agent said, in words: Gemini's "Invalid
// session identifier" comes as the details of an internal error.
func TestACPResumeRefusalInWords(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&acp.RequestError{Code: -32603, Message: "Internal error", Data: map[string]any{"details": "Invalid session identifier \"x\""}}, `Internal error: Invalid session identifier "x"`},
		{&acp.RequestError{Code: -32002, Message: "Resource not found: session s"}, "Resource not found: session s"},
		{&acp.RequestError{Code: -32603, Data: "bad\nsession"}, "bad session"},
		{errors.New("broken pipe"), "broken pipe"},
	} {
		if got := acpRefusal(c.err); got != c.want {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
	}
	if got := acpHandoverNotice("x", nil); !strings.Contains(got, "nothing from before") {
		t.Errorf("no handover: %q", got)
	}
	if got := acpHandoverNotice("x", &Handover{History: func() (string, int, int) { return "", 0, 3 }}); !strings.Contains(got, "3 earlier messages did not fit") {
		t.Errorf("none fits: %q", got)
	}
}
