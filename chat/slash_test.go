package chat

import "testing"

// Every command the agent advertises keeps its name, chipchat's own of
// that name included; a name the agent lacks is never the agent's.
func TestAgentServes(t *testing.T) {
	info := Info{Commands: []Command{{Name: "compact"}, {Name: "review"}, {Name: "init"}}}
	for name, want := range map[string]bool{"compact": true, "review": true, "init": true, "mode": false, "path/x": false, "": false} {
		if got := info.AgentServes(name); got != want {
			t.Errorf("AgentServes(%q) = %v", name, got)
		}
	}
	if c, ok := info.Command("init"); !ok || c.Name != "init" {
		t.Fatalf("Command(init) = %+v, %v", c, ok)
	}
	if c, ok := LookupSlash("chipchat:review"); !ok || c.Name != "review" {
		t.Fatalf("LookupSlash(chipchat:review) = %+v, %v", c, ok)
	}
}
