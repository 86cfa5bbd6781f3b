package message

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
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

// KindHint is what an option's kind adds to its label on screen: its
// kind in words ("allow once", "reject always — remembered"), only the
// part the label does not already say (Name "Allow once" of kind
// allow_once needs none, "Always allow" of kind allow_always only
// "remembered"); "" for an unknown kind.
func (o PermissionOption) KindHint() string {
	var words []string
	remembered := false
	switch o.Kind {
	case AllowOnce:
		words = []string{"allow", "once"}
	case AllowAlways:
		words, remembered = []string{"allow", "always"}, true
	case RejectOnce:
		words = []string{"reject", "once"}
	case RejectAlways:
		words, remembered = []string{"reject", "always"}, true
	default:
		return ""
	}
	said := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(o.Name), func(r rune) bool { return !unicode.IsLetter(r) }) {
		said[w] = true
	}
	all := true
	for _, w := range words {
		all = all && said[w]
	}
	hint := ""
	if !all {
		hint = strings.Join(words, " ")
	}
	if remembered && !said["remembered"] {
		if hint != "" {
			hint += " — "
		}
		hint += "remembered"
	}
	return hint
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
		if it.Kind == ItemText && it.TextLen() > 0 {
			n += it.TextLen() + 2
			parts++
		}
	}
	if parts == 1 {
		for _, it := range items {
			if it.Kind == ItemText && it.TextLen() > 0 {
				return it.Body().String()
			}
		}
	}
	var b strings.Builder
	b.Grow(n)
	for _, it := range items {
		if it.Kind != ItemText || it.TextLen() == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		for p := range it.Body().Pieces(0) {
			b.WriteString(p)
		}
	}
	return b.String()
}
