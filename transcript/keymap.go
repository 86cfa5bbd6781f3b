package transcript

import "charm.land/bubbles/v2/key"

// KeyMap is every key the transcript answers to while it is focused. The
// app may replace any binding and print the map as help (it implements
// bubbles' help.KeyMap).
type KeyMap struct {
	Up       key.Binding // focus the previous message
	Down     key.Binding // focus the next message
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding // first message
	Bottom   key.Binding // last message, following new ones
	NextChip key.Binding // next chip of the focused message
	PrevChip key.Binding // previous chip of the focused message
	Details  key.Binding // open the chip's (or item's) details; again: a chip's expanded view
	Toggle   key.Binding // expand or collapse the focused item in place
	Close    key.Binding // close the popover
	Open     key.Binding // open the chip's file, image, path or URL; an item: the pager
	Copy     key.Binding // copy the focused message
	Fork     key.Binding // a new thread from the start up to the focused message
	Rewind   key.Binding // a user message: fork before it and edit it (RewindMsg)
	Select   key.Binding // start a selection in the focused reply's text or diff

	Search     key.Binding // ask for the search field (SearchAskMsg)
	SearchNext key.Binding // the next match
	SearchPrev key.Binding // the previous match
}

func bind(help string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
}

// DefaultKeyMap is the transcript's keymap: arrows and vi keys to move,
// tab and the side arrows between chips, enter for details, o to open, y to
// copy.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous item")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next item")),
		PageUp:   bind("page up", "pgup"),
		PageDown: bind("page down", "pgdown"),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/g", "first message")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "last message")),
		NextChip: key.NewBinding(key.WithKeys("tab", "right"), key.WithHelp("tab/→", "next chip")),
		PrevChip: key.NewBinding(key.WithKeys("shift+tab", "left"), key.WithHelp("shift+tab/←", "previous chip")),
		Details:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details (chip: again to expand)")),
		Toggle:   key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "expand / collapse the item")),
		Close:    bind("close", "esc"),
		Open:     bind("open file or image; an item in $PAGER", "o"),
		Copy:     bind("copy the message (in details: the chip alone)", "y"),
		Fork:     bind("fork: a new thread with the messages up to this one", "f"),
		Rewind:   bind("edit your message in a fork of the thread before it", "e"),
		Select:   bind("select text to copy or quote", "v"),

		Search:     bind("search the thread", "/"),
		SearchNext: bind("next match", "n"),
		SearchPrev: bind("previous match", "N"),
	}
}

// ShortHelp is the one-line help.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.NextChip, k.Details, k.Open, k.Copy}
}

// FullHelp is the help in columns.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.NextChip, k.PrevChip, k.Details, k.Toggle, k.Close, k.Open, k.Copy, k.Fork, k.Rewind, k.Select, k.Search, k.SearchNext, k.SearchPrev},
	}
}
