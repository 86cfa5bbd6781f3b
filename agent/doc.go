// Package agent runs turns against agent backends.
//
// It owns: the Turn handed to a backend (canonical Markdown, records, the
// provider projection and the attachments, built by Prepare/PrepareWith;
// the history, threads and limits chat fills), the payload delivery of the
// harness backends (payload.go: <attached_file> and <thread_history>
// fragments, image parts, notices, InlineCuts, SnapshotMention), the
// Backend interface, the backends — echo (Echo, EchoReply: the request the
// openai harness would send), exec:<command> (Exec: the prompt and the
// payload fragments on stdin, attachments in $CHIPCHAT_ATTACHMENTS, the
// history in $CHIPCHAT_HISTORY, stdout streamed), acp:<command> (ACP over stdio, one agent session per thread,
// permission and sign-in questions as Permission and SignIn events) and
// openai:<base-url>#<model> (Chat Completions streaming, with runtime
// fragments assembled by package fragment) — choosing one from a spec
// string (New). A backend answers a turn with typed events (events.go:
// TextDelta, ThoughtDelta, ToolCall, ToolUpdate, Plan, ItemPut, Permission, SignIn,
// SessionStarted, Commands, Modes, ConfigOptions, Usage, Notice) and
// declares what it can do in one Capabilities value. Options.Host (host.go)
// runs exec: and acp: agents elsewhere (a remote project; main wires
// package remote in): exec stages the turn's files there; acp serves
// client fs there through chipchat's helper when the Host is a HostHelper
// (helper.go: ServeHelper is `chipchat remote-helper`, the same acpFS code
// on the host's side; HelperExec runs a terminal's command there, for a
// TerminalHost that runs them over the Host), else offers no client fs or
// terminals there and refuses them with a notice.
//
// Storing messages and running turns is not this package's job: package
// chat persists the user's message before it calls Run, folds the events
// into reply items and stores them. The persisted message is never
// rewritten; the projection lives only in Turn.
//
// Decisions: attachments are the image and file records the text references,
// in first-reference order, one per context id (an id held by two records is
// skipped, as the projection treats it as missing). Run returns ctx.Err()
// promptly when its turn is cancelled (chat records the turn interrupted);
// a failure with an explanation on the agent's stderr is an *Error.
//
// Imports: contextref, fragment and message, of the project (plus the ACP
// SDK and openai-go). It must not import ui, chat, composer, transcript,
// store or assets.
package agent
