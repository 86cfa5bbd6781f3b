// Package workspace is the project's storage as the UI sees it: the
// project's threads (list, rename, delete, a new one, opening one with its
// messages and draft), drafts and their revisions, the draft autosave's
// schedule (Autosave) and bookkeeping (DraftSaves: the version on disk, the
// pending tick, the running write, failed saves kept and retried, a stopped
// quit), the prompt stash, the prompt history and the stepping through it
// (HistorySteps) with each entry's one-line Title (chips as labels), the
// # picker's thread source, a thread's row and its delete question (title,
// age, message count), attachment binding and paste import (bytes into
// the asset store, a fresh local id bound to them; a pasted image path read
// by PastedImagePath and kept by AttachImage), opening a chip's file, and
// the attachment-limit check of the agent's limits, which main passes in.
//
// Its methods never block the caller: a method that reads or writes the
// store or the asset store returns a func that does it, for the UI to run
// off its goroutine (package ui wraps each in a Bubble Tea command); the
// others answer at once from memory (DraftSaves and HistorySteps do no I/O
// at all: the UI tells them what happened and does what they answer). The exceptions are called off the UI
// goroutine by design: Open (main, before the UI starts),
// ThreadSource.List (the composer's # picker runs it in a command) and
// KeepStream (the paste filter's reader). It defines its own plain types
// (Thread, Draft, StashEntry, HistoryEntry, ThreadRef), not the store's;
// Opened.Messages alone are the store's messages, which the UI hands on to
// chat and the transcript without naming their type.
//
// Project (project.go) is where the project is: Local here, or a remote
// project main adapts from package remote; its Key names the project in
// the store and the UI reaches the `@` file list, the shells and git
// through it.
//
// workspace imports store, assets, contextref and message; it never
// imports ui, chat, Bubble Tea or a component (composer, chips,
// transcript, terminal, review, clipboard). main.go wires the store and
// the asset store into it and gives the UI the Workspace.
package workspace
