package chat

import "testing"

// The agent's command of a name shadows chipchat's unless chipchat's is
// ChipchatOnly; a name the agent lacks is never the agent's.
func TestAgentServes(t *testing.T) {
	info := Info{Commands: []Command{{Name: "compact"}, {Name: "new"}, {Name: "init"}}}
	for _, tc := range []struct {
		name  string
		route CommandRoute
		want  bool
	}{
		{"compact", AgentFirst, true},
		{"new", ChipchatOnly, false},
		{"init", NotChipchats, true},
		{"mode", AgentFirst, false},
		{"path/x", NotChipchats, false},
		{"", NotChipchats, false},
	} {
		if got := info.AgentServes(tc.name, tc.route); got != tc.want {
			t.Errorf("AgentServes(%q, %v) = %v", tc.name, tc.route, got)
		}
	}
	if c, ok := info.Command("init"); !ok || c.Name != "init" {
		t.Fatalf("Command(init) = %+v, %v", c, ok)
	}
}
