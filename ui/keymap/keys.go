package keymap

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/review"
	"github.com/chipchat/chipchat/transcript"
)

// One key table (keyTable below) holds every key chipchat answers to: its
// config name, the scopes it acts in, its default keys and its help text.
// The table drives the key structs (AppKeys, composer.KeyMap,
// transcript.KeyMap, OverlayKeys), the defaults, the names the config's
// [keys] table accepts, F1 and --help, the hint bar and every overlay.
//
// Adding a key is one row in keyTable plus the key.Binding field the row
// points at (in AppKeys for an app action, OverlayKeys for a popup's key);
// the code then matches it with key.Matches(msg, a.keys.TheField). A new
// popup adds its Scope constant here too. TestKeyTable fails when a row
// lacks a name, scope or help, or a field has no row.

// Scope is where a key acts. Two actions may share a key only when their
// scopes never meet: keys of ScopeMain act in the composer, the transcript
// and the shelf; ScopeGlobal keys act everywhere, popups included.
type Scope string

const (
	ScopeGlobal     Scope = "global"     // everywhere
	ScopeMain       Scope = "main"       // the composer, the transcript and the shelf
	ScopeComposer   Scope = "composer"   // the composer has focus
	ScopeTranscript Scope = "transcript" // the transcript has focus
	ScopeDetails    Scope = "details"    // a chip's details are open in the transcript
	ScopeShelf      Scope = "shelf"      // the image shelf has focus
	ScopeTerminal   Scope = "terminal"   // the terminal pane has focus
	ScopePicker     Scope = "picker"     // the @, $ or / picker is open in the composer
	ScopeModes      Scope = "modes"      // the modes picker (alt+m; a picker too)
	ScopeShell      Scope = "shell"      // the composer in ! shell mode
	ScopeShellRun   Scope = "shell_run"  // a ! command is running
	ScopeHelp       Scope = "help"       // the F1 popup
	ScopeAttach     Scope = "attach"     // the attach path prompt
	ScopeThreads    Scope = "threads"    // the thread list
	ScopeRename     Scope = "rename"     // the thread list's rename field
	ScopeStash      Scope = "stash"      // the stash list
	ScopeHistory    Scope = "history"    // the prompt history search
	ScopeAsk        Scope = "ask"        // the agent's question or permission request
	ScopeElicit     Scope = "elicit"     // the agent's form or link (an elicitation)
	ScopeConfirm    Scope = "confirm"    // a yes/no question
	ScopeReview     Scope = "review"     // the review pane (ui/review.go)
	ScopeComment    Scope = "comment"    // the review pane's comment editor
	ScopeQuote      Scope = "quote"      // the comment prompt of a quote (Q; ui/quote.go)
	ScopeExport     Scope = "export"     // the /export path prompt
	ScopeSearch     Scope = "search"     // the transcript's search field (/)
	ScopeFind       Scope = "find"       // the search of every thread (ctrl+f in the thread list)
)

// scopes lists every scope in help order, with the heading F1 shows.
var scopes = []struct {
	s     Scope
	title string
}{
	{ScopeGlobal, "Everywhere"},
	{ScopeMain, "Composer, transcript and shelf"},
	{ScopeComposer, "In the composer"},
	{ScopePicker, "In the composer's @ / $ / / picker"},
	{ScopeModes, "In the modes picker (alt+m)"},
	{ScopeShell, "In ! shell mode"},
	{ScopeShellRun, "While a ! command runs"},
	{ScopeTranscript, "In the transcript"},
	{ScopeDetails, "In a chip's details"},
	{ScopeSearch, "In the transcript's search field (/)"},
	{ScopeShelf, "In the image shelf"},
	{ScopeTerminal, "In the terminal pane (other keys go to the shell)"},
	{ScopeHelp, "In this help"},
	{ScopeAttach, "In the attach prompt"},
	{ScopeExport, "In the /export prompt"},
	{ScopeThreads, "In the thread list"},
	{ScopeFind, "In the search of every thread (ctrl+f in the thread list)"},
	{ScopeRename, "In the rename field"},
	{ScopeStash, "In the stash list"},
	{ScopeHistory, "In the history search (ctrl+r)"},
	{ScopeAsk, "When the agent asks"},
	{ScopeElicit, "In the agent's form or link (it asks for input)"},
	{ScopeConfirm, "In a yes/no question"},
	{ScopeReview, "In the review pane (alt+g, /review)"},
	{ScopeComment, "In the review pane's comment editor"},
	{ScopeQuote, "In a quote's comment prompt (Q in a transcript selection)"},
}

// within are the concrete places a scope's keys act in.
func within(s Scope) []Scope {
	switch s {
	case ScopeGlobal:
		out := make([]Scope, 0, len(scopes))
		for _, x := range scopes {
			if x.s != ScopeGlobal && x.s != ScopeMain {
				out = append(out, x.s)
			}
		}
		return out
	case ScopeMain:
		return []Scope{ScopeComposer, ScopeTranscript, ScopeShelf}
	}
	return []Scope{s}
}

// AppKeys are the app-level keys; the composer and transcript have their
// own maps, the popups OverlayKeys.
type AppKeys struct {
	Quit      key.Binding
	Interrupt key.Binding
	Help      key.Binding
	FocusNext key.Binding
	FocusPrev key.Binding
	Cancel    key.Binding
	Attach    key.Binding
	NewThread key.Binding
	Threads   key.Binding
	Retry     key.Binding
	Unqueue   key.Binding

	// Copy and paste (ui/clipboard.go) and the prompt stash (ui/stash.go).
	// ctrl+c with a composer selection copies it (Interrupt otherwise).
	Cut         key.Binding
	Paste       key.Binding
	ExpandPaste key.Binding
	Stash       key.Binding
	StashList   key.Binding

	// Prompt history (ui/history.go): Up and Down of the composer's map
	// step through it; HistorySearch opens the fuzzy search.
	HistorySearch key.Binding

	// Review opens the review pane (ui/review.go) on git's diff; pressed
	// in the pane (outside its comment editor) it closes it.
	Review key.Binding

	// Modes opens the agent's modes and models picker (ui/modes.go).
	Modes key.Binding

	// The terminal pane. Terminal opens it (and, pressed in the pane, goes
	// back to the composer); HidePane hides or shows it; the others act
	// only while the pane has focus (every other key goes to the shell
	// there).
	Terminal      key.Binding
	HidePane      key.Binding
	NewTerminal   key.Binding
	CloseTerminal key.Binding
	NextTerminal  key.Binding
	PrevTerminal  key.Binding
	ZoomTerminal  key.Binding
	TerminalSide  key.Binding
	CopyMode      key.Binding
	QuickCapture  key.Binding
}

