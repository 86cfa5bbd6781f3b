// Package chat is the conversation (DESIGN.md section 9): everything
// between "the user pressed send" and "the turn is over".
//
// It owns: building the message to store (canonical Markdown plus only the
// records a chip points at, expired terminal excerpts dropped, attachment
// bindings normalized, the contract's limits checked — BuildMessage),
// persisting the user's message before any backend sees it, preparing the
// backend's turn (projection, attachments, history and agent session as
// the backend's Capabilities ask), running it, folding the backend's typed
// events into the reply's items and persisting them (a growing item's new
// text appended at most every FlushEvery; never the whole item rewritten),
// the queue of messages typed while a turn runs, retry, cancel, /compact,
// fork, the agent's questions (permissions, sign-in) and the quit
// handshake. The lease a running turn holds on its reply is taken here and
// released when the turn is recorded.
//
// It reports to the UI only by events (Wait): UserStored, SendFailed,
// ReplyStarted, ItemChanged, ReplyFinished, PhaseChanged, QueueChanged,
// Unqueued, Notice, PermissionAsked, SignInAsked, ElicitationAsked,
// ElicitationDone, AskClosed, AgentInfo,
// CommandsKnown, Replying, Forked, TitleChanged, AgentSessions, SessionImported, QuitReady. The events carry chat's own types (view.go: Message,
// Question, Command, ConfigOption, Modes, Usage; PermissionAnswer going
// back), converted from agent's and store's. Its methods never block on
// I/O: store work runs on one
// worker goroutine, in order; backends run on their own goroutines. Its
// clock is injected (ManualClock in tests). Consecutive ItemChanged of one
// item are merged in the outbox, and Wait may be paced
// (Options.EventEvery, pace.go: the app asks PaceInterval), so a stream
// however fast reaches the UI as at most one batch per interval. A growing
// item's text is a message.TextBuf (kept in 64 KB pieces past its first,
// never copied as it grows; the item's Chunks past that), and its new text
// is written piece by piece.
//
// Imports: agent, store, assets, contextref, fragment and message. It must
// not import ui or any component (composer, chips, transcript, terminal,
// review, clipboard): data flows ui → chat → agent/store/assets.
//
// Turn phases, per thread:
//
//	phase      entered when                        leaves to
//	idle       a turn is recorded; at start        storing (Send, Retry, SendNext)
//	storing    Send with nothing running           starting (stored), idle (refused)
//	starting   the user's message is stored        streaming (reply created), idle (store failed)
//	streaming  the backend runs                    stopping (Cancel, Quit), idle (it returned)
//	           (starting the agent until Replying: the turn's first update of its reply)
//	stopping   cancelled                           idle (it returned, or StopWait passed)
//
// Send while not idle, or while the queue is paused, stores the message
// queued. A done turn sends the next queued message; a cancelled, failed
// or crashed one pauses the queue until SendNext (enter on an empty
// composer) or a new Send. Unqueue takes the last queued message back.
//
// A permission question for a call the reply shows lives in that call's
// item (message.Tool.Permission), so its answer is drawn above the output
// that came after it; a question for no known call is an item of its own.
// The agent's slash commands are kept in the store per agent
// (CommandsKnown reports them at start, before the agent runs); where one
// has the name of chipchat's own command, the agent's keeps it and
// chipchat's is "/chipchat:<name>" (Info.AgentServes, OwnPrefix, LookupSlash).
// What the send path makes of a draft's `/word` — chipchat's command, one
// this backend cannot serve, or a typo refused once — is Service.SlashFor
// (slashsend.go); the app only acts on it.
//
// Decisions where the design is silent:
//   - A new message sent while the queue is paused goes behind the queue
//     and resumes it (the user pressed enter): order is never changed.
//   - A backend that does not return within StopWait of a cancel is
//     recorded interrupted; whatever it sends later is dropped.
//   - An agent error is a notice item (level error, with the agent's
//     stderr tail) at the end of the reply, whose status is error; alt+r
//     (Retry) asks again as a new reply.
//   - A fork is titled "<title> (fork)"; queued messages are not forked.
package chat
