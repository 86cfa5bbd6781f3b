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
// item instead of appending a line. The item kinds are one table (Kinds);
// the transcript renders each kind through a registry keyed by it.
package message
