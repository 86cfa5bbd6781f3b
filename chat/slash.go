package chat

// Slash commands the agent and chipchat both have: which one a `/name`
// typed at the draft's start goes to. chipchat's own table (its names,
// descriptions and what they do) is the ui's; the rule of who serves a
// name is here.

// CommandRoute says how chipchat routes its command of a name.
type CommandRoute int

const (
	// NotChipchats: chipchat has no command of that name; it is the
	// agent's when the agent has one, else plain text.
	NotChipchats CommandRoute = iota
	// ChipchatOnly: chipchat's, whatever the agent offers under that name.
	ChipchatOnly
	// AgentFirst: the agent's command of that name when it advertised one
	// (the text is sent as the prompt), else chipchat's.
	AgentFirst
)

// Command is the agent's command called name.
func (info Info) Command(name string) (Command, bool) {
	for _, c := range info.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// AgentServes reports whether `/name` goes to the agent, given how
// chipchat routes its own command of that name: an agent's command shadows
// chipchat's unless chipchat's is ChipchatOnly.
func (info Info) AgentServes(name string, route CommandRoute) bool {
	if route == ChipchatOnly || name == "" {
		return false
	}
	_, ok := info.Command(name)
	return ok
}
