package chat

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
)

// The send path's reading of a `/word`: chipchat's command with its
// arguments; a typo refused once, then sent as typed; one the backend
// cannot serve says why; text, chips, and before an ACP agent has told its
// commands, an unknown word go to the agent.
func TestSlashFor(t *testing.T) {
	e := newEnv(t, agent.Capabilities{})
	id := e.thread.ID
	if r, ok := e.s.SlashFor(id, "/mode plan", false, ""); !ok || r.Name != "mode" || !strings.Contains(r.Cannot, "fake cannot serve it") {
		t.Fatalf("/mode plan without modes: %+v %v, want chipchat's, cannot serve", r, ok)
	}
	m := newEnv(t, agent.Capabilities{Modes: true})
	if r, ok := m.s.SlashFor(m.thread.ID, "/chipchat:mode  plan ", false, ""); !ok || r.Name != "mode" || r.Args != "plan" || r.Cannot != "" {
		t.Fatalf("/chipchat:mode plan with modes: %+v %v", r, ok)
	}
	if r, ok := e.s.SlashFor(id, "/help", false, ""); !ok || r.Name != "help" || r.Cannot != "" {
		t.Fatalf("/help: %+v %v", r, ok)
	}
	r, ok := e.s.SlashFor(id, "/hlep", false, "")
	if !ok || r.Unknown != "hlep" {
		t.Fatalf("a typo: %+v %v, want refused", r, ok)
	}
	if _, ok := e.s.SlashFor(id, "/hlep", false, "/hlep"); ok {
		t.Fatal("the typo entered again is not sent")
	}
	for _, text := range []string{"hello", "/usr/bin is a path"} {
		if _, ok := e.s.SlashFor(id, text, false, ""); ok {
			t.Fatalf("%q is chipchat's", text)
		}
	}
	if _, ok := e.s.SlashFor(id, "/help", true, ""); ok {
		t.Fatal("a draft with chips is chipchat's")
	}
	acp := newEnv(t, agent.Capabilities{Commands: true})
	if _, ok := acp.s.SlashFor(acp.thread.ID, "/init", false, ""); ok {
		t.Fatal("before the agent told its commands, /init was refused")
	}
}
