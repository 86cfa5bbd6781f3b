package message

import (
	"encoding/json"
	"time"
)

// ItemKind is the kind of one reply item.
type ItemKind string

// Reply item kinds. Each has its entry in Specs.
const (
	ItemText       ItemKind = "text"       // Markdown the agent wrote
	ItemThought    ItemKind = "thought"    // the agent's reasoning
	ItemTool       ItemKind = "tool"       // a tool call, updated in place (ToolUpdate)
	ItemPlan       ItemKind = "plan"       // the plan, at most one per reply, updated in place
	ItemPermission ItemKind = "permission" // a permission question and its answer
	ItemNotice     ItemKind = "notice"     // a line from chipchat or the agent (errors included)
)

// KindSpec is the definition of one item kind: what package message says
// of it. Its fields are the Item fields its Sample sets; what the store
// keeps of it is derived from them (Item.Data); the transcript draws it
// through its own registration of the kind.
type KindSpec struct {
	Kind ItemKind
	// Grows: the item's Text grows by appended text while a turn runs
	// (the store appends the new text instead of rewriting the item).
	Grows bool
	// Sample is an item of the kind with every field the kind uses set:
	// the coverage tests store it, read it back and draw it on every
	// surface. It returns a new item each call.
	Sample func() Item
}

// Specs is the table of item kinds, in the order help and tests walk them.
// A kind is its constant and its entry here; Kinds, Valid and Grows are
// derived from this table.
var Specs = []KindSpec{
	{Kind: ItemText, Grows: true, Sample: func() Item {
		return Item{Kind: ItemText, Text: "I will **fix** the handler."}
	}},
	{Kind: ItemThought, Grows: true, Sample: func() Item {
		return Item{Kind: ItemThought, Text: "Let me look at the handler first."}
	}},
	{Kind: ItemTool, Sample: func() Item {
		old := "a\n"
		at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		return Item{Kind: ItemTool, Tool: &Tool{CallID: "c1", Kind: "edit", Title: "Edit a.go", Status: ToolFailed,
			Locations: []Location{{Path: "a.go", Line: 3}},
			RawInput:  json.RawMessage(`{"path":"a.go"}`), RawOutput: json.RawMessage(`{"stdout":"ok <b>"}`),
			Content: []ToolContent{{Type: ContentText, Text: "ok"}, {Type: ContentDiff, Path: "a.go", OldText: &old, NewText: "b\n", Line: 3},
				{Type: ContentTerminal, TerminalID: "term_1"}},
			Started: at, Ended: at.Add(time.Second), Reason: ReasonTurnEnded,
			Permission: &Permission{ToolCallID: "c1", Asked: "Edit a.go",
				Options: []PermissionOption{{ID: "a", Name: "Allow once", Kind: AllowOnce}, {ID: "r", Name: "Reject", Kind: RejectOnce}},
				Chosen:  "a", Outcome: "selected"}}}
	}},
	{Kind: ItemPlan, Sample: func() Item {
		return Item{Kind: ItemPlan, Plan: []PlanEntry{{Content: "read the handler", Priority: "high", Status: "completed"}, {Content: "fix it"}}}
	}},
	{Kind: ItemPermission, Sample: func() Item {
		return Item{Kind: ItemPermission, Permission: &Permission{ToolCallID: "c1", Asked: "Edit a.go",
			Options: []PermissionOption{{ID: "a", Name: "Allow once", Kind: AllowOnce}, {ID: "r", Name: "Reject", Kind: RejectOnce}},
			Chosen:  "a", Outcome: "selected"}}
	}},
	{Kind: ItemNotice, Sample: func() Item {
		return Item{Kind: ItemNotice, Level: "error", Text: "the agent exited with status 2", StderrTail: "panic: nil map"}
	}},
}

// Kinds lists every item kind, in the order of Specs.
var Kinds = func() []ItemKind {
	ks := make([]ItemKind, len(Specs))
	for i, s := range Specs {
		ks[i] = s.Kind
	}
	return ks
}()

// Spec is the definition of kind k; ok is false for an unknown kind.
func (k ItemKind) Spec() (spec KindSpec, ok bool) {
	for _, s := range Specs {
		if s.Kind == k {
			return s, true
		}
	}
	return KindSpec{}, false
}

// Valid reports whether k is a known item kind.
func (k ItemKind) Valid() bool {
	_, ok := k.Spec()
	return ok
}

// Grows reports whether items of kind k grow by appended text while a turn
// runs (the store appends their new text instead of rewriting them).
func (k ItemKind) Grows() bool {
	s, _ := k.Spec()
	return s.Grows
}

// Item is one piece of a reply. Text is the body of text, thought and
// notice items; the other fields hold what the other kinds are made of
// (each kind's Sample says which it uses). Every field but ID, Kind and
// Text (and Chunks) is stored as the item's data (Data); an item of an unknown kind
// (written by a newer chipchat) keeps the fields this version knows.
type Item struct {
	ID   string   `json:"-"`
	Kind ItemKind `json:"-"`
	Text string   `json:"-"`
	// Chunks holds the text instead of Text when it is long and kept in
	// pieces (a growing item of a running turn past TextPiece bytes: chat
	// keeps it in a TextBuf, and a joined copy would have it twice in
	// memory). Read an item's text with Body, which is either.
	Chunks Text `json:"-"`

	Tool       *Tool       `json:"tool,omitempty"`
	Plan       []PlanEntry `json:"plan,omitempty"`
	Permission *Permission `json:"permission,omitempty"`
	// Level is a notice's tone: "" (info) or "error".
	Level string `json:"level,omitempty"`
	// StderrTail is the end of the agent's stderr, for an error notice.
	StderrTail string `json:"stderrTail,omitempty"`
}

// Body is the item's text: Chunks when the text is kept in pieces, else
// Text.
func (it Item) Body() Text {
	if it.Chunks.Len() > 0 {
		return it.Chunks
	}
	return TextOf(it.Text)
}

// TextLen is the length of the item's text in bytes.
func (it Item) TextLen() int { return max(len(it.Text), it.Chunks.Len()) }

// Data is the item's fields other than its id, kind and text, as stored:
// its JSON, or nil when it sets none of them. A field added to Item is
// stored with the rest (its JSON tag must have omitempty or omitzero, so
// an item that does not use it stores nothing of it).
func (it Item) Data() ([]byte, error) {
	b, err := MarshalJSON(it)
	if err != nil || string(b) == "{}" {
		return nil, err
	}
	return b, nil
}

// SetData fills the fields Data wrote. Empty data clears nothing.
func (it *Item) SetData(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	return json.Unmarshal(data, it)
}
