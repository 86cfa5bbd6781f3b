package agent

import (
	"context"
	"testing"
)

// The openai backend asks for the usage of its streamed request and
// reports it: the tokens, and the context the request filled.
func TestOpenAIReportsUsage(t *testing.T) {
	f := newOpenAIFixture(t)
	s := newChatServer(t, "Hi")
	o := f.backend(s)
	var evs []Event
	if err := o.Run(context.Background(), f.turn, func(e Event) { evs = append(evs, e) }); err != nil {
		t.Fatal(err)
	}
	so, _ := s.request(0)["stream_options"].(map[string]any)
	if so["include_usage"] != true {
		t.Errorf("stream_options = %v, want include_usage", s.request(0)["stream_options"])
	}
	us := acpOf[Usage](evs)
	if want := (Usage{InputTokens: 1200, OutputTokens: 34, ContextUsed: 1234}); len(us) != 1 || us[0] != want {
		t.Errorf("usage = %+v, want %+v", us, want)
	}
	if acpText(evs) != "Hi" {
		t.Errorf("text %q", acpText(evs))
	}
}

// A server that sends no usage gets no Usage event, and the reply is whole.
func TestOpenAIWithoutUsage(t *testing.T) {
	f := newOpenAIFixture(t)
	s := newChatServer(t, "Hi")
	s.noUsage = true
	o := f.backend(s)
	var evs []Event
	if err := o.Run(context.Background(), f.turn, func(e Event) { evs = append(evs, e) }); err != nil {
		t.Fatal(err)
	}
	if us := acpOf[Usage](evs); len(us) != 0 || acpText(evs) != "Hi" {
		t.Errorf("usage %+v, text %q", us, acpText(evs))
	}
}
