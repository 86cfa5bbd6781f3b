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
//   - the system clipboard (System): on X11 (DISPLAY set, xclip on PATH)
//     a copy with chips goes to chipchat's own selection owner (ServeX11,
//     github.com/jezek/xgb), which serves every target at once: the text
//     (UTF8_STRING, STRING, TEXT, text/plain, text/plain;charset=utf-8),
//     the HTML carrier under text/html and the fragment JSON under
//     FragmentMIME, so a browser-based T3 Code takes the fragment. It runs
//     as the hidden subcommand "chipchat __clipboard-serve" (ServeMain,
//     started detached in its own session by StartX11Owner, which waits
//     until the process owns CLIPBOARD), so the selection outlives the
//     chipchat that copied, like xclip's daemon; it exits when another
//     client takes the clipboard (SelectionClear) or the X server goes
//     away. It answers TARGETS, TIMESTAMP and the targets above, refuses
//     anything else (MULTIPLE included) with property None, and sends a
//     payload larger than one X request with INCR. On Wayland
//     (WAYLAND_DISPLAY set, wl-copy on PATH) the same subcommand in
//     "wayland" mode (ServeWayland, started by StartWaylandOwner) sets the
//     clipboard through wlr-data-control (zwlr_data_control_manager_v1,
//     spoken over the Wayland wire protocol in pure Go: no libwayland, no
//     cgo) with the same MIME types, writes each paste to the file
//     descriptor the compositor sends, and exits when its source is
//     cancelled (another client took the clipboard) or the compositor goes
//     away; compositors without data-control (GNOME's Mutter) make it fail
//     to start. Plain copies, and any
//     copy when the owner cannot start, go through xclip / wl-copy run
//     directly (their arguments are known, so tests use fake programs on
//     PATH), else github.com/atotto/clipboard, else the caller writes OSC
//     52 (tea.SetClipboard); inside tmux or SSH OSC 52 is asked for as
//     well. Reading (ctrl+v) lists the clipboard's targets and takes the
//     fragment from the FragmentMIME target or the text/html carrier when
//     offered (what T3 Code's web app writes).
//
// Decision (a limit of the command-line tools): xclip and wl-copy own one
// target per selection, and each new write replaces the last one. When
// chipchat's own owner (X11 or Wayland) cannot start, System.Write
// therefore writes the text as text/plain (what terminals and editors
// paste) unless System.RichTarget names text/html or FragmentMIME, in which
// case that one target is written instead. Between chipchat processes the
// cache carries the fragment either way.
//
// The environment registry (Registry) maps environment ids to data
// directories in $XDG_STATE_HOME/chipchat/environments.json, so a paste can
// re-fetch image and file bytes from the environment a fragment came from;
// Import applies DESIGN.md section 6's rules (Importer binds it to an
// environment for the app's pastes; WriteResult.Note is a copy's toast,
// ImportResult.Summary a paste's).
// The package never imports store, agent or ui: the store and asset
// operations it needs are passed in.
package clipboard
