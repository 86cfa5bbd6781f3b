// Package terminal owns the terminal pane: a real shell in a pty, its VT
// emulator (screen + bounded scrollback), copy mode and the capture of
// terminal excerpts as contextref terminal records. It also owns the
// terminal processes the app starts besides the pane's shells: an ACP
// agent's terminals (AgentTerminals, started off the UI goroutine, and the
// app's bookkeeping of their tabs, AgentTabs), a sign-in's login
// (StartCommand), a ! command run, killed and captured (StartShellCommand,
// KillCommand, CaptureCommand, and CommandNote, the toast that says how it
// ended) and the pager on a temporary file (WritePagerFile,
// PagerCmd).
//
// It imports contextref (records, ids, UTF-16 lengths), chips
// (sanitizing) and bubbles' key (the app's bindings); never store, agent,
// ui, composer or transcript. The app (ui) wires CaptureMsg into the
// composer and shows or hides the pane.
//
// # Emulator (Screen)
//
// Screen is written here for speed (x/vt v0.1.0 moves the whole screen on
// every scrolled line): the screen is a ring of lines, so a full-screen
// scroll is O(1); the scrollback is a bounded ring whose evicted lines are
// recycled (memory is bounded by the scrollback); cells are {rune, width,
// style} with combining marks kept per line. The parser is a byte state
// machine: ESC, CSI with ';' and ':' parameters, OSC ended by BEL or ST,
// DCS/SOS/PM/APC skipped to ST. Handled: printable text with wide
// characters (go-runewidth) and autowrap with pending wrap, CR LF VT FF BS
// TAB BEL, CUU CUD CUF CUB CUP HVP CHA HPA VPA VPR CNL CPL CHT CBT, ED EL ECH
// ICH DCH IL DL REP, SU SD, DECSTBM, IND RI NEL HTS TBC, SGR (16/256/true
// colour, bold faint italic underline blink reverse invisible strike),
// DECSC/DECRC (ESC 7/8, CSI s/u), DECOM, DECAWM, IRM, DECCKM, DECTCEM, alt
// screen 47/1047/1049 (no scrollback while in it), bracketed paste 2004,
// mouse mode flags 1000/1002/1003/1006, DEC special graphics (ESC ( 0),
// RIS, DECSTR, DSR 5n/6n, DA1 (answers "\x1b[?62;22c") and DA2, OSC 0/2
// title (sanitized), OSC 7 cwd and OSC 133 A/B/C/D marks. Answers to queries
// are collected by Screen.Replies and written back to the pty by the
// Terminal, so a program that asks does not hang.
//
// Resize cuts or pads lines (no reflow); when the rows shrink, the rows
// above the cursor go to the scrollback so the cursor stays on screen.
//
// # Absolute line numbers
//
// Every line has an absolute number: main-screen row y is line
// ScreenTop()+y, where ScreenTop counts the lines that ever left the top of
// the screen. A line keeps its number while it moves into the scrollback,
// so a record's lineStart/lineEnd stay valid while output scrolls, until
// the line falls out of the scrollback (FirstLine). A record numbers lines
// from 1 (absolute line n is its line n+1), as its label does. The alternate screen
// uses the same numbers for its rows and feeds no history.
//
// # Captures
//
// CaptureLines(s, id, label, a, b, nonce) makes a record of lines a..b:
// text stripped of control sequences (chips.SanitizeLine), trailing spaces
// trimmed, label "<label> lines A-B" or "<label> line N", context id
// contextref.ToContextID("term-<id>-<A>-<B>-<nonce>") where the nonce is the
// pane's capture counter. Over 64,000 UTF-16 units the last lines are kept;
// the first text line becomes "[cut: first K lines omitted]" and takes the
// number of the last omitted line (so every text line still matches its
// number in the provider projection), and the label ends in " (cut)".
//
// QuickCapture (alt+o) takes the last command's output. With OSC 133 marks
// it is the region from the last C mark (output start) to the line before
// the next D/A mark; without them, the lines between the last two
// prompt-looking lines (a line ending in "$ ", "# ", "% ", "> ", "❯ " or
// such a sign at the line end, after at most 80 characters).
//
// Enabling OSC 133 marks:
//
//	# bash (~/.bashrc)
//	PS0='\[\e]133;C\a\]'
//	PROMPT_COMMAND='printf "\e]133;D;%s\a" "$?"'
//	PS1='\[\e]133;A\a\]'"$PS1"'\[\e]133;B\a\]'
//
//	# zsh (~/.zshrc)
//	precmd()  { print -Pn "\e]133;D;$?\a\e]133;A\a" }
//	preexec() { print -n "\e]133;C\a" }
//	PS1="$PS1"$'%{\e]133;B\a%}'
//
// The shell sees CHIPCHAT_TERMINAL=<terminal id> so an rc file can enable
// them only inside chipchat.
//
// # Terminal
//
// Terminal runs a program (default $SHELL, else /bin/sh) in a pty
// (creack/pty) as the leader of a new session. A goroutine reads the pty
// and writes into the Screen under the terminal's mutex; updates are
// signalled on a 1-slot channel and delivered by Wait() as UpdatedMsg, at
// most one per FrameInterval (60 fps), so a flood never blocks the UI nor
// queues messages. When the program exits, "[process exited N]" is written
// ("[process killed (SIGKILL)]" when a signal ended it, see ExitNote)
// and ExitedMsg{ID, Code} is sent; Start again restarts it. Close sends
// SIGHUP (then SIGKILL) to the process group and kills every process left
// in the pty's session (read from /proc on Linux), so nothing is orphaned;
// CloseTerminals (and Closing, as a command) closes several, off the UI
// goroutine.
// Terminal.Spawn (and Pane.Spawn for its shells, StartShellCommandWith for
// a ! command) makes the command elsewhere: a remote project's is ssh -tt
// over its master, given the pty like any program.
//
// # Pane
//
// Pane is the Bubble Tea component holding several terminals ("Terminal 1",
// id "term-1", …) with a title row. While focused, every key goes to the
// shell (KeyBytes: text, enter, backspace, tab, arrows with DECCKM and
// modifiers, home/end, pgup/pgdn, F-keys, ctrl+letters, alt as ESC prefix)
// except: ctrl+t (FocusComposerMsg: the app returns to the composer),
// ctrl+space (copy mode), alt+o (quick capture), shift+pgup/pgdn
// (scrollback). The mouse wheel scrolls the scrollback (in the alternate
// screen it sends arrows to the program). Paste honours bracketed paste.
// After the program exited any key restarts it.
//
// Copy mode: a cursor over screen and scrollback; arrows/hjkl, pgup/pgdn,
// g/G, 0/$ move; v or space starts (or drops) a line selection; y or enter
// captures (CaptureMsg{Record}, or CaptureFailedMsg); esc or q leaves.
//
// The pane also owns its app keys (AppKey, with AppKeys from the app's key
// table): add (NewTerminal), switch (Next), zoom and move the split beside
// the transcript (Pane.Layout, Pane.Right) are done here; leave, hide and
// close come back as an Action for the app, which owns the focus, the
// toasts and whether a terminal may close (CloseActive, CloseAll on quit).
// Split gives the app the pane's and the transcript's share of the area;
// the app shows or hides the pane and SetSize resizes the ptys. A terminal started by someone
// else (an agent's command: Env, NoRestart, Done, ExitSignal) joins with
// Add, is shown with Show and taken out with Remove. View reads only the visible
// rows under the lock and does no I/O.
package terminal
