// Package askbox is the prompt for the agent's open question: a
// permission (what the tool call will do — its title, kind, command, each
// diff — and the agent's options with their kinds) or a sign-in method.
// It owns the prompt's selection, scrolling and drawing, and answers with
// a typed result; overlay.Ask (package ui/overlay) puts it on the app's
// overlay stack. It must not import store, agent or package ui.
package askbox
