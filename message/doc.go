// Package message holds the leaf types that store, transcript and chat
// share (DESIGN.md sections 2 and 9): message roles and statuses, and the
// items an agent reply is made of.
//
// It owns the vocabulary only: no I/O, no rendering, no decoding of the
// wire contract. It imports nothing of the project, and every package that
// speaks of messages uses these types instead of a copy of its own.
//
// A reply is an ordered list of items. Each has a stable id within its
// reply, so an update (a tool call's new status, a new plan) replaces its
// item instead of appending a line. A growing item's text is built in a
// TextBuf (text.go): appended to in place and never moved, one buffer up
// to TextPiece (64 KB), past that pieces of TextPiece bytes, so a 50 MB
// reply holds 50 MB and its growth copies nothing (a buffer grown by
// copies has the old text and the new one live at once: 2× or more).
// What it hands out is a Text, a view that never changes: one string, or
// the pieces to a length, read by Slice (a view within a piece, a copy
// across two), At, IndexByte, PieceEnd and Pieces, and joined by String
// only where a reader needs the whole (the pager, a selection, a copy).
// An item holds its text in Text, or in Chunks once it is long and kept
// in pieces; Body and TextLen read either, and every reader of an item's
// text goes through them.
//
// # One definition per item kind
//
// Specs (items.go) is the table of item kinds: each entry is a kind's
// constant, whether its text grows, and a sample item setting every field
// the kind uses. Kinds, Valid and Grows are read from it. What the store
// keeps of an item is derived: Item.Data is the JSON of every field but
// ID, Kind and Text (which the store keeps in columns of their own), so a
// field added to Item is stored without a list to add it to. A tool call
// changes through ToolUpdate (tool.go), whose Apply is the one fold the
// agent's event queue and chat's reply both use, and whose Then joins two
// queued updates.
//
// The coverage tests fail when a kind lacks a surface: an ItemKind
// constant without its Specs entry, a field of Item that no sample sets or
// that does not read back from its data, a ToolUpdate field that Apply,
// Then or Empty leaves out (kinds_test.go); a sample that does not survive
// the store (store/items_kinds_test.go); a kind without its renderer on
// every surface, its pager title or its pager text
// (transcript/items_test.go).
//
// A new item kind is three places:
//
//  1. here, items.go: its constant, its Specs entry with a sample, and its
//     field on Item (a type of its own beside Tool, Plan and Permission
//     when it has several fields), its JSON tag with omitempty;
//  2. transcript/item_<kind>.go: one registerKind call with its Compact,
//     Expanded and Details renderers, its pager Title and Pager text (nil:
//     its Details as text) and whether it is Inline;
//  3. the backend that produces it (an agent/acp_*.go file, say), which
//     emits agent.ItemPut events: chat adds the item at the first put of
//     a kind and key and changes its fields at the later ones, the ACP
//     queue coalesces them, the store writes it. No event type, no fold
//     in chat and no store code are added for it.
//
// A kind whose items need chat's own handling at the end of a turn (as
// tool calls are settled) or text that grows (as text and thought) adds
// its event in agent/events.go and its fold in chat/turn.go instead of
// using ItemPut.
package message
