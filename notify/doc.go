// Package notify decides when chipchat tells the user that a turn ended,
// failed or that the agent asks a question, and encodes the notification
// for the terminal (issue 27).
//
// It owns: the [notify] settings' meaning (which events, which method, the
// shortest turn that notifies when the terminal never reports focus), the
// focus state as the terminal reported it (DECSET 1004), the choice of
// sequence — OSC 9, OSC 777 where the terminal is known to prefer it, BEL
// otherwise — the tmux rules (inside tmux the sequence is wrapped in tmux's
// DCS passthrough when allow-passthrough is on, else BEL; focus is asked
// for only when focus-events is on) and the sanitizing of the text (the
// thread title and a short reason: no control characters, bidi controls or
// sequence separators, bounded length).
//
// The decision (Decide) and the encoding (Encode, Sanitize) are pure.
// Probe is the one function that does I/O: it reads the environment and
// `tmux show -gv` once; the app runs it off its UI goroutine.
//
// It imports nothing of the project; it must never import ui, chat, the
// store or a component: the app hands it events, times and titles.
//
// Its line in DESIGN.md section 2's package list (DESIGN.md lives outside
// this repository, so the line is kept here until it is added there):
//
//	notify/      turn-end, error and question notifications: [notify] settings, focus state,
//	             OSC 9 / OSC 777 / BEL and tmux passthrough, sanitized text (pure but Probe)
//
// Decision table (Decide), for an event that is in [notify] on and a
// method other than "off":
//
//	focus reported   turn length        notifies
//	blurred          any                yes
//	focused          any                no
//	never            >= min_turn        yes
//	never            < min_turn         no
package notify