// OverlayKeys are the popups' keys and the editing keys of their one-line
// fields.
type OverlayKeys struct {
	// one-line fields: the attach path, the rename field, a list's filter
	FieldLeft       key.Binding
	FieldRight      key.Binding
	FieldStart      key.Binding
	FieldEnd        key.Binding
	FieldDeleteBack key.Binding
	FieldDeleteFwd  key.Binding
	FieldDeleteWord key.Binding
	FieldClear      key.Binding
	FieldKillEnd    key.Binding
	// lists: threads, stash, history
	ListNext key.Binding
	ListPrev key.Binding

	HelpClose    key.Binding
	HelpDown     key.Binding
	HelpUp       key.Binding
	HelpPageDown key.Binding
	HelpPageUp   key.Binding

	AttachChoose   key.Binding
	AttachComplete key.Binding
	AttachCancel   key.Binding

	ExportWrite  key.Binding
	ExportCopy   key.Binding
	ExportCancel key.Binding

	SearchGo     key.Binding
	SearchCancel key.Binding

	ThreadsFind key.Binding
	FindOpen    key.Binding
	FindScope   key.Binding
	FindClose   key.Binding

	ThreadsOpen   key.Binding
	ThreadsRename key.Binding
	ThreadsDelete key.Binding
	ThreadsClose  key.Binding
	RenameSave    key.Binding
	RenameCancel  key.Binding

	StashRestore key.Binding
	StashDelete  key.Binding
	StashClose   key.Binding

	HistoryChoose key.Binding
	HistoryClose  key.Binding

	ShelfLeft   key.Binding
	ShelfRight  key.Binding
	ShelfRemove key.Binding
	ShelfOpen   key.Binding

	ShellLeave key.Binding
	ShellKill  key.Binding

	AskUp       key.Binding
	AskDown     key.Binding
	AskPageDown key.Binding
	AskPageUp   key.Binding
	AskChoose   key.Binding

	ElicitNext, ElicitPrev, ElicitLeft, ElicitRight key.Binding
	ElicitToggle, ElicitAccept, ElicitDecline       key.Binding
	ElicitCancel, ElicitCopy                        key.Binding

	ConfirmYes key.Binding
	ConfirmNo  key.Binding

	QuoteInsert key.Binding
	QuoteDrop   key.Binding
}

// Keys is every binding of the app, built from keyTable.
type Keys struct {
	AppKeys
	OverlayKeys
	Editor     composer.KeyMap
	Transcript transcript.KeyMap
	ReviewPane review.KeyMap
}

// KeyDef is one row of the key table.
type KeyDef struct {
	Name   string   // its name in the config's [keys] table
	Scopes []Scope  // where it acts
	Keys   []string // its default keys
	Help   string   // what it does, for F1 and --help
	// Yield: the default keys give way to a key the config binds
	// explicitly to another action (keys added after configs existed).
	Yield bool
	field func(*Keys) *key.Binding
}

func row(name string, s []Scope, keys []string, help string, f func(*Keys) *key.Binding) KeyDef {
	return KeyDef{Name: name, Scopes: s, Keys: keys, Help: help, field: f}
}

func sc(s ...Scope) []Scope   { return s }
func ks(k ...string) []string { return k }
func yield(d KeyDef) KeyDef   { d.Yield = true; return d }
func app(f func(*AppKeys) *key.Binding) func(*Keys) *key.Binding {
	return func(k *Keys) *key.Binding { return f(&k.AppKeys) }
}
func ov(f func(*OverlayKeys) *key.Binding) func(*Keys) *key.Binding {
	return func(k *Keys) *key.Binding { return f(&k.OverlayKeys) }
}
func ed(f func(*composer.KeyMap) *key.Binding) func(*Keys) *key.Binding {
	return func(k *Keys) *key.Binding { return f(&k.Editor) }
}
func tr(f func(*transcript.KeyMap) *key.Binding) func(*Keys) *key.Binding {
	return func(k *Keys) *key.Binding { return f(&k.Transcript) }
}
func rv(f func(*review.KeyMap) *key.Binding) func(*Keys) *key.Binding {
	return func(k *Keys) *key.Binding { return f(&k.ReviewPane) }
}

var (
	fields = sc(ScopeAttach, ScopeRename, ScopeThreads, ScopeStash, ScopeHistory, ScopeQuote, ScopeExport, ScopeSearch, ScopeFind)
	lists  = sc(ScopeThreads, ScopeStash, ScopeHistory, ScopeFind)
	// ctrl+f is the thread list's search of every thread (issue 27), so
	// there the caret moves right with the right arrow only (the field's
	// key map still has both: ctrl+f is taken before the field sees it).
	fieldsRight = sc(ScopeAttach, ScopeRename, ScopeStash, ScopeHistory, ScopeQuote, ScopeExport, ScopeSearch, ScopeFind)
)

