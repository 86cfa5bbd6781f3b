// Package overlay is what opens over chipchat's app (package ui): the
// Overlay interface, the stack the app keeps them on (the agent's
// questions are Guarded: they ignore keys for a moment after they come on
// top), and the overlays themselves — the help (F1), the attach prompt,
// the thread list, the stash list, a confirmation, the history search,
// the agent's question (Ask, over package ui/askbox), the `/` and modes
// pickers and the quote prompt.
//
// An overlay is a value: Update takes a key, a paste or a message meant
// for it and returns the overlay to keep (nil: closed), a command and a
// typed result (ThreadOpen, StashRestore, ModeChosen, …) that package ui
// acts on (ui/route.go, overlayResult). An overlay calls no service and
// does no I/O in Update or View: what it needs read (a thread list, the
// stash) comes to it as a message the app delivers (Stack.Deliver); the
// attach prompt's path completion runs in the command it returns.
//
// Imports: bubbletea, keymap, composer and chips for drawing, and the
// value types of chat, workspace and contextref; never ui, store, assets,
// agent or an I/O component — clipboard, terminal, review, mcpserver
// (ui's TestImports) — and it holds no *workspace.Workspace or
// *chat.Service.
package overlay
