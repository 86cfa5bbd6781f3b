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
// permission and sign-in questions through ACPOptions.Ask/SetAsk) and
// openai:<base-url>#<model> (Chat Completions streaming, with runtime
// fragments assembled by package fragment) — choosing one from a spec
// string (New), and the Runner, the Bubble Tea glue that runs a turn in a
// goroutine and streams its reply to the program as ChunkMsg/DoneMsg.
//
// Storing messages is not this package's job: the app persists the user's
// message before it calls Start, and stores the reply it receives. The
// persisted message is never rewritten; the projection lives only in Turn.
//
// Decisions: attachments are the image and file records the text references,
// in first-reference order, one per context id (an id held by two records is
// skipped, as the projection treats it as missing). A cancelled turn ends
// at once: Cancel marks it interrupted and its DoneMsg is delivered without
// waiting for the backend to return; whatever the backend emits afterwards is
// dropped, and a user's cancel is not an error (DoneMsg.Err is nil,
// Interrupted is true). A backend that panics ends its turn with an error.
//
// Imports: contextref and fragment, of the project (plus Bubble Tea for the
// message types, the ACP SDK and openai-go). It must not import ui,
// composer, transcript, store or assets.
package agent