// keyTable is every key, in help order.
var keyTable = []KeyDef{
	row("quit", sc(ScopeGlobal), ks("ctrl+q"), "quit", app(func(k *AppKeys) *key.Binding { return &k.Quit })),
	row("interrupt", sc(ScopeMain), ks("ctrl+c"), "cancel the running turn from anywhere (pending agent questions answered cancelled) / clear the draft / twice: quit", app(func(k *AppKeys) *key.Binding { return &k.Interrupt })),
	row("help", sc(ScopeMain), ks("f1"), "show all keys (? on an empty draft)", app(func(k *AppKeys) *key.Binding { return &k.Help })),
	row("focus_next", sc(ScopeMain), ks("tab"), "next pane", app(func(k *AppKeys) *key.Binding { return &k.FocusNext })),
	row("focus_prev", sc(ScopeMain), ks("shift+tab"), "previous pane", app(func(k *AppKeys) *key.Binding { return &k.FocusPrev })),
	row("cancel", sc(ScopeMain), ks("esc"), "close the innermost open thing (picker, popup, prompt, selection, pane); with nothing open, cancel the running turn", app(func(k *AppKeys) *key.Binding { return &k.Cancel })),
	row("attach", sc(ScopeMain), ks("ctrl+o"), "attach a file or image", app(func(k *AppKeys) *key.Binding { return &k.Attach })),
	row("new_thread", sc(ScopeMain), ks("ctrl+n"), "new thread (saved once it has a message or a draft)", app(func(k *AppKeys) *key.Binding { return &k.NewThread })),
	row("threads", sc(ScopeMain), ks("ctrl+l"), "switch, rename or delete threads", app(func(k *AppKeys) *key.Binding { return &k.Threads })),
	row("retry", sc(ScopeMain), ks("alt+r"), "ask the agent again after an error or an interruption", app(func(k *AppKeys) *key.Binding { return &k.Retry })),
	row("unqueue", sc(ScopeComposer), ks("alt+up"), "take the last queued message back into the empty draft", app(func(k *AppKeys) *key.Binding { return &k.Unqueue })),
	row("steer", sc(ScopeComposer), ks("alt+i"), "while a turn runs, send the message into it (when the agent can steer; else it is queued)", ed(func(k *composer.KeyMap) *key.Binding { return &k.Steer })),
	yield(row("cut", sc(ScopeComposer), ks("ctrl+x"), "cut the composer selection (ctrl+c with a selection copies it)", app(func(k *AppKeys) *key.Binding { return &k.Cut }))),
	yield(row("paste", sc(ScopeComposer), ks("ctrl+v"), "paste from the system clipboard (chips included)", app(func(k *AppKeys) *key.Binding { return &k.Paste }))),
	yield(row("expand_paste", sc(ScopeComposer), ks("alt+e"), "expand the pasted-text chip beside the caret into prose", app(func(k *AppKeys) *key.Binding { return &k.ExpandPaste }))),
	yield(row("stash", sc(ScopeMain), ks("ctrl+s"), "stash the draft and clear the composer", app(func(k *AppKeys) *key.Binding { return &k.Stash }))),
	yield(row("stash_list", sc(ScopeMain), ks("ctrl+alt+s"), "list the stash: restore or delete an entry", app(func(k *AppKeys) *key.Binding { return &k.StashList }))),
	yield(row("history_search", sc(ScopeComposer), ks("ctrl+r"), "search the project's earlier prompts (up/down on the first line step through them)", app(func(k *AppKeys) *key.Binding { return &k.HistorySearch }))),
	yield(row("modes", sc(ScopeMain), ks("alt+m"), "switch the agent's mode or model (also /mode, /model)", app(func(k *AppKeys) *key.Binding { return &k.Modes }))),
	yield(row("review", sc(ScopeMain, ScopeReview), ks("alt+g"), "review the diff: v selects lines, c comments, each comment a chip (/review --staged, /review main); in the pane: close it", app(func(k *AppKeys) *key.Binding { return &k.Review }))),

	row("terminal", sc(ScopeMain, ScopeTerminal), ks("ctrl+t"), "terminal pane: open it / back to the composer", app(func(k *AppKeys) *key.Binding { return &k.Terminal })),
	yield(row("hide_pane", sc(ScopeMain, ScopeTerminal), ks("alt+h"), "hide or show the terminal pane", app(func(k *AppKeys) *key.Binding { return &k.HidePane }))),
	row("new_terminal", sc(ScopeTerminal), ks("alt+n"), "another terminal", app(func(k *AppKeys) *key.Binding { return &k.NewTerminal })),
	yield(row("close_terminal", sc(ScopeTerminal), ks("alt+w"), "close the current terminal (its shell ends)", app(func(k *AppKeys) *key.Binding { return &k.CloseTerminal }))),
	row("next_terminal", sc(ScopeTerminal), ks("alt+."), "next terminal", app(func(k *AppKeys) *key.Binding { return &k.NextTerminal })),
	row("prev_terminal", sc(ScopeTerminal), ks("alt+,"), "previous terminal", app(func(k *AppKeys) *key.Binding { return &k.PrevTerminal })),
	row("zoom_terminal", sc(ScopeTerminal), ks("alt+z"), "zoom / split", app(func(k *AppKeys) *key.Binding { return &k.ZoomTerminal })),
	row("terminal_side", sc(ScopeTerminal), ks("alt+s"), "split right / bottom", app(func(k *AppKeys) *key.Binding { return &k.TerminalSide })),
	row("copy_mode", sc(ScopeTerminal), ks("ctrl+space", "ctrl+@"), "copy mode (v select, y capture)", app(func(k *AppKeys) *key.Binding { return &k.CopyMode })),
	row("quick_capture", sc(ScopeTerminal), ks("alt+o"), "capture the last command's output", app(func(k *AppKeys) *key.Binding { return &k.QuickCapture })),

	row("send", sc(ScopeComposer, ScopeShell), ks("enter"), "send (in ! mode: run the command)", ed(func(k *composer.KeyMap) *key.Binding { return &k.Submit })),
	row("newline", sc(ScopeComposer), ks("shift+enter", "alt+enter", "ctrl+j"), "new line", ed(func(k *composer.KeyMap) *key.Binding { return &k.Newline })),
	row("left", sc(ScopeComposer), ks("left", "ctrl+b"), "left", ed(func(k *composer.KeyMap) *key.Binding { return &k.Left })),
	row("right", sc(ScopeComposer), ks("right", "ctrl+f"), "right", ed(func(k *composer.KeyMap) *key.Binding { return &k.Right })),
	row("word_left", sc(ScopeComposer), ks("alt+left", "ctrl+left", "alt+b"), "word left", ed(func(k *composer.KeyMap) *key.Binding { return &k.WordLeft })),
	row("word_right", sc(ScopeComposer), ks("alt+right", "ctrl+right", "alt+f"), "word right", ed(func(k *composer.KeyMap) *key.Binding { return &k.WordRight })),
	row("up", sc(ScopeComposer), ks("up"), "up (on the first line: the previous prompt of the history)", ed(func(k *composer.KeyMap) *key.Binding { return &k.Up })),
	row("down", sc(ScopeComposer), ks("down"), "down (on the last line in the history: the next prompt)", ed(func(k *composer.KeyMap) *key.Binding { return &k.Down })),
	row("line_start", sc(ScopeComposer), ks("home", "ctrl+a"), "line start", ed(func(k *composer.KeyMap) *key.Binding { return &k.LineStart })),
	row("line_end", sc(ScopeComposer), ks("end", "ctrl+e"), "line end", ed(func(k *composer.KeyMap) *key.Binding { return &k.LineEnd })),
	row("draft_start", sc(ScopeComposer), ks("ctrl+home", "alt+<"), "draft start", ed(func(k *composer.KeyMap) *key.Binding { return &k.DocStart })),
	row("draft_end", sc(ScopeComposer), ks("ctrl+end", "alt+>"), "draft end", ed(func(k *composer.KeyMap) *key.Binding { return &k.DocEnd })),
	row("select_left", sc(ScopeComposer), ks("shift+left"), "select left", ed(func(k *composer.KeyMap) *key.Binding { return &k.SelectLeft })),
	row("select_right", sc(ScopeComposer), ks("shift+right"), "select right", ed(func(k *composer.KeyMap) *key.Binding { return &k.SelectRight })),
	row("select_word_left", sc(ScopeComposer), ks("ctrl+shift+left", "alt+shift+left", "alt+B"), "select word left", ed(func(k *composer.KeyMap) *key.Binding { return &k.SelectWordLeft })),
	row("select_word_right", sc(ScopeComposer), ks("ctrl+shift+right", "alt+shift+right", "alt+F"), "select word right", ed(func(k *composer.KeyMap) *key.Binding { return &k.SelectWordRight })),
	row("select_up", sc(ScopeComposer), ks("shift+up"), "select up", ed(func(k *composer.KeyMap) *key.Binding { return &k.SelectUp })),
	row("select_down", sc(ScopeComposer), ks("shift+down"), "select down", ed(func(k *composer.KeyMap) *key.Binding { return &k.SelectDown })),
	row("select_line_start", sc(ScopeComposer), ks("shift+home"), "select to line start", ed(func(k *composer.KeyMap) *key.Binding { return &k.SelectLineStart })),
	row("select_line_end", sc(ScopeComposer), ks("shift+end"), "select to line end", ed(func(k *composer.KeyMap) *key.Binding { return &k.SelectLineEnd })),
	row("select_draft_start", sc(ScopeComposer), ks("ctrl+shift+home"), "select to draft start", ed(func(k *composer.KeyMap) *key.Binding { return &k.SelectDocStart })),
	row("select_draft_end", sc(ScopeComposer), ks("ctrl+shift+end"), "select to draft end", ed(func(k *composer.KeyMap) *key.Binding { return &k.SelectDocEnd })),
	row("select_all", sc(ScopeComposer), ks("alt+a", "ctrl+shift+a"), "select all", ed(func(k *composer.KeyMap) *key.Binding { return &k.SelectAll })),
	row("delete_back", sc(ScopeComposer, ScopeShell), ks("backspace", "ctrl+h", "shift+backspace"), "delete back (on an empty ! line: leave ! mode)", ed(func(k *composer.KeyMap) *key.Binding { return &k.DeleteBack })),
	row("delete_forward", sc(ScopeComposer), ks("delete", "ctrl+d"), "delete forward", ed(func(k *composer.KeyMap) *key.Binding { return &k.DeleteForward })),
	row("delete_word_back", sc(ScopeComposer), ks("ctrl+w", "alt+backspace", "ctrl+backspace"), "delete word back", ed(func(k *composer.KeyMap) *key.Binding { return &k.DeleteWordBack })),
	row("delete_word_forward", sc(ScopeComposer), ks("alt+d", "alt+delete", "ctrl+delete"), "delete word forward", ed(func(k *composer.KeyMap) *key.Binding { return &k.DeleteWordFwd })),
	row("delete_to_line_start", sc(ScopeComposer), ks("ctrl+u"), "delete to line start", ed(func(k *composer.KeyMap) *key.Binding { return &k.DeleteLineStart })),
	row("delete_to_line_end", sc(ScopeComposer), ks("ctrl+k"), "delete to line end", ed(func(k *composer.KeyMap) *key.Binding { return &k.DeleteLineEnd })),
	row("undo", sc(ScopeComposer), ks("ctrl+z", "ctrl+_"), "undo", ed(func(k *composer.KeyMap) *key.Binding { return &k.Undo })),
	row("redo", sc(ScopeComposer), ks("ctrl+shift+z", "alt+z"), "redo", ed(func(k *composer.KeyMap) *key.Binding { return &k.Redo })),
	row("external_editor", sc(ScopeComposer), ks("ctrl+g"), "edit in $EDITOR", ed(func(k *composer.KeyMap) *key.Binding { return &k.ExternalEditor })),
	row("picker_next", sc(ScopePicker), ks("down", "ctrl+n"), "next match", ed(func(k *composer.KeyMap) *key.Binding { return &k.PickerNext })),
	row("picker_prev", sc(ScopePicker), ks("up", "ctrl+p"), "previous match", ed(func(k *composer.KeyMap) *key.Binding { return &k.PickerPrev })),
	row("picker_choose", sc(ScopePicker), ks("enter", "tab"), "choose", ed(func(k *composer.KeyMap) *key.Binding { return &k.PickerChoose })),
	row("modes_toggle", sc(ScopeModes), ks("space"), "turn the on/off setting at the caret on or off", ed(func(k *composer.KeyMap) *key.Binding { return &k.PickerToggle })),
	row("picker_close", sc(ScopePicker), ks("esc"), "close picker", ed(func(k *composer.KeyMap) *key.Binding { return &k.PickerClose })),

	row("shell_leave", sc(ScopeShell), ks("esc"), "leave ! shell mode", ov(func(k *OverlayKeys) *key.Binding { return &k.ShellLeave })),
	row("shell_kill", sc(ScopeShellRun), ks("esc", "ctrl+c"), "kill the running ! command (what it printed becomes the chip)", ov(func(k *OverlayKeys) *key.Binding { return &k.ShellKill })),

	row("transcript_up", sc(ScopeTranscript), ks("up", "k"), "previous item", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Up })),
	row("transcript_down", sc(ScopeTranscript), ks("down", "j"), "next item", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Down })),
	row("transcript_page_up", sc(ScopeTranscript), ks("pgup"), "page up", tr(func(k *transcript.KeyMap) *key.Binding { return &k.PageUp })),
	row("transcript_page_down", sc(ScopeTranscript), ks("pgdown"), "page down", tr(func(k *transcript.KeyMap) *key.Binding { return &k.PageDown })),
	row("transcript_top", sc(ScopeTranscript), ks("home", "g"), "first message", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Top })),
	row("transcript_bottom", sc(ScopeTranscript), ks("end", "G"), "last message, following new ones", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Bottom })),
	// tab and shift+tab move between panes, so the side arrows (and h/l)
	// move between chips.
	row("next_chip", sc(ScopeTranscript), ks("right", "l"), "next chip", tr(func(k *transcript.KeyMap) *key.Binding { return &k.NextChip })),
	row("prev_chip", sc(ScopeTranscript), ks("left", "h"), "previous chip", tr(func(k *transcript.KeyMap) *key.Binding { return &k.PrevChip })),
	row("details", sc(ScopeTranscript), ks("enter"), "details (chip: again to expand)", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Details })),
	row("toggle_item", sc(ScopeTranscript), ks("space"), "expand / collapse the item", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Toggle })),
	row("details_close", sc(ScopeDetails), ks("esc"), "close the details", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Close })),
	row("open", sc(ScopeTranscript), ks("o"), "open file or image; an item in $PAGER", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Open })),
	row("copy", sc(ScopeTranscript), ks("y"), "copy the message (in details: the chip alone)", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Copy })),
	row("fork", sc(ScopeTranscript), ks("f"), "fork: a new thread with the messages up to this one", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Fork })),
	row("rewind", sc(ScopeTranscript), ks("e"), "rewind: your message to edit in a fork before it, esc leaves the edit (esc esc on an empty composer: the last one)", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Rewind })),
	row("select", sc(ScopeTranscript), ks("v"), "select text to copy or quote", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Select })),
	yield(row("search", sc(ScopeTranscript), ks("/"), "search the thread (matches highlighted; esc clears the search)", tr(func(k *transcript.KeyMap) *key.Binding { return &k.Search }))),
	yield(row("search_next", sc(ScopeTranscript), ks("n"), "next match of the search (folded items unfold)", tr(func(k *transcript.KeyMap) *key.Binding { return &k.SearchNext }))),
	yield(row("search_prev", sc(ScopeTranscript), ks("N"), "previous match of the search", tr(func(k *transcript.KeyMap) *key.Binding { return &k.SearchPrev }))),
	row("search_go", sc(ScopeSearch), ks("enter"), "search: keep the query, go to the first match", ov(func(k *OverlayKeys) *key.Binding { return &k.SearchGo })),
	row("search_cancel", sc(ScopeSearch), ks("esc"), "close the field, the search unchanged", ov(func(k *OverlayKeys) *key.Binding { return &k.SearchCancel })),

	row("shelf_left", sc(ScopeShelf), ks("left", "h"), "previous image", ov(func(k *OverlayKeys) *key.Binding { return &k.ShelfLeft })),
	row("shelf_right", sc(ScopeShelf), ks("right", "l"), "next image", ov(func(k *OverlayKeys) *key.Binding { return &k.ShelfRight })),
	row("shelf_remove", sc(ScopeShelf), ks("x", "delete", "backspace"), "remove the image", ov(func(k *OverlayKeys) *key.Binding { return &k.ShelfRemove })),
	row("shelf_open", sc(ScopeShelf), ks("o", "enter"), "open the image", ov(func(k *OverlayKeys) *key.Binding { return &k.ShelfOpen })),

	row("help_close", sc(ScopeHelp), ks("esc", "q", "?", "enter"), "close the help (so does the help key)", ov(func(k *OverlayKeys) *key.Binding { return &k.HelpClose })),
	row("help_down", sc(ScopeHelp), ks("down", "j", "ctrl+n"), "scroll down", ov(func(k *OverlayKeys) *key.Binding { return &k.HelpDown })),
	row("help_up", sc(ScopeHelp), ks("up", "k", "ctrl+p"), "scroll up", ov(func(k *OverlayKeys) *key.Binding { return &k.HelpUp })),
	row("help_page_down", sc(ScopeHelp), ks("pgdown", "space"), "page down", ov(func(k *OverlayKeys) *key.Binding { return &k.HelpPageDown })),
	row("help_page_up", sc(ScopeHelp), ks("pgup"), "page up", ov(func(k *OverlayKeys) *key.Binding { return &k.HelpPageUp })),

	row("field_left", fields, ks("left", "ctrl+b"), "caret left", ov(func(k *OverlayKeys) *key.Binding { return &k.FieldLeft })),
	row("field_right", fieldsRight, ks("right", "ctrl+f"), "caret right", ov(func(k *OverlayKeys) *key.Binding { return &k.FieldRight })),
	row("field_start", fields, ks("home", "ctrl+a"), "start of the field", ov(func(k *OverlayKeys) *key.Binding { return &k.FieldStart })),
	row("field_end", fields, ks("end", "ctrl+e"), "end of the field", ov(func(k *OverlayKeys) *key.Binding { return &k.FieldEnd })),
	row("field_delete_back", fields, ks("backspace", "ctrl+h"), "delete back", ov(func(k *OverlayKeys) *key.Binding { return &k.FieldDeleteBack })),
	row("field_delete_forward", sc(ScopeAttach, ScopeRename, ScopeHistory, ScopeQuote, ScopeExport, ScopeSearch, ScopeFind), ks("delete"), "delete forward", ov(func(k *OverlayKeys) *key.Binding { return &k.FieldDeleteFwd })),
	row("field_delete_word", fields, ks("ctrl+w", "alt+backspace"), "delete the word (or path part) before the caret", ov(func(k *OverlayKeys) *key.Binding { return &k.FieldDeleteWord })),
	row("field_clear", fields, ks("ctrl+u"), "delete to the start of the field", ov(func(k *OverlayKeys) *key.Binding { return &k.FieldClear })),
	row("field_kill_end", fields, ks("ctrl+k"), "delete to the end of the field", ov(func(k *OverlayKeys) *key.Binding { return &k.FieldKillEnd })),
	row("list_next", lists, ks("down", "ctrl+n"), "next entry", ov(func(k *OverlayKeys) *key.Binding { return &k.ListNext })),
	row("list_prev", lists, ks("up", "ctrl+p"), "previous entry", ov(func(k *OverlayKeys) *key.Binding { return &k.ListPrev })),

	row("attach_choose", sc(ScopeAttach), ks("enter"), "attach the file", ov(func(k *OverlayKeys) *key.Binding { return &k.AttachChoose })),
	row("attach_complete", sc(ScopeAttach), ks("tab"), "complete the path", ov(func(k *OverlayKeys) *key.Binding { return &k.AttachComplete })),
	row("attach_cancel", sc(ScopeAttach), ks("esc", "ctrl+c"), "cancel", ov(func(k *OverlayKeys) *key.Binding { return &k.AttachCancel })),
	row("export_write", sc(ScopeExport), ks("enter"), "write the thread as Markdown to the path (again: overwrite)", ov(func(k *OverlayKeys) *key.Binding { return &k.ExportWrite })),
	row("export_copy", sc(ScopeExport), ks("ctrl+y"), "copy the Markdown instead (pastes as chips into chipchat)", ov(func(k *OverlayKeys) *key.Binding { return &k.ExportCopy })),
	row("export_cancel", sc(ScopeExport), ks("esc", "ctrl+c"), "cancel", ov(func(k *OverlayKeys) *key.Binding { return &k.ExportCancel })),

	row("threads_open", sc(ScopeThreads), ks("enter"), "open the thread", ov(func(k *OverlayKeys) *key.Binding { return &k.ThreadsOpen })),
	yield(row("threads_find", sc(ScopeThreads), ks("ctrl+f"), "search the messages of every thread", ov(func(k *OverlayKeys) *key.Binding { return &k.ThreadsFind }))),
	row("find_open", sc(ScopeFind), ks("enter"), "open the thread at the message found", ov(func(k *OverlayKeys) *key.Binding { return &k.FindOpen })),
	row("find_scope", sc(ScopeFind), ks("tab"), "this project's threads / every project's", ov(func(k *OverlayKeys) *key.Binding { return &k.FindScope })),
	row("find_close", sc(ScopeFind), ks("esc"), "close the search", ov(func(k *OverlayKeys) *key.Binding { return &k.FindClose })),
	row("threads_rename", sc(ScopeThreads), ks("ctrl+r"), "rename the thread", ov(func(k *OverlayKeys) *key.Binding { return &k.ThreadsRename })),
	row("threads_delete", sc(ScopeThreads), ks("ctrl+d", "delete"), "delete the thread", ov(func(k *OverlayKeys) *key.Binding { return &k.ThreadsDelete })),
	row("threads_close", sc(ScopeThreads), ks("esc"), "close the list (so does the threads key)", ov(func(k *OverlayKeys) *key.Binding { return &k.ThreadsClose })),
	row("rename_save", sc(ScopeRename), ks("enter"), "save the title", ov(func(k *OverlayKeys) *key.Binding { return &k.RenameSave })),
	row("rename_cancel", sc(ScopeRename), ks("esc"), "keep the old title", ov(func(k *OverlayKeys) *key.Binding { return &k.RenameCancel })),

	row("stash_restore", sc(ScopeStash), ks("enter"), "restore the entry at the caret", ov(func(k *OverlayKeys) *key.Binding { return &k.StashRestore })),
	row("stash_delete", sc(ScopeStash), ks("ctrl+d", "delete"), "delete the entry", ov(func(k *OverlayKeys) *key.Binding { return &k.StashDelete })),
	row("stash_close", sc(ScopeStash), ks("esc"), "close the list (so does the stash_list key)", ov(func(k *OverlayKeys) *key.Binding { return &k.StashClose })),

	row("history_choose", sc(ScopeHistory), ks("enter"), "put the prompt in the composer", ov(func(k *OverlayKeys) *key.Binding { return &k.HistoryChoose })),
	row("history_close", sc(ScopeHistory), ks("esc"), "close the search (so does the history_search key)", ov(func(k *OverlayKeys) *key.Binding { return &k.HistoryClose })),

	row("ask_up", sc(ScopeAsk), ks("up", "k"), "previous option", ov(func(k *OverlayKeys) *key.Binding { return &k.AskUp })),
	row("ask_down", sc(ScopeAsk), ks("down", "j"), "next option", ov(func(k *OverlayKeys) *key.Binding { return &k.AskDown })),
	row("ask_page_down", sc(ScopeAsk), ks("pgdown", "ctrl+d"), "scroll the request down", ov(func(k *OverlayKeys) *key.Binding { return &k.AskPageDown })),
	row("ask_page_up", sc(ScopeAsk), ks("pgup", "ctrl+u"), "scroll the request up", ov(func(k *OverlayKeys) *key.Binding { return &k.AskPageUp })),
	row("ask_choose", sc(ScopeAsk), ks("enter"), "choose the option (1-9 choose by number; esc rejects)", ov(func(k *OverlayKeys) *key.Binding { return &k.AskChoose })),

	row("elicit_next", sc(ScopeElicit), ks("tab", "down"), "next field", ov(func(k *OverlayKeys) *key.Binding { return &k.ElicitNext })),
	row("elicit_prev", sc(ScopeElicit), ks("shift+tab", "up"), "previous field", ov(func(k *OverlayKeys) *key.Binding { return &k.ElicitPrev })),
	row("elicit_left", sc(ScopeElicit), ks("left"), "previous choice of a choice field", ov(func(k *OverlayKeys) *key.Binding { return &k.ElicitLeft })),
	row("elicit_right", sc(ScopeElicit), ks("right"), "next choice of a choice field", ov(func(k *OverlayKeys) *key.Binding { return &k.ElicitRight })),
	row("elicit_toggle", sc(ScopeElicit), ks("space"), "switch a yes/no field, pick the choice (a text field types it)", ov(func(k *OverlayKeys) *key.Binding { return &k.ElicitToggle })),
	row("elicit_accept", sc(ScopeElicit), ks("enter"), "send the form (checked first); a link: open it", ov(func(k *OverlayKeys) *key.Binding { return &k.ElicitAccept })),
	row("elicit_decline", sc(ScopeElicit), ks("esc"), "decline: answer no", ov(func(k *OverlayKeys) *key.Binding { return &k.ElicitDecline })),
	row("elicit_cancel", sc(ScopeElicit), ks("ctrl+g"), "cancel: answer neither yes nor no", ov(func(k *OverlayKeys) *key.Binding { return &k.ElicitCancel })),
	row("elicit_copy", sc(ScopeElicit), ks("y", "ctrl+y"), "copy the link (a link only)", ov(func(k *OverlayKeys) *key.Binding { return &k.ElicitCopy })),

	row("confirm_yes", sc(ScopeConfirm), ks("y", "Y", "enter"), "yes", ov(func(k *OverlayKeys) *key.Binding { return &k.ConfirmYes })),
	row("confirm_no", sc(ScopeConfirm), ks("n", "N", "esc", "ctrl+c"), "no", ov(func(k *OverlayKeys) *key.Binding { return &k.ConfirmNo })),
	row("quote_insert", sc(ScopeQuote), ks("enter"), "put the quote with the comment at the composer's caret (blank: no comment)", ov(func(k *OverlayKeys) *key.Binding { return &k.QuoteInsert })),
	row("quote_drop", sc(ScopeQuote), ks("esc"), "drop the quote", ov(func(k *OverlayKeys) *key.Binding { return &k.QuoteDrop })),

	// The review pane's keys (package review's KeyMap), its defaults.
	row("review_down", sc(ScopeReview), ks("j", "down"), "next line", rv(func(k *review.KeyMap) *key.Binding { return &k.Down })),
	row("review_up", sc(ScopeReview), ks("k", "up"), "previous line", rv(func(k *review.KeyMap) *key.Binding { return &k.Up })),
	row("review_page_down", sc(ScopeReview), ks("pgdown", "ctrl+d", "space"), "page down", rv(func(k *review.KeyMap) *key.Binding { return &k.PageDown })),
	row("review_page_up", sc(ScopeReview), ks("pgup", "ctrl+u"), "page up", rv(func(k *review.KeyMap) *key.Binding { return &k.PageUp })),
	row("review_top", sc(ScopeReview), ks("g", "home"), "first line", rv(func(k *review.KeyMap) *key.Binding { return &k.Top })),
	row("review_bottom", sc(ScopeReview), ks("G", "end"), "last line", rv(func(k *review.KeyMap) *key.Binding { return &k.Bottom })),
	row("review_next_hunk", sc(ScopeReview), ks("]"), "next hunk", rv(func(k *review.KeyMap) *key.Binding { return &k.NextHunk })),
	row("review_prev_hunk", sc(ScopeReview), ks("["), "previous hunk", rv(func(k *review.KeyMap) *key.Binding { return &k.PrevHunk })),
	row("review_next_file", sc(ScopeReview), ks("}"), "next file", rv(func(k *review.KeyMap) *key.Binding { return &k.NextFile })),
	row("review_prev_file", sc(ScopeReview), ks("{"), "previous file", rv(func(k *review.KeyMap) *key.Binding { return &k.PrevFile })),
	row("review_select", sc(ScopeReview), ks("v", "V"), "select lines (again: drop the selection)", rv(func(k *review.KeyMap) *key.Binding { return &k.Select })),
	row("review_comment", sc(ScopeReview), ks("c"), "comment on the selection or the line", rv(func(k *review.KeyMap) *key.Binding { return &k.Comment })),
	row("review_close", sc(ScopeReview), ks("esc", "q"), "drop the selection, else close the pane", rv(func(k *review.KeyMap) *key.Binding { return &k.Close })),
	row("review_reload", sc(ScopeReview), ks("r"), "read the diff again", rv(func(k *review.KeyMap) *key.Binding { return &k.Reload })),
	row("review_confirm", sc(ScopeComment), ks("enter"), "add the comment: its chip goes to the composer", rv(func(k *review.KeyMap) *key.Binding { return &k.Confirm })),
	row("review_newline", sc(ScopeComment), ks("ctrl+j", "shift+enter"), "new line in the comment", rv(func(k *review.KeyMap) *key.Binding { return &k.Newline })),
	row("review_cancel", sc(ScopeComment), ks("esc"), "drop the comment", rv(func(k *review.KeyMap) *key.Binding { return &k.Cancel })),
}

