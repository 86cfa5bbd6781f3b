// Package transcript is chipchat's message list (shared/DESIGN.md sections
// 2, 5 and 8): a scrollable view of a thread's messages, with navigation
// between messages and between the chips of a message.
//
// It owns: resolving a user message's context (ResolveUserMessageContext:
// structured context as is, otherwise the legacy upgrade in memory —
// history is never rewritten); drawing user prose with its reference links
// as inline chips through the chips presentation registry; drawing
// assistant Markdown with glamour; the focus (a message, and a chip of that
// message), the chip popover (details, then expanded) and the requests it
// sends the app (OpenMsg, CopyMsg).
//
// Boundaries: it imports contextref, chips and the Charm libraries only. It
// must not import store, agent, ui or composer: the app feeds it messages
// (SetMessages, Append, SetText) and acts on OpenMsg and CopyMsg. Nothing
// in View does I/O: it lays out cached blocks, rendering on demand the few
// it reaches for the first time (pure functions of the message, the width
// and the theme).
//
// Scaling. A thread may hold tens of thousands of messages, so nothing is
// done per message up front: SetMessages copies the slice and that is all.
// A message may come with its context still raw (Message.RawContext, the
// stored JSON): it is decoded when the message is first drawn or its chips,
// o or y need it, and kept; one that does not decode is no context (the
// text is resolved as an older message's).
// The view is anchored at a message index and a row offset inside it (or
// follows the bottom, the default); drawing and scrolling walk from the
// anchor to the neighbours they need, rendering each on first sight, so a
// message never drawn is never measured and a scroll step costs the rows on
// screen, not the thread. Each message caches its rendered block for one
// (content width, text generation): a resize re-renders lazily what is
// drawn again, and a streaming SetText re-renders that message only. The
// glamour renderer is made once per width. The focused message's block
// with its chip selected is a separate one-slot cache, laid out with the
// unselected chip widths so both have the same rows.
//
// Safety. Every text from outside — message text, agent output, labels,
// statuses — is stripped of terminal control sequences (chips.Sanitize)
// before it is drawn; glamour's input is sanitized too (tabs expanded
// first so code keeps its indentation), and each line of its output is cut
// to the width and closes its own styles and hyperlinks.
//
// Decisions where the design is silent:
//   - Layout: a header line ("You" / "Agent" and the status: "… streaming",
//     "interrupted", "error"), then the body; a blank row between
//     messages; a two-column gutter in which the focused message shows a
//     bar while the transcript is focused. User prose is shown as written
//     (not as Markdown), wrapped at spaces, hard line breaks kept; a chip is
//     never split. A link whose record is missing, held by two records, or
//     of an unknown kind draws the registry's unresolved chip.
//   - Reference links inside assistant text show as "[label]".
//   - Records are looked up by exact context id, as in the provider
//     projection.
//   - Keys (focused only): up/down move the focused message and scroll it
//     into view; a focused message taller than the view is scrolled
//     through first (half a view per key), and a focused message scrolled
//     off screen (by the wheel or a page key) hands focus to the nearest
//     one on screen. pgup/pgdown scroll a page, home/end go to the first /
//     last message (end follows new messages again). tab/right and
//     shift+tab/left cycle through the chips of the focused message.
//     enter opens the focused chip's details (the first chip when none is
//     focused), enter again the expanded view; inside the popover up/down,
//     pages and home/end scroll it, tab moves to the next chip with the
//     popover following, esc closes it. esc with the popover closed is left
//     to the app. o opens the focused chip's record (any kind with a
//     record; with no chip focused, the message's first file or image);
//     a missing record opens nothing. y copies the focused message: its
//     canonical Markdown (a legacy message as upgraded) and its records.
//   - The mouse wheel scrolls three rows (or the open popover) even when
//     the transcript is not focused: the app routes wheel events.
//   - The view starts at the bottom and sticks there: Append and streaming
//     keep the newest row in view while the view is at the bottom; once
//     scrolled up it stays on its anchor. When everything fits, messages
//     start at the top.
//   - The popover takes at most two thirds of the height, bordered, over
//     the bottom rows; when the focused chip would sit under it the view
//     scrolls it above when it can.
package transcript
