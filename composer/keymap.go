package composer

import (
	"charm.land/bubbles/v2/key"
)

// KeyMap is every key the editor answers to. The app may replace any
// binding (from its config file) and print the map as help.
type KeyMap struct {
	Submit          key.Binding
	Steer           key.Binding // send into the running turn (SubmitMsg.Steer)
	Newline         key.Binding
	Left            key.Binding
	Right           key.Binding
	WordLeft        key.Binding
	WordRight       key.Binding
	Up              key.Binding
	Down            key.Binding
	LineStart       key.Binding
	LineEnd         key.Binding
	DocStart        key.Binding
	DocEnd          key.Binding
	SelectLeft      key.Binding
	SelectRight     key.Binding
	SelectWordLeft  key.Binding
	SelectWordRight key.Binding
	SelectUp        key.Binding
	SelectDown      key.Binding
	SelectLineStart key.Binding
	SelectLineEnd   key.Binding
	SelectDocStart  key.Binding
	SelectDocEnd    key.Binding
	SelectAll       key.Binding
	DeleteBack      key.Binding
	DeleteForward   key.Binding
	DeleteWordBack  key.Binding
	DeleteWordFwd   key.Binding
	DeleteLineStart key.Binding
	DeleteLineEnd   key.Binding
	Undo            key.Binding
	Redo            key.Binding
	ExternalEditor  key.Binding
	PickerNext      key.Binding
	PickerPrev      key.Binding
	PickerChoose    key.Binding
	PickerClose     key.Binding
	PickerToggle    key.Binding // toggles an on/off row of a picker that has them (the modes picker)
}

func bind(help string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
}

// DefaultKeyMap is the editor's keymap: arrows and the usual Emacs keys;
// undo ctrl+z, redo ctrl+shift+z with alt+z for terminals that cannot
// report ctrl+shift+z.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Submit:          bind("send", "enter"),
		Steer:           bind("steer", "alt+i"),
		Newline:         bind("new line", "shift+enter", "alt+enter", "ctrl+j"),
		Left:            bind("left", "left", "ctrl+b"),
		Right:           bind("right", "right", "ctrl+f"),
		WordLeft:        bind("word left", "alt+left", "ctrl+left", "alt+b"),
		WordRight:       bind("word right", "alt+right", "ctrl+right", "alt+f"),
		Up:              bind("up", "up"),
		Down:            bind("down", "down"),
		LineStart:       bind("line start", "home", "ctrl+a"),
		LineEnd:         bind("line end", "end", "ctrl+e"),
		DocStart:        bind("draft start", "ctrl+home", "alt+<"),
		DocEnd:          bind("draft end", "ctrl+end", "alt+>"),
		SelectLeft:      bind("select left", "shift+left"),
		SelectRight:     bind("select right", "shift+right"),
		SelectWordLeft:  bind("select word left", "ctrl+shift+left", "alt+shift+left", "alt+B"),
		SelectWordRight: bind("select word right", "ctrl+shift+right", "alt+shift+right", "alt+F"),
		SelectUp:        bind("select up", "shift+up"),
		SelectDown:      bind("select down", "shift+down"),
		SelectLineStart: bind("select to line start", "shift+home"),
		SelectLineEnd:   bind("select to line end", "shift+end"),
		SelectDocStart:  bind("select to draft start", "ctrl+shift+home"),
		SelectDocEnd:    bind("select to draft end", "ctrl+shift+end"),
		SelectAll:       bind("select all", "alt+a", "ctrl+shift+a"),
		DeleteBack:      bind("delete back", "backspace", "ctrl+h", "shift+backspace"),
		DeleteForward:   bind("delete forward", "delete", "ctrl+d"),
		DeleteWordBack:  bind("delete word back", "ctrl+w", "alt+backspace", "ctrl+backspace"),
		DeleteWordFwd:   bind("delete word forward", "alt+d", "alt+delete", "ctrl+delete"),
		DeleteLineStart: bind("delete to line start", "ctrl+u"),
		DeleteLineEnd:   bind("delete to line end", "ctrl+k"),
		Undo:            bind("undo", "ctrl+z", "ctrl+_"),
		Redo:            bind("redo", "ctrl+shift+z", "alt+z"),
		ExternalEditor:  bind("edit in $EDITOR", "ctrl+g"),
		PickerNext:      bind("next match", "down", "ctrl+n"),
		PickerPrev:      bind("previous match", "up", "ctrl+p"),
		PickerChoose:    bind("choose", "enter", "tab"),
		PickerClose:     bind("close picker", "esc"),
		PickerToggle:    bind("toggle", "space"),
	}
}

// Bindings lists the map in help order, for printing.
func (k KeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Submit, k.Steer, k.Newline, k.Left, k.Right, k.WordLeft, k.WordRight, k.Up, k.Down,
		k.LineStart, k.LineEnd, k.DocStart, k.DocEnd, k.SelectLeft, k.SelectRight, k.SelectWordLeft,
		k.SelectWordRight, k.SelectUp, k.SelectDown, k.SelectLineStart, k.SelectLineEnd, k.SelectDocStart,
		k.SelectDocEnd, k.SelectAll, k.DeleteBack, k.DeleteForward, k.DeleteWordBack, k.DeleteWordFwd,
		k.DeleteLineStart, k.DeleteLineEnd, k.Undo, k.Redo, k.ExternalEditor, k.PickerNext, k.PickerPrev,
		k.PickerChoose, k.PickerClose, k.PickerToggle}
}
