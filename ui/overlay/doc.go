// Package overlay is the stack chipchat's app (package ui) keeps its
// open dialogs on (package dialog's Overlay values, the top one last):
// keys and pastes go to the top, a result a dialog waits for is delivered
// to it, and the agent's questions are Guarded — they ignore keys for a
// moment after they come on top.
//
// Imports: bubbletea and package dialog's interface; never ui, store,
// assets, agent or an I/O component (ui's TestImports).
package overlay
