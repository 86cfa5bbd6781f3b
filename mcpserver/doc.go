// Package mcpserver is chipchat's own MCP server, `chipchat mcp` (DESIGN.md
// section 10, issue 12 item 6): a separate process that an agent starts
// over stdio (github.com/modelcontextprotocol/go-sdk) and whose read-only
// tools let it read this project's other threads and the user's terminal
// panes:
//
//   - t3_thread_read(threadId, afterPosition?) returns a page of a thread's
//     messages (position, role, status, text) and nextPosition, the value
//     to pass as afterPosition for the next page (null after the last
//     page). Threads come from the store opened read-only
//     (store.OpenReadOnly). Which threads are readable is the running
//     app's decision, asked through the panes socket for each call
//     (AskScope; the app answers with StoreScope over its own store):
//     the threads of the project the app runs in and the threads of other
//     projects that a user message of that project attached as a thread
//     chip (T3 Code's rule: records the user created; a thread id in a
//     reply does not count). The --project flag has no say (an agent can
//     start chipchat mcp itself); with no app answering, no thread is
//     read. Any other thread, or an unknown id, is a tool error that says
//     so.
//   - terminal_read(terminal?, lines?) returns the recent output of the
//     running app's terminal panes, asked through a unix socket whose path
//     comes in CHIPCHAT_PANES_SOCKET. Without a running app the tool says
//     so in words.
//
// It also owns the app's end of that socket (PaneServer, started by the ui
// with a callback that snapshots its panes; Terminals is such a callback
// over terminal.Terminal.Snapshot), the socket's place (SocketPath), and
// the stdio spec an ACP backend passes in session/new (Spec), the app's
// socket with its list of terminals kept by the UI goroutine (Panes,
// opened by main).
//
// For an agent on a remote project (issue 28 item 6) the app serves the
// same tools in process over MCP's streamable HTTP transport
// (HTTPEndpoint: the go-sdk's handler on a unix socket mcp-<pid>.sock
// beside the panes socket, mode 0600), which package remote forwards to a
// loopback port of the remote machine. Every request must carry a bearer
// token the endpoint minted (NewToken, one per agent session; the go-sdk's
// auth.RequireBearerToken): anything else is 401, and an MCP session
// stays with the token that opened it.
//
// Socket protocol (one request per connection): the client writes one JSON
// line {"terminal": NAME, "lines": N}; the server answers one JSON line
// {"panes": [PaneText…]} or {"error": TEXT} and closes. NAME "" means every
// pane. A request {"thread": ID} is answered {"readable": BOOL} (or an
// error): whether t3_thread_read may read that thread (SetScope, set by
// main once the store is open through Panes.SetThreads). The socket is mode 0600 in a 0700 directory
// ($XDG_RUNTIME_DIR/chipchat, else the state directory) and is removed
// when the server closes.
//
// Decisions where the issue is silent:
//
//   - A position is a message's sequence number in its thread (1, 2, …);
//     afterPosition 0 or absent starts at the beginning.
//   - A page holds at most PageMessages messages and PageBytes bytes of
//     text; a single message longer than PageBytes is cut and marked
//     (truncated: true, and a last line saying how much was left out).
//   - The store is opened on the first call that needs it, so the server
//     starts (and terminal_read works) even when the data directory has no
//     database yet; an open that failed is tried again on the next call.
//   - terminal_read gives each pane at most MaxLines lines (default
//     DefaultLines) and the whole answer at most PageBytes of text, keeping
//     the newest lines.
//
// It imports store, contextref and terminal and must not import ui, chat or agent: the
// ui starts PaneServer and hands Spec's fields to the agent package as
// plain strings.
package mcpserver
