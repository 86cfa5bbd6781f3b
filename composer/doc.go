// Package composer is chipchat's draft (DESIGN.md section 4): the pure draft
// model and the Bubble Tea editor around it.
//
// It owns: the Draft — lines of atoms in which a rune is prose and a
// negative atom indexes a chip occurrence, plus the records keyed by
// context id and the image shelf — so "the caret never enters a chip" is
// true by construction and undo is a list of deltas; canonical Markdown in
// and out (FromMarkdown, Markdown: reference links and assistant-quote
// links as atomic chips); motion, selection, deletion, undo/redo, and
// which chip beside the caret expands back into prose (TextChipNearCaret); the
// pickers that insert chips (@ files, $ skills, # threads) and their
// listings (files from git or a bounded walk, skills from the skill
// directories, threads from an injected provider), all loaded in tea.Cmds;
// the editor's key map; drawing the draft with chips through the chips
// registry, wrapped, with invisible and bidi controls shown as marks; the
// rows drawn above it: the image shelf (Shelf) and the queue of messages
// waiting to be sent (QueueView, from the titles the app gives); and
// recalling earlier prompts into the draft (Recall: the typed draft kept
// while stepping, an edit seen; RecallsOn: where up and down recall).
//
// The editor is the one owner of the draft: the app changes it only
// through Editor and Draft methods (SetDraft, Reset, InsertChip,
// InsertCitation, QuoteAtCaret, …) and is told of a send by SubmitMsg. A keystroke costs
// time proportional to the line it touches, never to the whole draft.
//
// Imports: contextref and chips of the project, and the Charm libraries.
// It must not import store, agent, chat, transcript or ui: the app feeds it
// records and providers and acts on its messages.
package composer
