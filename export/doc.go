// Package export writes a thread out of chipchat (issue 27): as Markdown
// for people — each message with its role and time, chips as their
// canonical links, an appendix with what the agent read of each message's
// records (contextref's provider projection), tool calls as folded
// <details> sections with their diffs in ```diff fences and their output —
// or as versioned JSON for programs (the thread, its messages with their
// contexts and reply items). It also owns the default file name
// ($XDG_DATA_HOME/chipchat/exports/<title>-<date>.md, the title cut to 80
// characters of [A-Za-z0-9._-], so nothing lands in the project) and
// writing it without overwriting an existing file unless asked.
//
// It reads through workspace's and store's types (workspace.Opened, whose
// messages are store.Message) and imports contextref and message; like
// workspace it never imports ui, chat or a component. Markdown and JSON are
// pure; Write is its only I/O. Text from the agent is stripped of terminal
// control sequences, so a `cat` of the file draws nothing it should not.
//
// Its line in DESIGN.md section 2's package list (DESIGN.md lives outside
// this repository, so the line is kept here until it is added there):
//
//	export/      a thread as Markdown (roles, times, chips as links, what the agent read, tool
//	             calls folded with their diffs) or versioned JSON; the default export path
package export