func bindKeys(help string, keys []string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
}

// Default is every binding at its default.
func Default() Keys {
	// Start from the packages' own maps, so a binding a package adds
	// before it has a row still works (TestKeyTable asks for the row).
	k := Keys{Editor: composer.DefaultKeyMap(), Transcript: transcript.DefaultKeyMap()}
	for _, d := range keyTable {
		*d.field(&k) = bindKeys(d.Help, slices.Clone(d.Keys))
	}
	return k
}

// DefaultAppKeys is the app's default keymap.
func DefaultAppKeys() AppKeys { return Default().AppKeys }

// KeyDefs is the key table, for --help and tests.
// Binding is the row's binding in k (as the config bound it).
func (d KeyDef) Binding(k *Keys) *key.Binding { return d.field(k) }

// ActsIn says whether the row's key acts in scope s (a global or main row
// acts there too).
func (d KeyDef) ActsIn(s Scope) bool {
	for _, x := range d.Scopes {
		if x == s || slices.Contains(within(x), s) {
			return true
		}
	}
	return false
}

// ScopePlace is where a scope's keys act, in words for a toast ("the
// terminal pane").
func ScopePlace(s Scope) string {
	for _, x := range scopes {
		if x.s == s {
			t, _, _ := strings.Cut(x.title, " (")
			return strings.TrimPrefix(strings.TrimPrefix(t, "In "), "When ")
		}
	}
	return string(s)
}

