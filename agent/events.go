package agent

import (
	"context"
	"encoding/json"

	"github.com/chipchat/chipchat/message"
)

// Event is one thing a backend reports while it answers a turn (DESIGN.md
// section 9). Package chat folds events into the reply's items; nothing a
// backend sends is flattened into Markdown on the way.
type Event interface{ isEvent() }

// TextDelta is more of the agent's answer (Markdown).
type TextDelta struct{ Text string }

// ThoughtDelta is more of the agent's reasoning.
type ThoughtDelta struct{ Text string }

// ToolCall starts a tool call. Tool.CallID identifies it in later
// ToolUpdates.
type ToolCall struct{ Tool message.Tool }

// ToolUpdate changes a tool call: each non-nil field replaces the one
// before (Content, when non-nil, replaces the whole content list, as ACP's
// tool_call_update does).
type ToolUpdate struct {
	CallID    string
	Kind      *string
	Title     *string
	Status    *string
	Locations []message.Location
	RawInput  json.RawMessage
	RawOutput json.RawMessage
	Content   []message.ToolContent
}

// Plan replaces the agent's plan.
type Plan struct{ Entries []message.PlanEntry }

// PermissionAnswer is the user's answer to a Permission: an option id with
// Outcome "selected" or "rejected" (esc picked the agent's reject option),
// or Outcome "cancelled" (the turn was cancelled; OptionID is empty).
type PermissionAnswer struct {
	OptionID string
	Outcome  string
}

// Permission asks the user whether a tool call may run. The backend waits
// for one value on Reply (buffered, capacity 1) or for its turn's context to
// end. Tool is the call as known when asked (title, kind, content: the diff
// or the command to approve).
type Permission struct {
	Request message.Permission
	Tool    message.Tool
	Reply   chan<- PermissionAnswer
}

// SignIn asks the user to pick an authentication method. Reply gets the
// chosen method's id, or "" when the user dismissed the question.
type SignIn struct {
	Question Question
	Reply    chan<- Answer
}

// SessionStarted reports the agent session a turn ran in, for backends with
// Capabilities.Sessions: chat stores it and hands it back in Turn.SessionID
// after a restart.
type SessionStarted struct{ ID string }

// Command is a slash command the agent offers.
type Command struct {
	Name        string
	Description string
	InputHint   string
}

// Commands replaces the list of the agent's slash commands.
type Commands struct{ Commands []Command }

// Mode is one session mode the agent offers (plan, acceptEdits, …).
type Mode struct {
	ID          string
	Name        string
	Description string
}

// Modes reports the session's modes and the current one. A Modes event with
// only Current set (Available nil) changes the current mode.
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
}

// ConfigOptions replaces the list of the session's config options.
type ConfigOptions struct{ Options []ConfigOption }

// Usage reports tokens spent. ContextUsed and ContextSize, when non-zero,
// are how much of the model's context window the session fills (ACP's
// usage_update).
type Usage struct {
	InputTokens  int64
	OutputTokens int64
	ContextUsed  int64
	ContextSize  int64
}

// Notice is a line for the user that is not part of the answer (a stop
// reason, a skipped attachment…).
type Notice struct{ Text string }

func (TextDelta) isEvent()      {}
func (ThoughtDelta) isEvent()   {}
func (ToolCall) isEvent()       {}
func (ToolUpdate) isEvent()     {}
func (Plan) isEvent()           {}
func (Permission) isEvent()     {}
func (SignIn) isEvent()         {}
func (SessionStarted) isEvent() {}
func (Commands) isEvent()       {}
func (Modes) isEvent()          {}
func (ConfigOptions) isEvent()  {}
func (Usage) isEvent()          {}
func (Notice) isEvent()         {}

// Capabilities is what a backend can do; chat and ui consult it instead of
// asserting types.
type Capabilities struct {
	// History: the backend keeps no conversation of its own and wants the
	// thread's earlier messages in Turn.History.
	History bool
	// Sessions: the backend keeps a session per thread, reported with
	// SessionStarted and resumed from Turn.SessionID.
	Sessions bool
	// Cancel: cancelling the turn's context stops the agent promptly.
	Cancel bool
	// Images and Files: attachments reach the agent as bytes.
	Images, Files bool
	// Compact: the backend answers a Turn with Compact set by summarizing.
	Compact bool
	// Modes: the backend implements Configurer.
	Modes bool
	// Commands: the agent advertises slash commands (Commands events).
	Commands bool
	// InlinePayload: chipchat itself puts the payload in the model's
	// input (openai, exec, echo): text files as <attached_file> fragments
	// bounded by Turn.Limits (warn with InlineCuts), @ mentions as their
	// snapshots (Resolver.Mention), threads as Turn.Threads. Backends
	// without it have their own file tools and attachment channel.
	InlinePayload bool
	// PlainText: replies are plain text (a command's output), not Markdown.
	PlainText bool
	// MaxAttachment: the largest image or file the agent takes, in bytes;
	// a message with a bigger one is refused before it is stored
	// (Capabilities.CheckAttachments). 0: no limit of the backend's.
	MaxAttachment int64
	// Process: the backend holds a process or connection until agent.Close.
	Process bool
}

// Error is a backend failure with the end of the agent's stderr, when it
// has one.
type Error struct {
	Err        error
	StderrTail string
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Configurer is what a backend with Capabilities.Modes implements: it
// switches the thread's session mode or a config option (the model
// included).
type Configurer interface {
	SetMode(ctx context.Context, threadID, modeID string) error
	SetConfigOption(ctx context.Context, threadID, optionID, value string) error
}
