package chat

import (
	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// The types chat's events and methods hand the UI: what it draws and
// answers, in chat's words, so the UI needs neither agent nor store for
// them. chat converts from the backend's and the store's types.

// Message is a stored message as the UI shows it (the transcript's line,
// a queued message, the one taken back into the draft).
type Message struct {
	ID     string
	Role   message.Role
	Text   string
	Status message.Status
	// Context is the structured context, decoded (nil: none, or left
	// undecoded); RawContext is its JSON as stored (nil: none).
	Context    *contextref.MessageContext
	RawContext []byte
}

// Records are the message's chips (nil: none, or the context undecoded).
func (m Message) Records() []contextref.Record {
	if m.Context == nil {
		return nil
	}
	return m.Context.Records
}

func viewMessage(m store.Message) Message {
	return Message{ID: m.ID, Role: m.Role, Text: m.Text, Status: m.Status, Context: m.Context, RawContext: m.RawContext}
}

func viewMessages(ms []store.Message) []Message {
	if len(ms) == 0 {
		return nil
	}
	out := make([]Message, len(ms))
	for i, m := range ms {
		out[i] = viewMessage(m)
	}
	return out
}

// Question is a sign-in the agent needs the user to decide.
type Question struct {
	Title   string // one line: "Sign in to <agent>"
	Detail  string // optional further lines (method descriptions)
	Options []QuestionOption
}

// AuthTerminal is the Kind of a sign-in option whose login runs in a
// terminal (QuestionOption.Terminal); the UI answers it once that exited.
const AuthTerminal = agent.AuthTerminal

// QuestionOption is one answer to a Question.
type QuestionOption struct {
	ID          string // what AnswerSignIn takes to pick this option
	Label       string
	Kind        string // AuthTerminal, or another sign-in method kind
	Description string
	// Terminal is the command a terminal method runs (Kind AuthTerminal).
	Terminal *TerminalCommand
}

// TerminalCommand is a command to run in a terminal.
type TerminalCommand struct {
	Command string
	Args    []string
	Env     []string // added to the environment ("KEY=value")
	Dir     string
}

func viewQuestion(q agent.Question) Question {
	out := Question{Title: q.Title, Detail: q.Detail}
	for _, o := range q.Options {
		vo := QuestionOption{ID: o.ID, Label: o.Label, Kind: o.Kind, Description: o.Description}
		if tc := o.Terminal; tc != nil {
			vo.Terminal = &TerminalCommand{Command: tc.Command, Args: append([]string(nil), tc.Args...),
				Env: append([]string(nil), tc.Env...), Dir: tc.Dir}
		}
		out.Options = append(out.Options, vo)
	}
	return out
}

// PermissionAnswer is the user's answer to a PermissionAsked: an option id
// with Outcome "selected" or "rejected" (esc picked the agent's reject
// option), or Outcome "cancelled" (OptionID empty).
type PermissionAnswer struct {
	OptionID string
	Outcome  string
}

// Command is a slash command the agent offers.
type Command struct {
	Name        string
	Description string
	InputHint   string
}

// CompactCommand is what the user sends to compact a thread.
const CompactCommand = agent.CompactCommand

// Mode is one session mode the agent offers (plan, acceptEdits, …).
type Mode struct {
	ID          string
	Name        string
	Description string
}

// Modes are the session's modes and the current one.
type Modes struct {
	Current   string
	Available []Mode
}

// ConfigValue is one value a config option can take.
type ConfigValue struct {
	ID          string
	Name        string
	Description string
}

// ConfigOption is a session setting the agent offers (the model, a
// reasoning level…). Category "model" marks the model.
type ConfigOption struct {
	ID       string
	Name     string
	Category string
	Current  string
	Values   []ConfigValue
	// Boolean: the option is on or off (Current "true" or "false"; the
	// Values are those two), toggled rather than picked.
	Boolean bool
}

// ModelOption is the id of the config option that stands for the agent's
// model when it offers models only through session/set_model.
const ModelOption = agent.ACPModelOption

// Usage is the tokens spent; ContextUsed and ContextSize, when non-zero,
// are how much of the model's context window the session fills.
type Usage struct {
	InputTokens  int64
	OutputTokens int64
	ContextUsed  int64
	ContextSize  int64
	Cost         float64 // the session's so far, in Currency (when set)
	Currency     string
}

// DefaultReplyBytes is the most of one item's text shown in full, and of a
// tool call's content kept ([limits] reply_bytes' default).
const DefaultReplyBytes = agent.DefaultReplyBytes