func KeyDefs() []KeyDef { return slices.Clone(keyTable) }

// keyDef is the key table's row named name.
func keyDef(name string) (KeyDef, bool) {
	for _, d := range keyTable {
		if d.Name == name {
			return d, true
		}
	}
	return KeyDef{}, false
}

// Hint is "KEY what" for the hint bar, with the key the binding shows; ""
// when the binding is off.
func Hint(b key.Binding, what string) string {
	if !b.Enabled() || len(b.Keys()) == 0 {
		return ""
	}
	return keyGlyph(b.Help().Key) + " " + what
}

// PickerHints is every picker's hint bar (@ $ #, /, modes): the same words, with what enter does.
func PickerHints(k *composer.KeyMap, enter string) string {
	return Join(Hint2(k.PickerPrev, k.PickerNext, "move"), Hint(k.PickerChoose, enter), Hint(k.PickerClose, "close"))
}

// Hint2 is "KK what" for a pair such as up and down ("↑↓ messages").
func Hint2(a, b key.Binding, what string) string {
	if !a.Enabled() || !b.Enabled() || len(a.Keys()) == 0 || len(b.Keys()) == 0 {
		return Join(Hint(a, what), Hint(b, what))
	}
	ka, kb := keyGlyph(a.Help().Key), keyGlyph(b.Help().Key)
	sep := ""
	if len([]rune(ka)) > 1 || len([]rune(kb)) > 1 {
		sep = "/"
	}
	return ka + sep + kb + " " + what
}

