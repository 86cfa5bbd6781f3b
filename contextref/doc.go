// Package contextref is chipchat's wire contract v1 for inline context
// references, byte-compatible with T3 Code's "inline context references" v1
// (shared/DESIGN.md section 3).
//
// It owns: the typed records of the nine kinds and the unknown record
// (records.go), their validation and message-context decoding (decode.go),
// context ids (ids.go), reference links, label sanitizing and the occurrence
// scan (links.go), the provider projection (project.go), the legacy upgrade
// (legacy.go), the clipboard fragment and its HTML carrier (fragment.go), and
// the JavaScript string and JSON semantics the contract is defined in
// (jsstring.go, jsjson.go).
//
// Everything here is pure: no I/O, no clock, no randomness, and it imports
// nothing of the project. Lengths are counted in UTF-16 code units and
// "trimmed" means JavaScript's String.prototype.trim, so a record one
// implementation accepts the other accepts too. Every decoder is total: bad
// input gives an error, never a panic, and inputs over the contract's limits
// are refused before any work that grows faster than linearly.
//
// Decisions where the contract is silent: annotationId is a trimmed,
// non-empty string of at most 2048 characters; optional fields ("?") may be
// absent but not null; a missing mention or skill record still gets an
// "unavailable" entry in the projection (only records of those kinds produce
// no entry).
package contextref
