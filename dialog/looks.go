package dialog

import (
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/transcript"
)

// Looks are the theme's for what dialogs draw: their pickers' and lists'
// styles (the thread list, the stash, `/`, a form's errors) and a tool
// call's content in the agent's question (its diff).
type Looks struct {
	Picker  composer.PickerStyles
	Content []transcript.ContentOption
}

// Dress gives o the looks l: to its picker, its list (SetStyles) or its
// tool call's content (SetContentOptions).
func Dress(o Overlay, l Looks) {
	if p, ok := o.(interface{ Picker() *composer.Picker }); ok {
		p.Picker().SetStyles(l.Picker)
	}
	if p, ok := o.(interface{ SetStyles(composer.PickerStyles) }); ok {
		p.SetStyles(l.Picker)
	}
	if p, ok := o.(interface {
		SetContentOptions(...transcript.ContentOption)
	}); ok {
		p.SetContentOptions(l.Content...)
	}
}
