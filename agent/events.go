package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

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

// ToolUpdate changes a tool call: message.ToolUpdate, whose Apply folds it
// into the call (chat and the ACP backend use that one fold).
type ToolUpdate message.ToolUpdate

// Plan replaces the agent's plan.
type Plan struct{ Entries []message.PlanEntry }

// ItemPut adds an item of a kind with no event of its own to the reply, or
// changes the item put before with the same Kind and Key: its fields
// become Item's (its Text stays the first put's; such a kind keeps what
// changes in its fields). A new item kind is carried by ItemPut, so it
// needs no event here and no fold in chat (message/doc.go). The backend
// bounds the fields it puts. Puts of one key waiting in the ACP queue are
// coalesced (the last wins, at the first one's place).
type ItemPut struct {
	Key  string
	Item message.Item
}

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
	// Boolean: the option is on or off (Current "true" or "false"; the
	// Values are those two), toggled rather than picked.
	Boolean bool
}

// ConfigOptions replaces the list of the session's config options.
type ConfigOptions struct{ Options []ConfigOption }

// Usage reports tokens spent. ContextUsed and ContextSize, when non-zero,
// are how much of the model's context window the session fills (ACP's
// usage_update; the openai backend's last request, whose context size it
// does not know); Cost, when Currency is set, is the session's cost so far.
// A field left zero is not known by this event (it keeps what was).
type Usage struct {
	InputTokens  int64
	OutputTokens int64
	ContextUsed  int64
	ContextSize  int64
	Cost         float64
	Currency     string
}

// Notice is a line for the user that is not part of the answer (a stop
// reason, a skipped attachment…).
type Notice struct{ Text string }

func (TextDelta) isEvent()      {}
func (ThoughtDelta) isEvent()   {}
func (ToolCall) isEvent()       {}
func (ToolUpdate) isEvent()     {}
func (Plan) isEvent()           {}
func (ItemPut) isEvent()        {}
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
	// Logout: the backend can sign out of the agent (LoggerOut; ACP's
	// logout, when the agent offers it).
	Logout bool
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

// DefaultReplyBytes is the most of one item's text shown in full, and of
// one tool call's content kept ([limits] reply_bytes, Limits.ReplyBytes).
const DefaultReplyBytes = 4 << 20

// ToolOutputKeys are the members of a tool call's rawOutput whose string is
// what the tool printed, for every agent (Codex sends a command's output
// only there: stdout, formatted_output, aggregated_output; opencode
// output; an MCP result content): the first present and non-empty one is
// the output, except that stdout and stderr go together (stdout, then
// stderr). A rawOutput that is a plain string is the output itself;
// "content" may also be a list of text blocks.
var ToolOutputKeys = []string{"stdout", "stderr", "formatted_output", "aggregated_output", "output", "content", "error"}

// ToolExitKeys are the members of a rawOutput (or of its "metadata"
// object) that hold the command's exit code.
var ToolExitKeys = []string{"exit_code", "exitCode", "exit"}

// ToolOutputText is the text a tool call's rawOutput holds (ToolOutputKeys),
// with a last line "exit code N" when it names one (ToolExitKeys); "" when
// it holds no text.
func ToolOutputText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return v
	case map[string]any:
		text := ""
		if out, _ := v["stdout"].(string); out != "" {
			text = out
			if e, _ := v["stderr"].(string); e != "" {
				text = acpJoinLines(text, e)
			}
		} else if e, _ := v["stderr"].(string); e != "" {
			text = e
		}
		for _, k := range ToolOutputKeys[2:] {
			if text != "" {
				break
			}
			text = acpOutputString(v[k])
		}
		if code, ok := acpExitCode(v); ok {
			text = acpJoinLines(text, fmt.Sprintf("exit code %d", code))
		}
		return text
	}
	return ""
}

