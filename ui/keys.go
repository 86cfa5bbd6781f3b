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
	}
}
