// Package chips is chipchat's presentation registry (shared/DESIGN.md
// sections 2 and 5): how a chip — a reference to a context record — is
// drawn, per kind and per surface.
//
// It owns the three surfaces of every kind: Compact (the inline chip in
// prose and in the composer: one line, "<glyph> <label>" as a pill in the
// kind's colour), Details (a few lines of summary for a popover) and
// Expanded (the full content: the terminal excerpt with line numbers, the
// review comment with its diff and pull-request snapshot, every field of an
// element or preview annotation, the mention path, the file or image
// metadata, the thread's title and ids). Every per-kind rule — glyph,
// colour, compact label, name, details and expanded body — comes from one
// table (KindView, kinds.go), keyed like contextref's kind table. It also
// draws assistant quote chips (RenderCitation: a citation is not a record,
// so it has no kind entry). It also owns the unresolved chip, drawn for an
// unknown kind, a missing record, or a record that does not fit the chip:
// its own style,
// its label and why — a chip never vanishes and Render never returns "".
// Registering a second renderer for one kind and surface is an error.
//
// Every text that came from outside (labels, names, paths, terminal text,
// comments, diffs, payloads) goes through Sanitize or SanitizeLine before
// it is drawn, so no escape sequence or control character of a record
// reaches the terminal; the only escape sequences in the output are the SGR
// styles this package adds. Widths are display columns as ansi.StringWidth
// counts them (wide CJK and emoji take two, combining marks none), cutting
// never splits a grapheme cluster, and the registry cuts every line a
// renderer returns to the width it was given, so no renderer can overflow.
//
// Decisions where the design is silent:
//   - width ≤ 0 means "no limit". A compact chip that does not fit cuts its
//     label first, then drops its caps; the narrowest useful width is 4
//     (glyph, space, two columns of label), at 3 the label is "…", and at 1
//     or 2 the glyph stands alone.
//   - Compact shows the chip's label; a mention shows its path, cut at the
//     start so the file name stays; a skill drops a leading "$" (the glyph
//     is "$"); a review comment with a pull request shows "#<number>" in
//     the state's tone, where an open draft counts as draft.
//   - Details cut each line; Expanded wraps (prose at spaces, code
//     anywhere, behind its gutter or indentation) so nothing is lost.
//   - The terminal excerpt shows at most lineEnd-lineStart+1 lines, as the
//     provider projection does, with a note when the text holds more.
//   - An unknown kind's payload shows as JavaScript's JSON.stringify writes
//     it (what the agent reads), indented when expanded.
//   - DefaultTheme is made for dark backgrounds; NoColorTheme uses
//     attributes only (brackets around chips, reverse for selected, "?"
//     and faint italic for unresolved).
//
// Boundaries: chips imports contextref and styling libraries only. It must
// not import store, agent, ui, composer or transcript (they call it), and
// it does no I/O: rendering is a pure function of the chip, the width and
// the theme, so callers can cache it per width.
package chips
