package review

import "charm.land/bubbles/v2/key"

// KeyMap is the pane's keys; every binding can be rebound.
type KeyMap struct {
	Down     key.Binding
	Up       key.Binding
	PageDown key.Binding
	PageUp   key.Binding
	Top      key.Binding
	Bottom   key.Binding
	NextHunk key.Binding
	PrevHunk key.Binding
	NextFile key.Binding
	PrevFile key.Binding
	// Select starts a line selection at the cursor (motions extend it);
	// pressed again it ends it.
	Select key.Binding
	// Comment opens the comment editor on the selection (or the cursor's
	// line).
	Comment key.Binding
	// Close closes the innermost thing: the selection, then the pane.
	Close key.Binding
	// Reload reads the diff again (written comments stay in the composer;
	// their marks go).
	Reload key.Binding

	// In the comment editor:
	Confirm key.Binding // the comment becomes a record
	Newline key.Binding // a line break in the comment
	Cancel  key.Binding // drops the comment
}

// DefaultKeyMap is the pane's default keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/k", "move")),
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k", "up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d", "space"), key.WithHelp("pgdn", "page down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		NextHunk: key.NewBinding(key.WithKeys("]"), key.WithHelp("]/[", "hunk")),
		PrevHunk: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous hunk")),
		NextFile: key.NewBinding(key.WithKeys("}"), key.WithHelp("}/{", "file")),
		PrevFile: key.NewBinding(key.WithKeys("{"), key.WithHelp("{", "previous file")),
		Select:   key.NewBinding(key.WithKeys("v", "V"), key.WithHelp("v", "select")),
		Comment:  key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "comment")),
		Close:    key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close")),
		Reload:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload")),
		Confirm:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm")),
		Newline:  key.NewBinding(key.WithKeys("ctrl+j", "shift+enter"), key.WithHelp("ctrl+j", "newline")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "drop")),
	}
}

// isZero reports a KeyMap nobody filled in.
func (k KeyMap) isZero() bool { return len(k.Down.Keys()) == 0 && len(k.Close.Keys()) == 0 }
