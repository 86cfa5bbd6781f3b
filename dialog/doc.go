// Package dialog is what opens over chipchat's app: the Overlay interface
// (dialog.go) and the dialogs that satisfy it, one file each — the help
// (F1, help.go), the attach prompt (attach.go), the thread list
// (threads.go), the stash list (stash.go), a yes/no confirmation
// (confirm.go), the prompt history search (history.go), the search in the
// thread (search.go) and of every thread (find.go), the export prompt
// (export.go), the `/` picker (commands.go; what it offers and how it
// reads and writes the draft's first word, slash.go), the modes and models
// picker (modes.go), the quote prompt (quote.go), the agent's elicitation
// form (elicit.go) and the agent's question — a permission or a sign-in —
// (the box, question.go; its place on the stack, ask.go).
//
// A dialog is a value: Update takes a key, a paste or a message meant for
// it and returns the dialog to keep (nil: closed), a command and a typed
// result (ThreadOpen, StashRestore, ModeChosen, …) that package ui acts on
// (ui/route.go, overlayResult). A dialog calls no service and does no I/O
// in Update or View: what it needs read (a thread list, the stash) comes
// to it as a message the app delivers (ui/overlay's Stack.Deliver); the
// attach prompt's path completion runs in the command it returns. The
// stack that holds them, the guard on the agent's questions and the
// routing are package ui's (ui/overlay, ui/route.go).
//
// Imports: bubbletea, the key table (ui/keymap: the bindings, scopes and
// hint phrases), composer, chips and transcript for drawing, and the value
// types of chat, workspace, message and contextref; never package ui or
// ui/overlay, store, assets, agent or an I/O component — clipboard,
// terminal, review, mcpserver (TestImports) — and it holds no
// *workspace.Workspace or *chat.Service. Only package ui and its stack
// (ui/overlay) import it.
package dialog
