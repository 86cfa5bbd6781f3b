package store

import (
	"reflect"
	"testing"
)

// An agent's last advertised commands survive a reopen, per agent; a new
// list replaces the old; an empty list is known (and empty).
func TestAgentCommands(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	if _, ok, err := s.AgentCommands("codex-acp"); ok || err != nil {
		t.Fatalf("before any: %v %v", ok, err)
	}
	review := []AgentCommand{{Name: "review", Description: "Review my changes <now>", InputHint: "what"}, {Name: "init"}}
	if err := s.SetAgentCommands("codex-acp", review); err != nil {
		t.Fatal(err)
	}
	if err := s.SetAgentCommands("gemini --acp", []AgentCommand{{Name: "help"}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, dir)
	if got, ok, err := s.AgentCommands("codex-acp"); !ok || err != nil || !reflect.DeepEqual(got, review) {
		t.Fatalf("reopened: %+v %v %v", got, ok, err)
	}
	if err := s.SetAgentCommands("codex-acp", nil); err != nil {
		t.Fatal(err)
	}
	if got, ok, _ := s.AgentCommands("codex-acp"); !ok || len(got) != 0 {
		t.Fatalf("emptied: %+v %v", got, ok)
	}
	if got, _, _ := s.AgentCommands("gemini --acp"); len(got) != 1 || got[0].Name != "help" {
		t.Fatalf("the other agent's: %+v", got)
	}
}
