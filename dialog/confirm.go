package dialog

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/ui/keymap"
)

// Confirm is a yes/no question; yes is the result the app acts on when
// the answer is yes.
type Confirm struct {
	k    *keymap.Keys
	text string
	yes  any
}

// NewConfirm asks text; yes is the result once confirmed.
func NewConfirm(k *keymap.Keys, text string, yes any) *Confirm {
	return &Confirm{k: k, text: text, yes: yes}
}

func (c *Confirm) Scope() keymap.Scope { return keymap.ScopeConfirm }

func (c *Confirm) Hints() string {
	return keymap.Join(keymap.Hint(c.k.ConfirmYes, "yes"), keymap.Hint(c.k.ConfirmNo, "no"))
}

func (c *Confirm) View(width, _ int) []string {
	return chips.WrapHanging([]string{chips.SanitizeLine(c.text)}, width)
}

func (c *Confirm) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	msg, ok := m.(tea.KeyPressMsg)
	switch {
	case !ok:
	case key.Matches(msg, c.k.ConfirmYes):
		return nil, nil, c.yes
	case key.Matches(msg, c.k.ConfirmNo):
		return nil, nil, nil
	}
	return c, nil, nil
}
