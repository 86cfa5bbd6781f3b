package composer

import (
	"slices"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
)

// FieldKeys are a Field's editing keys: the key table's field_* rows (the
// composer's habits: ctrl+a/ctrl+e, ctrl+u, ctrl+w, ctrl+k).
type FieldKeys struct {
	Left, Right, Start, End                  key.Binding
	DeleteBack, DeleteFwd, DeleteWord, Clear key.Binding
	KillEnd                                  key.Binding
}

// Field is a one-line text field with a caret: the attach path, the
// rename field, a list's filter, the quote's comment. Its zero value is an
// empty field.
type Field struct {
	r   []rune
	pos int
}

func (f *Field) String() string { return string(f.r) }

// Set replaces the text, the caret at its end.
func (f *Field) Set(s string) {
	f.r = []rune(s)
	f.pos = len(f.r)
}

// Insert types s at the caret (what is not printable is left out).
func (f *Field) Insert(s string) {
	var in []rune
	for _, r := range s {
		if unicode.IsPrint(r) {
			in = append(in, r)
		}
	}
	f.pos = max(0, min(f.pos, len(f.r)))
	f.r = append(f.r[:f.pos], append(in, f.r[f.pos:]...)...)
	f.pos += len(in)
}

// Cut keeps the first n runes (the caret stays within them).
func (f *Field) Cut(n int) {
	if n < len(f.r) {
		f.r = f.r[:max(0, n)]
		f.pos = min(f.pos, len(f.r))
	}
}

// wordStart is where the word (or path part) before i starts.
func (f *Field) wordStart(i int) int {
	sep := func(r rune) bool { return r == ' ' || r == '/' }
	for i > 0 && sep(f.r[i-1]) {
		i--
	}
	for i > 0 && !sep(f.r[i-1]) {
		i--
	}
	return i
}

// Key edits the field; it reports whether the key was an editing key or
// typed text.
func (f *Field) Key(k *FieldKeys, msg tea.KeyPressMsg) bool {
	f.pos = max(0, min(f.pos, len(f.r)))
	switch {
	case key.Matches(msg, k.Left):
		f.pos = max(0, f.pos-1)
	case key.Matches(msg, k.Right):
		f.pos = min(len(f.r), f.pos+1)
	case key.Matches(msg, k.Start):
		f.pos = 0
	case key.Matches(msg, k.End):
		f.pos = len(f.r)
	case key.Matches(msg, k.DeleteBack):
		if f.pos > 0 {
			f.r = append(f.r[:f.pos-1], f.r[f.pos:]...)
			f.pos--
		}
	case key.Matches(msg, k.DeleteFwd):
		if f.pos < len(f.r) {
			f.r = append(f.r[:f.pos], f.r[f.pos+1:]...)
		}
	case key.Matches(msg, k.DeleteWord):
		i := f.wordStart(f.pos)
		f.r = append(f.r[:i], f.r[f.pos:]...)
		f.pos = i
	case key.Matches(msg, k.Clear):
		f.r = slices.Clone(f.r[f.pos:])
		f.pos = 0
	case key.Matches(msg, k.KillEnd):
		f.r = f.r[:f.pos]
	default:
		if msg.Text == "" || msg.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
			return false
		}
		f.Insert(chips.SanitizeLine(msg.Text))
	}
	return true
}

var fieldCaretStyle = lipgloss.NewStyle().Reverse(true)

// View draws prefix and the field with a block caret, cut to width around
// the caret.
func (f *Field) View(prefix string, width int) string {
	pos := max(0, min(f.pos, len(f.r)))
	before, after := chips.SanitizeLine(string(f.r[:pos])), chips.SanitizeLine(string(f.r[pos:]))
	room := width - ansi.StringWidth(prefix) - 1
	if w := ansi.StringWidth(before); w > room {
		before = "…" + ansi.TruncateLeft(before, w-room+1, "")
	}
	caret := "█"
	if after != "" {
		r := []rune(after)
		caret = fieldCaretStyle.Render(string(r[0]))
		after = string(r[1:])
	}
	return ansi.Truncate(prefix+before+caret+after, width, "…")
}

// ListKeys are a FilterList's keys: the selection's and the filter's.
type ListKeys struct {
	FieldKeys
	Next, Prev key.Binding
}

// FilterList is a fuzzy list the user narrows by typing: the thread
// switcher, the stash list, the history search.
type FilterList struct {
	Picker *Picker
	Field  Field
}

// NewFilterList is an empty list titled title.
func NewFilterList(title string) FilterList { return FilterList{Picker: NewPicker(title)} }

// SetStyles draws the list in st (the theme's).
func (f *FilterList) SetStyles(st PickerStyles) { f.Picker.SetStyles(st) }

// Key moves the selection or edits the filter; it reports whether the key
// was one of those.
func (f *FilterList) Key(k *ListKeys, msg tea.KeyPressMsg) bool {
	switch {
	case key.Matches(msg, k.Next):
		f.Picker.Move(1)
	case key.Matches(msg, k.Prev):
		f.Picker.Move(-1)
	default:
		before := f.Field.String()
		if !f.Field.Key(&k.FieldKeys, msg) {
			return false
		}
		if q := f.Field.String(); q != before {
			f.Picker.SetQuery(q)
		}
	}
	return true
}

// SetItems lists items, filtered by the filter as typed.
func (f *FilterList) SetItems(items []PickerItem) {
	f.Picker.SetItems(items)
	f.Picker.SetQuery(f.Field.String())
}
