// Package overlay is what opens over chipchat's app (package ui): the
// Overlay interface, the stack the app keeps them on (the agent's
// questions are Guarded: they ignore keys for a moment after they come on
// top), and the overlays themselves — the help (F1), the attach prompt,
// the thread list, the stash list, a confirmation, the history search,
// the modes picker and the quote prompt.
//
// An overlay is a value: Update takes a key, a paste or a message meant
// for it and returns the overlay to keep (nil: closed), a command and a
// typed result (ThreadOpen, StashRestore, ModeChosen, …) that package ui
// acts on (ui/route.go, overlayResult). An overlay does no I/O and calls
// no service: what it needs read (a thread list, a path completion) comes
// to it as a message the app delivers (Stack.Deliver), and what it wants
// done goes back as a result or a command over plain values.
//
// Imports: bubbletea, keymap, composer and chips for drawing, and the
// value types of chat, workspace and contextref; never ui, store, assets
// or agent (ui's TestImports), and it holds no *workspace.Workspace or
// *chat.Service.
package overlay