// acpOutputString is a string, or the texts of a list of content blocks
// ({"type": "text", "text": …}) joined by newlines.
func acpOutputString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var parts []string
		for _, b := range v {
			if m, ok := b.(map[string]any); ok {
				if s, ok := m["text"].(string); ok && s != "" {
					parts = append(parts, s)
				}
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

func acpExitCode(v map[string]any) (int64, bool) {
	for _, m := range []any{v, v["metadata"]} {
		obj, ok := m.(map[string]any)
		if !ok {
			continue
		}
		for _, k := range ToolExitKeys {
			if f, ok := obj[k].(float64); ok && f == float64(int64(f)) {
				return int64(f), true
			}
		}
	}
	return 0, false
}

// acpJoinLines is a, a newline when a does not end with one, then b.
func acpJoinLines(a, b string) string {
	if a == "" {
		return b
	}
	if !strings.HasSuffix(a, "\n") {
		a += "\n"
	}
	return a + b
}

// CapTool keeps at most limit bytes (≤ 0: DefaultReplyBytes) of a tool
// call's content (CapToolContent) and of its raw input and raw output each
// (a longer one becomes a JSON string of its head and tail). It reports
// whether anything was cut; t's slices are replaced, never changed in
// place.
func CapTool(t *message.Tool, limit int64) bool {
	if limit <= 0 {
		limit = DefaultReplyBytes
	}
	cs, cut := CapToolContent(t.Content, limit)
	t.Content = cs
	for _, raw := range []*json.RawMessage{&t.RawInput, &t.RawOutput} {
		if int64(len(*raw)) > limit {
			*raw = acpCapRaw(*raw, limit)
			cut = true
		}
	}
	return cut
}

// CapToolContent keeps at most limit bytes (≤ 0: DefaultReplyBytes) of a
// tool call's content, counting its texts and both sides of its diffs:
// over it, each piece keeps its share of limit as its head and tail
// (CutMiddle), as a text item over reply_bytes is shown. The slice given
// is not changed; the result is a new one when anything was cut.
func CapToolContent(cs []message.ToolContent, limit int64) ([]message.ToolContent, bool) {
	if limit <= 0 {
		limit = DefaultReplyBytes
	}
	var total int64
	for _, c := range cs {
		total += int64(len(c.Text) + len(c.NewText))
		if c.OldText != nil {
			total += int64(len(*c.OldText))
		}
	}
	if total <= limit {
		return cs, false
	}
	share := func(s string) string {
		if s == "" {
			return s
		}
		n := int64(len(s)) * limit / total
		return CutMiddle(s, n)
	}
	out := make([]message.ToolContent, len(cs))
	for i, c := range cs {
		c.Text = share(c.Text)
		c.NewText = share(c.NewText)
		if c.OldText != nil {
			o := share(*c.OldText)
			c.OldText = &o
		}
		out[i] = c
	}
	return out, true
}

// CutMiddle is s when it has at most n bytes, else at most n bytes of it:
// its head and its tail (cut at line ends where one is near, else at
// character boundaries) around a line saying how much was left out. The
// pieces kept are copies, so s itself can be freed.
func CutMiddle(s string, n int64) string {
	if int64(len(s)) <= n {
		return s
	}
	left := int64(len(s))
	mark := fmt.Sprintf("\n… %s left out (reply_bytes) …\n", acpMB(left))
	room := n - int64(len(mark))
	if room <= 0 {
		return strings.Clone(acpHead(s, max(n, 0)))
	}
	head := acpHead(s, room/2)
	tail := acpTail(s, room-int64(len(head)))
	mark = fmt.Sprintf("\n… %s left out (reply_bytes) …\n", acpMB(int64(len(s)-len(head)-len(tail))))
	if int64(len(head)+len(mark)+len(tail)) > n {
		tail = acpTail(s, n-int64(len(head)+len(mark)))
	}
	return head + mark + tail // a new string: s itself can be freed
}

// acpHead is at most n bytes of the start of s, ending at a newline when
// one is within the last 1 KiB of them, else at a character boundary.
func acpHead(s string, n int64) string {
	if n <= 0 {
		return ""
	}
	if int64(len(s)) <= n {
		return s
	}
	h := s[:n]
	if i := strings.LastIndexByte(h, '\n'); i >= 0 && int64(len(h)-i) <= 1<<10 {
		return h[:i+1]
	}
	for len(h) > 0 && !utf8.RuneStart(s[len(h)]) {
		h = h[:len(h)-1]
	}
	return h
}

// acpTail is at most n bytes of the end of s, starting after a newline
// when one is within the first 1 KiB of them, else at a character
// boundary.
func acpTail(s string, n int64) string {
	if n <= 0 {
		return ""
	}
	if int64(len(s)) <= n {
		return s
	}
	t := s[int64(len(s))-n:]
	if i := strings.IndexByte(t, '\n'); i >= 0 && i < 1<<10 {
		return t[i+1:]
	}
	for len(t) > 0 && !utf8.RuneStart(t[0]) {
		t = t[1:]
	}
	return t
}
