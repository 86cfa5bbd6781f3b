// Package ui is chipchat's application: the whole-screen Bubble Tea model
// that wires the components to the conversation.
//
// It owns: layout (header with the thread, the turn's phase and the
// agent's mode and model; the transcript or a pane — terminal, review —
// and overlays in the main area; the queue of messages waiting behind a
// turn; the image shelf; the composer; the hint bar), focus between panes,
// the key table (package ui/keymap; the config file is package config),
// the overlay stack (package ui/overlay; the dialogs on it are package
// dialog's),
// toasts, copy and paste through package clipboard, the draft's autosave
// timer and save commands (the bookkeeping is workspace.DraftSaves), and
// drawing what package chat reports. The project's storage — threads, drafts and
// their revisions, the stash, the prompt history, attachments and paste
// import, the attachment-limit check — is package workspace's, reached
// through its non-blocking methods.
//
// It holds no conversation state of its own: sending, the turn's phases,
// the queue, retry, cancel, fork, permissions and quitting belong to
// chat.Service, which the app calls (Send, Cancel, Retry, Unqueue,
// AnswerPermission, Quit, …) and listens to (Wait, as chatMsg batches).
// The UI keeps only what it draws: the open thread's phase, queue and
// agent info as the last events said, and the prompts open on screen.
//
// The ACP client's UI (issue 12): one slash-command table (chat's; the
// send path's reading of a /word is chat.Service.SlashFor, what each
// command does is commands.go's) feeds the `/` picker, the send path, F1
// and the README; the modes and
// models picker (modes.go: alt+m, /mode, /model) calls chat's SetMode and
// SetConfigOption; an agent's terminals are tabs of the terminal pane
// (agentterm.go: AgentTerminals, which main's agent.TerminalHost adapter
// starts them through, hands started terminals to the app through a
// channel), as is a terminal sign-in's
// login; mcp.go reads [[mcp_servers]], gives every session chipchat mcp
// and keeps the panes socket's list of terminals current. Attachments
// over the backend's limit are refused before sending.
//
// The habits of Claude Code and Codex users (issue 15): ui/keymap is the
// one key table (name, scopes, default keys, help) behind every key struct,
// the config's [keys], F1 and the hint bar; history.go wires the
// project's prompt history (workspace.History, stepped by
// workspace.HistorySteps, recalled into the draft by composer.Recall) to
// the composer and the search; shell.go is ! shell mode, whose commands
// run as terminal-pane tabs and come back as terminal-excerpt chips
// (terminal.CaptureCommand, CommandNote). The terminal pane does its own
// keys and split (terminal.Pane.AppKey, Split); terminal.go keeps its
// focus, hiding, closing and toasts.
//
// The draft is the editor's: the app changes it only through
// composer.Editor and composer.Draft methods.
//
// Overlays (package dialog: the help, attach, the thread list, the stash,
// a confirmation, the history and thread searches, the export prompt, the
// agent's questions and elicitation form, the `/` and modes pickers and
// the quote prompt) are values on one stack (ui/overlay's Stack). Each
// implements dialog.Overlay: Update takes a message and returns
// the overlay to keep (nil: closed), a command and a typed result the app
// acts on (overlayResult, route.go); View draws it at a size; keymap.Scope names
// its keys. None holds the app. An agent's question goes on top of what is
// open (after questions already waiting), and keys are ignored for
// [ui] question_guard (300 ms) after it comes on top.
//
// Routing (route.go) — a key goes down this table until one step takes it:
//
//	step  who                         takes
//	1     quit                        always (quit saves everything)
//	2     the overlay stack's top     every key and paste; the / picker passes typing on
//	3     the review pane, when open  every key (its toggle closes it)
//	4     the terminal pane, focused  every key (its own rows first, then the shell)
//	5     ! shell mode                "!" on an empty draft, its leave and kill keys
//	6     the app's keys              the key table's global and main rows (appKey, threadKey)
//	7     the focused pane            the transcript or the image shelf
//	8     the composer                history steps on its first/last line, then the editor
//
// Every other message has one handler in the message table (route.go);
// what is in none goes to the components.
//
// esc closes the innermost open thing — a picker, a popup or prompt
// (a permission prompt answers the agent's reject option), a selection, a
// pane's mode (focus goes back to the composer) — and cancels the running
// turn only when nothing is open; ctrl+c cancels the running turn from
// anywhere, answering the agent's pending questions cancelled.
//
// Update and View do no I/O: the workspace, git, the clipboard and the
// agent are reached through commands or through chat, whose methods never
// block on I/O.
//
// Imports: every component (composer, chips, transcript, terminal, review,
// clipboard), dialog, its subpackages (ui/keymap, ui/overlay),
// chat, workspace and mcpserver (the panes socket and
// chipchat mcp's spec); never agent, store or assets (main.go wires them;
// TestImports). No component imports ui.
package ui
