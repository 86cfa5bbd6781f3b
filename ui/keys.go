package ui

import "charm.land/bubbles/v2/key"

// AppKeys are the app-level keys; the composer and transcript have their
// own maps.
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

	// The terminal pane. Terminal opens it (and, pressed in the pane, goes
	// back to the composer); the others act only while the pane has focus
	// (every other key goes to the shell there).
	Terminal     key.Binding
	NewTerminal  key.Binding
	NextTerminal key.Binding
	PrevTerminal key.Binding
	ZoomTerminal key.Binding
	TerminalSide key.Binding
	CopyMode     key.Binding
	QuickCapture key.Binding

	Review key.Binding
}

func bind(help string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
}

// DefaultAppKeys is the app's default keymap.
func DefaultAppKeys() AppKeys {
	return AppKeys{
		Quit:      bind("quit", "ctrl+q"),
		Interrupt: bind("cancel the turn / clear the draft / twice: quit", "ctrl+c"),
		Help:      bind("show all keys (? on an empty draft)", "f1"),
		FocusNext: bind("next pane", "tab"),
		FocusPrev: bind("previous pane", "shift+tab"),
		Cancel:    bind("close a popup or cancel the running turn", "esc"),
		Attach:    bind("attach a file or image", "ctrl+o"),
		NewThread: bind("new thread", "ctrl+n"),
		Threads:   bind("switch, rename or delete threads", "ctrl+l"),
		Retry:     bind("ask the agent again after an error or an interruption", "alt+r"),
		Unqueue:   bind("take the last queued message back into the empty draft", "alt+up"),

		Cut:         bind("cut the composer selection (ctrl+c with a selection copies it)", "ctrl+x"),
		Paste:       bind("paste from the system clipboard (chips included)", "ctrl+v"),
		ExpandPaste: bind("expand the pasted-text chip beside the caret into prose", "alt+e"),
		Stash:       bind("stash the draft and clear the composer", "ctrl+s"),
		StashList:   bind("list the stash: restore or delete an entry", "ctrl+alt+s"),

		Terminal:     bind("terminal pane: open it / back to the composer", "ctrl+t"),
		NewTerminal:  bind("in the terminal: another terminal", "alt+n"),
		NextTerminal: bind("in the terminal: next terminal", "alt+."),
		PrevTerminal: bind("in the terminal: previous terminal", "alt+,"),
		ZoomTerminal: bind("in the terminal: zoom / split", "alt+z"),
		TerminalSide: bind("in the terminal: split right / bottom", "alt+s"),
		CopyMode:     bind("in the terminal: copy mode (v select, y capture)", "ctrl+space", "ctrl+@"),
		QuickCapture: bind("in the terminal: capture the last command's output", "alt+o"),
		Review:       bind("review the diff", "alt+g"),
	}
}
