package chat

import (
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/message"
)

// Event is what chat reports to the UI. Wait hands them out in order;
// consecutive ItemChanged events for one item are merged into the last.
type Event interface{ isChatEvent() }

// UserStored: the user's message is on disk. Queued says it waits behind a
// running turn. Ref is the Submission's, so the UI can tell whether the
// draft it holds is still the one that was sent.
type UserStored struct {
	ThreadID string
	Message  Message
	Queued   bool
	Ref      uint64
}

// SendFailed: the message was not stored (over a limit, an attachment's
// bytes gone, the store failing); the draft is the user's still.
type SendFailed struct {
	ThreadID string
	Ref      uint64
	Err      error
}

// ReplyStarted: the reply to User exists (empty, streaming).
type ReplyStarted struct {
	ThreadID string
	User     Message
	Reply    Message
	Started  time.Time
}

// ItemChanged: item Index of a reply was added (Index is the reply's item
// count before) or changed. Item is the whole item as it is now.
type ItemChanged struct {
	ThreadID string
	ReplyID  string
	Index    int
	Item     message.Item
}

// ReplyFinished: the turn is over with Status (done, interrupted, error).
type ReplyFinished struct {
	ThreadID string
	ReplyID  string
	Status   message.Status
	Err      error
	Ended    time.Time // when the turn was over (the service's clock)
}

// PhaseChanged: the thread's turn phase moved.
type PhaseChanged struct {
	ThreadID string
	Phase    Phase
	Since    time.Time
}

// QueueChanged: the thread's queued messages, oldest first. Paused says
// the queue waits for the user (the last turn did not end done).
type QueueChanged struct {
	ThreadID string
	Queued   []Message
	Paused   bool
}

// Unqueued: the last queued message was taken back (alt+up); the UI puts
// it into the draft.
type Unqueued struct {
	ThreadID string
	Message  Message
}

// Notice is a line for the user (a toast).
type Notice struct {
	ThreadID string
	Text     string
	Err      bool
}

// PermissionAsked: the agent asks whether a tool call may run. Answer it
// with Service.AnswerPermission(ID, …).
type PermissionAsked struct {
	ThreadID string
	ReplyID  string
	ID       int64
	Request  message.Permission
	Tool     message.Tool
}

// SignInAsked: the agent needs the user to pick a sign-in method. Answer
// with Service.AnswerSignIn(ID, optionID).
type SignInAsked struct {
	ThreadID string
	ID       int64
	Question Question
}

// AskClosed: a question is no longer waiting (answered, or its turn
// ended); the UI drops its prompt.
type AskClosed struct{ ID int64 }

// AgentInfo: what the agent advertises for the thread (modes, config
// options, slash commands), as it is now.
type AgentInfo struct {
	ThreadID string
	Info     Info
}

// Info is the agent's advertised state for one thread.
type Info struct {
	Modes    Modes
	Options  []ConfigOption
	Commands []Command
	Usage    Usage
}

// fold applies a Modes, ConfigOptions, Commands or Usage event (a Modes event
// without Available changes only the current mode).
func (in *Info) fold(ev agent.Event) {
	switch e := ev.(type) {
	case agent.Commands:
		in.Commands = nil
		for _, c := range e.Commands {
			in.Commands = append(in.Commands, Command(c))
		}
	case agent.Modes:
		if e.Available != nil {
			in.Modes.Available = nil
			for _, m := range e.Available {
				in.Modes.Available = append(in.Modes.Available, Mode(m))
			}
		}
		if e.Current != "" {
			in.Modes.Current = e.Current
		}
	case agent.ConfigOptions:
		in.Options = nil
		for _, o := range e.Options {
			c := ConfigOption{ID: o.ID, Name: o.Name, Category: o.Category, Current: o.Current, Boolean: o.Boolean}
			for _, v := range o.Values {
				c.Values = append(c.Values, ConfigValue(v))
			}
			in.Options = append(in.Options, c)
		}
	case agent.Usage:
		in.Usage = in.Usage.merge(Usage(e))
	}
}

// Forked: a fork of a thread was made (ThreadID, titled Title); the UI
// opens it. Edit is the user message a rewind forked before
// (ForkBefore), for the composer of the fork; nil for a whole-thread fork.
type Forked struct {
	From     string
	ThreadID string
	Title    string
	Edit     *Message
}

// QuitReady: every turn has stopped and is on disk; the UI may exit.
type QuitReady struct{}

func (UserStored) isChatEvent()      {}
func (SendFailed) isChatEvent()      {}
func (ReplyStarted) isChatEvent()    {}
func (ItemChanged) isChatEvent()     {}
func (ReplyFinished) isChatEvent()   {}
func (PhaseChanged) isChatEvent()    {}
func (QueueChanged) isChatEvent()    {}
func (Unqueued) isChatEvent()        {}
func (Notice) isChatEvent()          {}
func (PermissionAsked) isChatEvent() {}
func (SignInAsked) isChatEvent()     {}
func (AskClosed) isChatEvent()       {}
func (AgentInfo) isChatEvent()       {}
func (Forked) isChatEvent()          {}
func (QuitReady) isChatEvent()       {}
