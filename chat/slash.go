package chat

import (
	"fmt"
	"strings"

	"github.com/chipchat/chipchat/agent"
)

// Slash commands the agent and chipchat both have: which one a `/name`
// typed at the draft's start goes to, and chipchat's table of its own
// (what each does is the app's).

// Command is the agent's command called name.
func (info Info) Command(name string) (Command, bool) {
	for _, c := range info.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// AgentServes reports whether `/name` goes to the agent: every command
// the agent advertises keeps its name (issue 22 item 5); chipchat's own
// of that name is then `/chipchat:<name>` (OwnPrefix).
func (info Info) AgentServes(name string) bool {
	if name == "" {
		return false
	}
	_, ok := info.Command(name)
	return ok
}

// SlashCommand is one of chipchat's slash commands: the table the `/`
// picker, the send path, F1 and the README read (what each does is the
// app's).
type SlashCommand struct {
	Name        string
	Args        string // what may follow, as an input hint ("" none)
	Description string
	// Backends says which backends chipchat's own version works with
	// (F1 and the README).
	Backends string
	// Needs says whether the backend lets chipchat serve it (nil: always).
	Needs func(agent.Capabilities) bool
}

// SlashCommands is chipchat's slash-command table, in the order the
// picker, F1 and the README list it.
func SlashCommands() []SlashCommand {
	modes := func(c agent.Capabilities) bool { return c.Modes }
	return []SlashCommand{
		{Name: "new", Description: "start a new thread", Backends: "all"},
		{Name: "fork", Description: "fork the thread at a message you choose in the transcript", Backends: "all"},
		{Name: "stash", Description: "list the stash: restore or delete a stashed draft", Backends: "all"},
		{Name: "review", Args: "[--staged | <ref>]", Description: "review a diff and comment on its lines", Backends: "all"},
		{Name: "export", Args: "[path]", Description: "write the thread as Markdown (the prompt's ctrl+y copies it instead)", Backends: "all"},
		{Name: "compact", Description: "summarize the thread; later turns get the summary instead",
			Backends: "the agent's /compact (acp:), else chipchat's (openai:)",
			Needs:    func(c agent.Capabilities) bool { return c.Compact }},
		{Name: "mode", Args: "[mode]", Description: "switch the agent's session mode (alt+m)",
			Backends: "acp: agents that offer modes", Needs: modes},
		{Name: "model", Args: "[model]", Description: "switch the model (alt+m)",
			Backends: "acp: agents that offer models", Needs: modes},
		{Name: "logout", Description: "sign out of the agent", Backends: "acp: agents that offer ACP's logout",
			Needs: func(c agent.Capabilities) bool { return c.Logout }},
		{Name: "help", Description: "show the keys and these commands (F1)", Backends: "all"},
		{Name: "quit", Description: "quit (a running turn is recorded interrupted)", Backends: "all"},
	}
}

// LookupSlash is chipchat's command called name ("chipchat:<name>" too).
func LookupSlash(name string) (SlashCommand, bool) {
	name = strings.TrimPrefix(name, OwnPrefix)
	for _, c := range SlashCommands() {
		if c.Name == name {
			return c, true
		}
	}
	return SlashCommand{}, false
}

// SplitCommand reads "/name args" (false when text is not a slash
// command: a message may start with a path).
func SplitCommand(text string) (name, args string, ok bool) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "/") || len(text) < 2 {
		return "", "", false
	}
	name, args, _ = strings.Cut(text[1:], " ")
	if name == "" || strings.ContainsAny(name, "/\n\t") {
		return "", "", false
	}
	return name, strings.TrimSpace(args), true
}

// Usage is "/name args" and who serves it (short for F1, long for the
// README).
func (c SlashCommand) Usage(long bool) (name, who string) {
	name = "/" + c.Name
	if c.Args != "" {
		name += " " + c.Args
	}
	who = "chipchat; /" + OwnPrefix + c.Name + " when the agent has one"
	if long {
		who = "chipchat; `/" + OwnPrefix + c.Name + "` when the agent has a `/" + c.Name + "`"
	}
	return name, who
}

// SlashHelp is the command table as F1 lists it.
func SlashHelp() []string {
	lines := []string{"Slash commands (type / at the start of the draft; the agent's own are listed there too):"}
	for _, c := range SlashCommands() {
		name, who := c.Usage(false)
		lines = append(lines, fmt.Sprintf("  %-26s %s (%s; %s)", name, c.Description, who, c.Backends))
	}
	return lines
}

// SlashMarkdown is the README's list of the table (README.md, between the
// commands markers; ui's TestREADMEListsCommands keeps them equal).
func SlashMarkdown() string {
	var b strings.Builder
	b.WriteString("| command | what it does | who serves it | backends |\n| --- | --- | --- | --- |\n")
	cell := strings.NewReplacer("|", `\|`)
	for _, c := range SlashCommands() {
		name, who := c.Usage(true)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", cell.Replace(name), cell.Replace(c.Description), who, cell.Replace(c.Backends))
	}
	return b.String()
}