// keyGlyph is how the hint bar writes a key: arrows as arrows, F keys
// upper case.
func keyGlyph(k string) string {
	switch k {
	case "up":
		return "↑"
	case "down":
		return "↓"
	case "left":
		return "←"
	case "right":
		return "→"
	}
	if len(k) >= 2 && k[0] == 'f' && k[1] >= '1' && k[1] <= '9' {
		return "F" + k[1:]
	}
	return k
}

// Join joins the hints that are not empty with " · ".
func Join(hs ...string) string {
	var out []string
	for _, h := range hs {
		if h != "" {
			out = append(out, h)
		}
	}
	return strings.Join(out, " · ")
}

// Fit fits " · "-joined hints into width, dropping hints from the
// middle before the help hint: "F1 keys" (and what follows it) always
// shows, however narrow the screen.
func Fit(hints, help string, width int) string {
	items := strings.Split(hints, " · ")
	line := " " + hints
	if ansi.StringWidth(line) <= width {
		return line
	}
	at := -1
	for i, it := range items {
		if help != "" && it == help {
			at = i
		}
	}
	if at < 0 {
		return ansi.Truncate(line, width, "…")
	}
	tail := " · " + strings.Join(items[at:], " · ")
	if ansi.StringWidth(" "+strings.Join(items[at:], " · ")) > width {
		return ansi.Truncate(" "+strings.Join(items[at:], " · "), width, "…")
	}
	var head []string
	used := ansi.StringWidth(tail) + 1
	for _, it := range items[:at] {
		w := ansi.StringWidth(it) + 3
		if used+w > width {
			break
		}
		head = append(head, it)
		used += w
	}
	if len(head) == 0 {
		return " " + strings.Join(items[at:], " · ")
	}
	return " " + strings.Join(head, " · ") + tail
}

// FieldKeys are the table's field_* rows, for a composer.Field.
func (k *Keys) FieldKeys() *composer.FieldKeys {
	return &composer.FieldKeys{Left: k.FieldLeft, Right: k.FieldRight, Start: k.FieldStart, End: k.FieldEnd,
		DeleteBack: k.FieldDeleteBack, DeleteFwd: k.FieldDeleteFwd, DeleteWord: k.FieldDeleteWord, Clear: k.FieldClear, KillEnd: k.FieldKillEnd}
}

// ListKeys are a composer.FilterList's keys.
func (k *Keys) ListKeys() *composer.ListKeys {
	return &composer.ListKeys{FieldKeys: *k.FieldKeys(), Next: k.ListNext, Prev: k.ListPrev}
}
