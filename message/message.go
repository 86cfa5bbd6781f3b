package message

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
)

// Role says who wrote a message.
type Role string

// Message roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r == RoleUser || r == RoleAssistant }

// Status is the state of a message. A user message is done or queued; a
// reply is streaming, done, interrupted or error.
type Status string

// Message statuses.
const (
	StatusDone        Status = "done"
	StatusStreaming   Status = "streaming"
	StatusInterrupted Status = "interrupted"
	StatusError       Status = "error"
	// StatusQueued is a user message typed while a turn ran: stored, not
	// yet sent to the agent.
	StatusQueued Status = "queued"
)

// Valid reports whether s is a known status.
func (s Status) Valid() bool {
	switch s {
	case StatusDone, StatusStreaming, StatusInterrupted, StatusError, StatusQueued:
		return true
	}
	return false
}

// Final reports whether a reply in status s is over.
func (s Status) Final() bool { return s == StatusDone || s == StatusInterrupted || s == StatusError }

// ItemKind is the kind of one reply item.
type ItemKind string

// Reply item kinds.
const (
	ItemText       ItemKind = "text"       // Markdown the agent wrote
	ItemThought    ItemKind = "thought"    // the agent's reasoning
	ItemTool       ItemKind = "tool"       // a tool call, updated in place
	ItemPlan       ItemKind = "plan"       // the plan, at most one per reply, updated in place
	ItemPermission ItemKind = "permission" // a permission question and its answer
	ItemNotice     ItemKind = "notice"     // a line from chipchat or the agent (errors included)
)

// Kinds lists every item kind, in the order help and tests walk them.
var Kinds = []ItemKind{ItemText, ItemThought, ItemTool, ItemPlan, ItemPermission, ItemNotice}

// Valid reports whether k is a known item kind.
func (k ItemKind) Valid() bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Grows reports whether items of kind k grow by appended text while a turn
// runs (the store appends their new text instead of rewriting them).
func (k ItemKind) Grows() bool { return k == ItemText || k == ItemThought }

// Item is one piece of a reply. Text is the body of text, thought and
// notice items; Tool, Plan and Permission hold the other kinds. An item of
// an unknown kind (written by a newer chipchat) keeps its fields as stored.
type Item struct {
	ID   string   `json:"-"`
	Kind ItemKind `json:"-"`
	Text string   `json:"-"`

	Tool       *Tool       `json:"tool,omitempty"`
	Plan       []PlanEntry `json:"plan,omitempty"`
	Permission *Permission `json:"permission,omitempty"`
	// Level is a notice's tone: "" (info) or "error".
	Level string `json:"level,omitempty"`
	// StderrTail is the end of the agent's stderr, for an error notice.
	StderrTail string `json:"stderrTail,omitempty"`
}

// Data is the item's fields other than its id, kind and text, as stored.
func (it Item) Data() ([]byte, error) {
	if it.Tool == nil && it.Plan == nil && it.Permission == nil && it.Level == "" && it.StderrTail == "" {
		return nil, nil
	}
	return MarshalJSON(it)
}

// MarshalJSON is json.Marshal with <, > and & left literal (json.Marshal
// writes them as \u003c, \u003e, \u0026): the JSON chipchat writes for a
// model or a user reads as the text it holds. Raw messages inside v are
// compacted and keep their own escapes unescaped too.
func MarshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// SetData fills the fields Data wrote. Empty data clears nothing.
func (it *Item) SetData(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	return json.Unmarshal(data, it)
}

// Tool call statuses (ACP's names).
const (
	ToolPending    = "pending"
	ToolInProgress = "in_progress"
	ToolCompleted  = "completed"
	ToolFailed     = "failed"
	// ToolCancelled is chipchat's: the user cancelled the call (stopped
	// the turn, or rejected its permission) before it finished.
	ToolCancelled = "cancelled"
)

// ToolFinal reports whether a call in status s is over.
func ToolFinal(s string) bool { return s == ToolCompleted || s == ToolFailed || s == ToolCancelled }

