package message

import (
	"encoding/json"
	"strings"
	"time"
)

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
	// Permission is the question the agent asked before the call ran and
	// the user's answer: drawn inside the call's item, above its output.
	Permission *Permission `json:"permission,omitempty"`
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
// file (OldText nil: a new file), or an agent terminal's id (with what
// chipchat last saw of it, for drawing).
type ToolContent struct {
	Type    string  `json:"type"`
	Text    string  `json:"text,omitempty"`
	Path    string  `json:"path,omitempty"`
	OldText *string `json:"oldText,omitempty"`
	NewText string  `json:"newText,omitempty"`
	// Line is the line of the file a diff's texts start at, when they are
	// a snippet of it (0: they start at line 1 or the whole file;
	// LineUnknown: a snippet whose place in its file is not known, drawn
	// without line numbers).
	Line       int            `json:"line,omitempty"`
	TerminalID string         `json:"terminalId,omitempty"`
	Terminal   *TerminalState `json:"terminal,omitempty"`
}

// LineUnknown is ToolContent.Line of a snippet not found in its file.
const LineUnknown = -1

// TerminalState is an agent terminal as chipchat last saw it: the command
// line, where it runs, the end of its output and how it ended.
type TerminalState struct {
	Command string `json:"command"`
	Cwd     string `json:"cwd,omitempty"`
	// Output is the end of what it printed; Truncated: earlier output is
	// not kept here (the terminal pane has more).
	Output    string `json:"output,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	// Exited: the command ended, with ExitCode or killed by Signal.
	Exited   bool   `json:"exited,omitempty"`
	ExitCode *int   `json:"exitCode,omitempty"`
	Signal   string `json:"signal,omitempty"`
}

// ToolUpdate changes a tool call: each non-nil field replaces the one
// before (Content, when non-nil, replaces the whole content list, as ACP's
// tool_call_update does). It is the one fold of a tool call: the agent
// applies it to the calls it tracks and coalesces queued updates with
// Then, chat applies it to the reply's item.
type ToolUpdate struct {
	CallID    string
	Kind      *string
	Title     *string
	Status    *string
	Locations []Location
	RawInput  json.RawMessage
	RawOutput json.RawMessage
	Content   []ToolContent
}

// Apply folds u into t. The lists t gets are copies (an empty one is nil):
// t shares no backing array with u.
func (u ToolUpdate) Apply(t *Tool) {
	if u.Kind != nil {
		t.Kind = *u.Kind
	}
	if u.Title != nil {
		t.Title = *u.Title
	}
	if u.Status != nil {
		t.Status = *u.Status
	}
	if u.Locations != nil {
		t.Locations = append([]Location(nil), u.Locations...)
	}
	if u.RawInput != nil {
		t.RawInput = u.RawInput
	}
	if u.RawOutput != nil {
		t.RawOutput = u.RawOutput
	}
	if u.Content != nil {
		t.Content = append([]ToolContent(nil), u.Content...)
	}
}

// Then is u followed by v, as one update: each field v sets replaces u's.
func (u ToolUpdate) Then(v ToolUpdate) ToolUpdate {
	if v.Kind != nil {
		u.Kind = v.Kind
	}
	if v.Title != nil {
		u.Title = v.Title
	}
	if v.Status != nil {
		u.Status = v.Status
	}
	if v.Locations != nil {
		u.Locations = v.Locations
	}
	if v.RawInput != nil {
		u.RawInput = v.RawInput
	}
	if v.RawOutput != nil {
		u.RawOutput = v.RawOutput
	}
	if v.Content != nil {
		u.Content = v.Content
	}
	return u
}

// Empty reports whether u changes nothing.
func (u ToolUpdate) Empty() bool {
	return u.Kind == nil && u.Title == nil && u.Status == nil && u.Locations == nil && u.RawInput == nil &&
		u.RawOutput == nil && u.Content == nil
}

// MCPCall is a tool call of an MCP server's tool, as the agent named it.
type MCPCall struct {
	Server, Tool string
	// Arguments are the tool's arguments (the call's raw input, or its
	// "arguments" when the raw input names server and tool).
	Arguments json.RawMessage
}

// MCP reports whether t calls an MCP server's tool, and which: a raw
// input {"server", "tool", "arguments"} (Codex), or a title
// "mcp__<server>__<tool>" (Claude Code), "Tool: <server>/<tool>" or
// "<tool> (<server> MCP Server)" (Gemini CLI).
func (t Tool) MCP() (MCPCall, bool) {
	var in struct {
		Server    string          `json:"server"`
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(t.RawInput, &in) == nil && in.Server != "" && in.Tool != "" {
		return MCPCall{Server: in.Server, Tool: in.Tool, Arguments: in.Arguments}, true
	}
	title := strings.TrimSpace(t.Title)
	c := MCPCall{Arguments: t.RawInput}
	switch {
	case strings.HasPrefix(title, "mcp__"):
		c.Server, c.Tool, _ = strings.Cut(title[len("mcp__"):], "__")
	case strings.HasPrefix(title, "Tool: "):
		c.Server, c.Tool, _ = strings.Cut(title[len("Tool: "):], "/")
	case strings.HasSuffix(title, " MCP Server)"):
		if i := strings.LastIndex(title, " ("); i > 0 {
			c.Tool, c.Server = title[:i], strings.TrimSuffix(title[i+2:], " MCP Server)")
		}
	}
	if c.Server == "" || c.Tool == "" || strings.ContainsAny(c.Server+c.Tool, " \t\n") {
		return MCPCall{}, false
	}
	return c, true
}

// FindDiff is the diff of path in the content of the tool call of item
// itemID among items; nil when there is none.
func FindDiff(items []Item, itemID, path string) *ToolContent {
	for _, it := range items {
		if it.ID != itemID || it.Tool == nil {
			continue
		}
		for i := range it.Tool.Content {
			if c := &it.Tool.Content[i]; c.Type == ContentDiff && c.Path == path {
				return c
			}
		}
	}
	return nil
}
