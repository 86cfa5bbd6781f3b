package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/ui/keymap"
)

// Commands is the `/` command picker, drawn over the bottom of the main
// area, above the composer: its query is the draft's first word, which
// the app sets as the draft changes, so typing goes on to the composer
// (PassKey).
type Commands struct {
	k    *keymap.Keys
	pick *composer.KeyMap // the composer's picker keys, as the config binds them
	p    *composer.Picker
}

// NewCommands lists items (from CommandItems).
func NewCommands(k *keymap.Keys, pick *composer.KeyMap, items []composer.PickerItem) *Commands {
	c := &Commands{k: k, pick: pick, p: composer.NewPicker("/ command")}
	c.p.SetItems(items)
	return c
}

// What the command picker asks of the app: a command it chose (Value, an
// item's); closed by esc (dismissed for this "/word"; Pass: and the key
// goes on — enter on no match sends the text as prose).
type (
	CommandChosen    struct{ Value string }
	CommandDismissed struct{ Pass bool }
)

// Picker is the picker drawn (the app sets its query and items).
func (c *Commands) Picker() *composer.Picker { return c.p }

func (c *Commands) Placement() Placement { return AtBottom }
func (c *Commands) Scope() keymap.Scope  { return keymap.ScopePicker }
func (c *Commands) Hints() string {
	return keymap.PickerHints(c.pick, "pick") + " (the text stays)"
}
func (c *Commands) View(width, height int) []string {
	return strings.Split(c.p.View(width, min(max(c.p.Len(), 1)+2, 12, height)), "\n") // "no matches" boxed too
}

func (c *Commands) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	msg, ok := m.(tea.KeyPressMsg)
	if !ok {
		return c, nil, PassKey{} // a paste is the composer's
	}
	k := c.pick
	switch {
	case key.Matches(msg, c.k.Interrupt):
		return nil, nil, PassKey{} // ctrl+c cancels the turn (or clears the draft) from anywhere
	case key.Matches(msg, k.PickerClose):
		return nil, nil, CommandDismissed{}
	case key.Matches(msg, k.PickerPrev):
		c.p.Move(-1)
	case key.Matches(msg, k.PickerNext):
		c.p.Move(1)
	case key.Matches(msg, k.PickerChoose):
		it, ok := c.p.Selected()
		if !ok {
			return nil, nil, CommandDismissed{Pass: true} // nothing matches: the text is prose (a path, say)
		}
		return nil, nil, CommandChosen{it.Value}
	default:
		return c, nil, PassKey{}
	}
	return c, nil, nil
}
