// Package fragment holds chipchat's typed runtime fragments: the context a
// harness injects for the model around the user's words (environment,
// AGENTS.md instructions, skill instructions, an abort notice, the
// <t3_context> envelope…), as described in shared/DESIGN.md section 7.
//
// It owns: the Kind of a fragment (its role, begin/end markers and whether
// it must stand alone — values of the type, never of an instance), the
// Fragment interface (a kind and a body), Render, the exact claim rule
// (Kind.Matches), the Registry (the only way to claim text back from history
// and the only way to assemble fragments into messages), the Assembler
// (Registry.Assemble) and the compaction and fork helpers (Registry.Strip,
// Registry.UserWords, Registry.Compact, Registry.Fork).
//
// Everything here is pure: no I/O, no clock, no environment reads. Values
// such as the working directory, the date or the contents of AGENTS.md are
// passed in by the caller (package agent computes them).
//
// Claim rule (Kind.Matches): a marked kind matches a text when, after
// trimming leading whitespace, the text starts with the begin marker and,
// after trimming trailing whitespace, it ends with the end marker; both
// comparisons are ASCII case-insensitive (only A–Z fold to a–z: no Unicode
// folding, so the Kelvin sign never equals "k"). Whitespace is Unicode
// White_Space (unicode.IsSpace). The two checks are independent, exactly as
// the rule is stated: a text shorter than both markers together may match
// when the markers overlap in it. An unmarked kind (both markers empty)
// never matches: it gave up reversibility on purpose. A kind with exactly
// one empty marker is malformed and cannot be registered.
//
// Decisions where DESIGN.md is silent:
//   - Values written inside tags (the environment's cwd, shell, date and
//     zone; a skill's name and path) escape '&', '<' and '>' as entities so
//     a value cannot close or forge a tag; empty environment values are
//     omitted. The AGENTS.md directory and free text (the AGENTS.md and
//     SKILL.md contents, the abort reason, a summary, the envelope's
//     entries, which the projection already escaped) are written verbatim,
//     as Codex does. The claim rule looks only at the two ends of a text,
//     so nothing inside a body can change what a rendering is claimed as.
//   - Roles: every shipped marked kind is user-side (as in Codex); the one
//     developer kind is the unmarked, stand-alone TimeNotice. Standard
//     returns a fresh registry of all shipped kinds.
//   - Assembly joins nothing: a Message is a list of parts, one rendered
//     fragment per part, so every part stays claimable on its own. Backends
//     that need one string join the parts with a blank line (Message.Text).
//   - A compacted or forked history keeps no developer message and no
//     claimed user part (a fork keeps the messages' own <t3_context>
//     envelopes): the current fragments are re-injected at the head.
//     The compaction summary is itself a marked user-side kind
//     (<conversation_summary>), so the next compaction drops the old summary
//     instead of keeping it as "real user words".
//   - Payload kinds (AttachedFileKind, ThreadHistoryKind,
//     AttachmentsOmittedKind) carry the user's own payload to harness
//     backends, in the user message they belong to. Their begin markers
//     stop before the attributes ("<attached_file", "<thread_history"), so
//     the claim rule sees the tag whatever its attributes. Attribute values
//     escape & " < > (DESIGN.md 3.5); inside the text every "<" that starts
//     the kind's own tag, optionally after "/", followed by a non-word
//     character or the end, becomes "&lt;" (EscapeTag: 3.5 step 5 applied
//     to their own tag), so a file cannot close its fragment or forge a
//     second one. ParseAttachedFile/ParseThreadHistory read the attributes
//     back (the text stays escaped: that escaping is not reversible, as in
//     3.5). Fork keeps them (they are the message's, not the runtime's);
//     UserWords drops them, so a compaction keeps only real words.
//   - A cut file says so in its last line, "(truncated: N of M bytes)" (N
//     bytes of the file sent, M its size). A thread history keeps the
//     newest messages that fit its bound, says how many older ones were
//     left out, and cuts the newest alone (" … (cut)") when only it is too
//     long; a thread from another environment is one fixed line
//     (ThreadMissing).
//
// Imports: nothing of the project.
package fragment
