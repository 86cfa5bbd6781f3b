// Package contextref is chipchat's wire contract v1 for inline context
// references, byte-compatible with T3 Code's "inline context references" v1
// (shared/DESIGN.md section 3).
//
// It owns: the typed records of the nine kinds and the unknown record
// (records.go), the kind table every per-kind rule comes from (kinds.go:
// decoding, projection body, sample), their validation and message-context
// decoding (decode.go),
// context ids (ids.go), reference links, label sanitizing and the occurrence
// scan (links.go), the provider projection (project.go), the legacy upgrade
// (legacy.go), the clipboard fragment and its HTML carriers (fragment.go),
// assistant citations — parsing, writing, scanning, display label and the
// provider expansion that follows the projection (citation.go) — and
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
// no entry); a review-comment sourceStale that is present must be a
// boolean (null fails the record like any other non-boolean).
//
// Two deliberate deviations from T3 Code's current code, both from the
// seed text (DESIGN.md 3.5): mention and skill records produce a marker but
// no envelope entry (T3 now writes path: / name: bodies), and label
// truncation never splits a surrogate pair.
package contextref
