// Package transcript is chipchat's message list (shared/DESIGN.md sections
// 2, 5 and 8): a scrollable view of a thread's messages, with navigation
// between messages and between the chips of a message.
//
// It owns: resolving a user message's context (ResolveUserMessageContext:
// structured context as is, otherwise the legacy upgrade in memory —
// history is never rewritten); drawing user prose with its reference links
// as inline chips through the chips presentation registry; drawing a
// reply's typed items (DESIGN.md 9) through the item registry
// (ItemRegistry: compact, details and expanded per kind; each kind is one
// itemKind in its own file, item_*.go, with its pager title and text and
// whether it sits inline, and the pager and layout read nothing else of
// it; an unknown kind draws a visible fallback); Markdown through
// glamour, block by block; a tool call's content (RenderToolContent, which
// the app's permission prompt reuses: text, diffs with line numbers and
// chroma syntax colour); the focus (an item of a reply or a message, and a
// chip of a user message), the popover (a chip's details then expanded
// view, an item's details) and the requests it sends the app (OpenMsg,
// CopyMsg, ForkMsg, RewindMsg, PagerMsg).
//
// Boundaries: it imports contextref, chips, message and the Charm
// libraries (and chroma, go-udiff) only. It must not import store, agent,
// chat, ui or composer: the app feeds it messages (SetMessages, Append,
// SetText, SetItem, SetStatus) and acts on what it sends. Nothing in View
// does I/O: it lays out cached parts, rendering on demand the few it
// reaches for the first time (pure functions of the item, the width and
// the theme).
//
// Streaming. A text item is cut into Markdown blocks (blocks.go: blank
// lines end a block except inside a fence — wherever it is indented — or
// a list that goes on; an over-long block is cut at a line, a cut fence
// continues in the next block). Completed blocks are rendered once per
// width and kept. While the reply streams, its open block is drawn by a
// cheap path (stream.go): each completed source line styled and wrapped
// once and kept (a fence's lines highlighted by chroma as they complete),
// the partial last line drawn again per frame; and the frame after the
// text grew renders at most one completed block through glamour (the
// newest it reaches; none when it grew by more than 1 KB, a stream too
// fast to read), drawing the others it reaches cheaply until a later
// frame has room or the reply ends — a
// block of code alone is drawn the same either way, so its cheap drawing
// is kept as its render. When the reply ends its last block is rendered in
// full. SetItem stores the item; the new text
// is scanned when next drawn, from the open block on (a text that does not
// extend the old one starts over). So a frame costs the open block, not
// the reply. Parts far from the viewport are never rendered: the view is
// anchored at a part, and walks reach only the parts on screen.
//
// Bounds. A text item longer than reply_bytes (WithReplyBytes, default
// 4 MiB) keeps its first blocks (about half of it) and its last ones, and
// draws "… N MB not shown — o opens the whole reply in $PAGER" between
// them; the blocks in between are scanned past, never kept, and the text
// is never copied (o hands the item's own string to the app).
//
// Plain text. Message.PlainText says a reply may be plain text (exec:
// backends): it is decided once, from the first 4 KB of its first text
// item (or the whole reply when it ends shorter), whether it looks like
// Markdown; until then it is drawn as plain text, so the drawing changes
// at most once, within the first 4 KB. Plain text keeps every line, each
// wrapped with its indentation.
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
// glamour renderer is made once per width. Rendered text blocks keep their
// lines up to 48 MB in all (renderRing: the oldest rendered lose them), so
// a thread of ten thousand messages stays rendered once per width while a
// huge reply scrolled end to end stays bounded. The focused message's block
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
//   - Markdown links reach the terminal as OSC 8 hyperlinks only for http,
//     https and mailto; any other target (javascript:, file:, a relative
//     path) is drawn as plain text, the target shown after the label.
//   - Records are looked up by exact context id, as in the provider
//     projection.
//   - Items: a tool call is one line (kind glyph, title, status, and how
//     long it took once it ended — a running call shows no clock, since a
//     cached line cannot tick) with its content below, collapsed to 5 rows
//     and "+N lines" (a diff with one line of context); space shows the
//     content in place (up to 400 rows), enter the details popover (what
//     was asked, all of it up to 2000 rows), o the whole of it in the
//     pager. A thought is one line; space opens its text. A plan is a
//     checklist. A permission is one line: the question → the answer.
//     Consecutive tool calls and permissions have no blank row between
//     them. An error notice is red, with the end of the agent's stderr.
//   - Headings are drawn without their "##"; a table is as wide as its
//     cells (rendered on its own at that width); list items are joined
//     across soft line breaks (glamour would drop their indentation).
//   - Keys (focused only): up/down (k/j) move the focus by item (a user
//     message is one stop; a reply's items are one each) and scroll it
//     into view; a focused item taller than the view is scrolled
//     through first (half a view per key), and a focused item scrolled
//     off screen (by the wheel or a page key) hands focus to the nearest
//     one on screen. enter on an item opens its details, space expands or
//     collapses it, o sends PagerMsg with the whole item. pgup/pgdown scroll a page, home/end go to the first /
//     last message (end follows new messages again). tab/right and
//     shift+tab/left cycle through the chips of the focused message.
//     enter opens the focused chip's details (the first chip when none is
//     focused), enter again the expanded view; inside the popover up/down,
//     pages and home/end scroll it, tab moves to the next chip with the
//     popover following, esc closes it. esc with the popover closed is left
//     to the app. On a user message o opens the focused chip's record (any kind with a
//     record; with no chip focused, the message's first file or image);
//     a missing record opens nothing. y copies the focused message: its
//     canonical Markdown (a legacy message as upgraded) and its records.
//   - Selection (select.go): v on a reply's text item selects words of the
//     reply's text (its text items' Markdown joined by a blank line,
//     whitespace runs collapsed to one space — DESIGN.md 3.8), starting at
//     the first word of the topmost block on screen; w/b (→/←) move the
//     moving end a word, j/k (↓/↑) a sentence, o swaps the ends. y copies
//     the Markdown source the words span (CopyMsg), q and Q send QuoteMsg
//     (UTF-16 offsets into that text, the quote cut to 8000 units, 32
//     units of prefix and suffix; Q: with a comment); QuoteMsg.Citation
//     builds and checks its citation link in the app's environment and
//     thread. v on a tool call with a diff selects diff rows (j/k,
//     o); y copies them, c sends CommentDiffMsg (path, the rows, their old
//     and new sides and line ranges). esc (or v) leaves. The selection is
//     shown in a box over the bottom rows, and the blocks it covers get a
//     mark in the gutter.
//   - Assistant quote links in user messages ([Assistant quote](t3-citation:
//     …) whose href parses) draw as quote chips (chips.RenderCitation);
//     tab and enter reach them like other chips; an invalid one stays text.
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
