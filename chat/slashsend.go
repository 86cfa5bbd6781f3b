package chat

import (
	"fmt"
	"strings"
)

// Slash is what the send path makes of a draft that starts with a
// `/word` chipchat serves: its command (Name, Args), or why it cannot
// serve it with this backend (Cannot), or that no command has that name
// (Unknown: a typo costs no turn — refused once, the same text sent again
// goes to the agent as typed).
type Slash struct {
	Name, Args string
	Cannot     string
	Unknown    string
}

// SlashFor reads text submitted in threadID: ok false when it goes to
// the agent (its command, plain text, or a draft with chips); refused is
// the text last refused as Unknown, which is sent this time.
func (s *Service) SlashFor(threadID, text string, withChips bool, refused string) (Slash, bool) {
	name, args, ok := SplitCommand(text)
	if !ok || withChips {
		return Slash{}, false
	}
	info := s.InfoKnown(threadID)
	cmd, ours := LookupSlash(name) // "/chipchat:<name>" is always chipchat's
	if !ours && !info.AgentServes(name) && s.commandsKnown(info) {
		if refused == text {
			return Slash{}, false
		}
		return Slash{Unknown: name}, true
	}
	if !ours || !strings.HasPrefix(name, OwnPrefix) && info.AgentServes(name) {
		return Slash{}, false // the agent's command keeps its name
	}
	if cmd.Needs != nil && !cmd.Needs(s.Capabilities()) {
		return Slash{Name: cmd.Name, Cannot: s.cannotServe(cmd)}, true
	}
	return Slash{Name: cmd.Name, Args: args}, true
}

// InfoKnown is threadID's agent info; before the agent has told its
// commands in this thread, the ones it advertised last (kept in the
// store).
func (s *Service) InfoKnown(threadID string) Info {
	i := s.Info(threadID)
	if len(i.Commands) == 0 {
		i.Commands, _ = s.KnownCommands()
	}
	return i
}

// commandsKnown reports whether the agent's command list is known: from
// the start for a backend whose agent has none (echo, exec, openai), once
// the agent told it (this run or the last, kept in the store) for an ACP
// agent; before that an unknown /word is sent as typed.
func (s *Service) commandsKnown(info Info) bool {
	return !s.Capabilities().Commands || len(info.Commands) > 0
}

// cannotServe says why chipchat cannot run cmd with this backend (the
// agent's name as it gives it: the UI strips it for the screen).
func (s *Service) cannotServe(cmd SlashCommand) string {
	if cmd.Name == "review" {
		return "/review: the review pane is not available in this build"
	}
	return fmt.Sprintf("/%s: %s cannot serve it (works with %s)", cmd.Name, s.AgentName(), cmd.Backends)
}
