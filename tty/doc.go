// Package tty owns the terminal chipchat draws on while the app runs: its
// raw mode, the modes the app asks for (the alternate screen, mouse
// reports, bracketed paste, focus reports, the keyboard protocol, the
// window title) and the frames.
//
// It replaces Bubble Tea's renderer (which parses every frame into a cell
// buffer and diffs it, on a 60 fps ticker that wakes the process whether
// or not anything moved). A frame here is the app's View text: its lines
// are compared with the lines last written, and only the changed ones are
// written, each from its first column (autowrap off, so a line the
// terminal measures wider than the app did is clipped, never wrapped
// into the next one), in one synchronized update (mode 2026). Frames are
// written by one goroutine, at most one per frame interval; nothing is
// written and nothing wakes when nothing changed.
//
// Painter is the pure part (frame text in, bytes out); Terminal is the
// process's terminal: raw mode, SIGWINCH, the writer goroutine, and
// Release/Resume around a program that takes the terminal (an editor, a
// pager). Frame and Raw never block on the terminal.
//
// It imports charm's ansi and colorprofile and x/term; never Bubble Tea
// nor any of chipchat's packages. main.go wires it between Bubble Tea's
// View and the terminal.
package tty
