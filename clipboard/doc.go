// Package clipboard carries copied chips between threads, processes and
// machines (DESIGN.md sections 3.7 and 6, issue 6).
//
// A terminal offers one text clipboard, so the typed part of a copy (the
// contextref.Fragment) travels through carriers chipchat controls:
//
//   - the fragment cache (Cache): one file per copy under the user's state
//     dir ($XDG_STATE_HOME/chipchat/clipboard, else
//     ~/.local/state/chipchat/clipboard), named by the SHA-256 hex of the
//     exact text written, mode 0600, written atomically, bounded (200
//     entries or 64 MiB, oldest evicted). A paste finds its fragment by the
//     pasted text's hash, so paste works between chipchat processes on one
//     machine over any terminal, tmux or SSH session. An entry is used only
//     when it validates (Lookup): the fragment decodes with no record
//     dropped, the cached text equals the pasted text, and every link whose
//     id has a record agrees with that record's kind. Otherwise the paste is
//     plain text and Lookup says why.
//   - the system clipboard (System): text through xclip / wl-copy run
//     directly (their arguments are known, so tests use fake programs on
//     PATH), else github.com/atotto/clipboard, else the caller writes OSC 52
//     (tea.SetClipboard); inside tmux or SSH OSC 52 is asked for as well.
//     Reading (ctrl+v) lists the clipboard's targets and takes the fragment
//     from the FragmentMIME target or the text/html carrier when offered
//     (what T3 Code's web app writes).
//
// Decision (a limit of the command-line tools): xclip and wl-copy own one
// target per selection, and each new write replaces the last one, so
// chipchat cannot offer text/plain, text/html and the FragmentMIME target at
// once without an in-process selection owner. System.Write therefore writes
// the text as text/plain (what terminals and editors paste) unless
// System.RichTarget names text/html or FragmentMIME, in which case that one
// target is written instead. Between chipchat processes the cache carries
// the fragment either way.
//
// The environment registry (Registry) maps environment ids to data
// directories in $XDG_STATE_HOME/chipchat/environments.json, so a paste can
// re-fetch image and file bytes from the environment a fragment came from;
// Import applies DESIGN.md section 6's rules. The package never imports
// store, agent or ui: the store and asset operations it needs are passed in.
package clipboard