// Reasons a call chipchat settled itself failed (Tool.Reason).
const (
	ReasonTurnEnded = "not finished when the turn ended"
	ReasonAgentDied = "the agent died"
)

// Tool is a tool call: what the agent ran and what came of it.
type Tool struct {
	CallID    string          `json:"callId"`
	Kind      string          `json:"kind,omitempty"` // read, edit, delete, move, search, execute, think, fetch, other
	Title     string          `json:"title,omitempty"`
	Status    string          `json:"status,omitempty"`
	Locations []Location      `json:"locations,omitempty"`
	RawInput  json.RawMessage `json:"rawInput,omitempty"`
	RawOutput json.RawMessage `json:"rawOutput,omitempty"`
	Content   []ToolContent   `json:"content,omitempty"`
	Started   time.Time       `json:"started,omitzero"`
	Ended     time.Time       `json:"ended,omitzero"`
	// Reason says why chipchat settled a call the agent left unfinished
	// (status failed or cancelled): ReasonTurnEnded, ReasonAgentDied…
	Reason string `json:"reason,omitempty"`
}

// Settle ends a call the agent left pending or running: status
// ToolCancelled when the user cancelled it, else ToolFailed with reason;
// at is its end. It reports whether the call was unfinished.
func (t *Tool) Settle(cancelled bool, reason string, at time.Time) bool {
	if ToolFinal(t.Status) {
		return false
	}
	t.Status, t.Reason = ToolFailed, reason
	if cancelled {
		t.Status, t.Reason = ToolCancelled, ""
	}
	if t.Ended.IsZero() {
		t.Ended = at
	}
	return true
}

// Location is a file (and line) a tool call touches.
type Location struct {
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
}

// Tool content types.
const (
	ContentText     = "text"
	ContentDiff     = "diff"
	ContentTerminal = "terminal"
)

// ToolContent is one piece of a tool call's content: text, a diff of one
// file (OldText nil: a new file), or an agent terminal's id.
type ToolContent struct {
	Type       string  `json:"type"`
	Text       string  `json:"text,omitempty"`
	Path       string  `json:"path,omitempty"`
	OldText    *string `json:"oldText,omitempty"`
	NewText    string  `json:"newText,omitempty"`
	TerminalID string  `json:"terminalId,omitempty"`
}

// PlanEntry is one line of the agent's plan.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority,omitempty"` // high, medium, low
	Status   string `json:"status,omitempty"`   // pending, in_progress, completed
}

// Permission option kinds (ACP's names).
const (
	AllowOnce    = "allow_once"
	AllowAlways  = "allow_always"
	RejectOnce   = "reject_once"
	RejectAlways = "reject_always"
)

// Permission is a question the agent asked before a tool call, and the
// user's answer.
type Permission struct {
	ToolCallID string             `json:"toolCallId,omitempty"`
	Asked      string             `json:"asked"`
	Options    []PermissionOption `json:"options,omitempty"`
	// Chosen is the option picked; empty with Outcome "cancelled".
	Chosen string `json:"chosen,omitempty"`
	// Outcome: "" (waiting), "selected", "rejected" (esc), "cancelled".
	Outcome string `json:"outcome,omitempty"`
}

// PermissionOption is one answer the agent offers.
type PermissionOption struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind,omitempty"`
}

// ChosenName is the name of the chosen option, or the outcome.
func (p Permission) ChosenName() string {
	for _, o := range p.Options {
		if o.ID == p.Chosen {
			return o.Name
		}
	}
	return p.Outcome
}

// ReplyText is the Markdown source of a reply's text items joined by a
// blank line: what a reply "says", for history, quotes and copies.
func ReplyText(items []Item) string {
	n, parts := 0, 0
	for _, it := range items {
		if it.Kind == ItemText && it.Text != "" {
			n += len(it.Text) + 2
			parts++
		}
	}
	if parts == 1 {
		for _, it := range items {
			if it.Kind == ItemText && it.Text != "" {
				return it.Text
			}
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, it := range items {
		if it.Kind != ItemText || it.Text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(it.Text)
	}
	return b.String()
}
