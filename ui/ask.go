package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/ui/askbox"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/ui/overlay"
)

// askBox is the prompt for the agent's open question (package askbox) on
// the overlay stack: keys are ignored for a moment after it appears
// (guardKeys), esc rejects, ctrl+c cancels the turn.
type askBox struct {
	k *keymap.Keys
	*askbox.Box
}

// The agent's question and the prompt's results (askbox's).
type (
	pendingAsk  = askbox.Ask
	askAnswered = askbox.Answered
	interrupted = askbox.Interrupted
)

func newPermissionAsk(e chat.PermissionAsked) pendingAsk {
	return pendingAsk{ID: e.ID, ThreadID: e.ThreadID, Permission: &e}
}

func newAskBox(k *keymap.Keys, p pendingAsk) *askBox {
	return &askBox{k: k, Box: askbox.New(askbox.Keys{Interrupt: k.Interrupt, Cancel: k.Cancel, Up: k.AskUp, Down: k.AskDown,
		PageUp: k.AskPageUp, PageDown: k.AskPageDown, Choose: k.AskChoose}, p)}
}

func (b *askBox) GuardKeys()          {}
func (b *askBox) Scope() keymap.Scope { return keymap.ScopeAsk }

func (b *askBox) Hints() string {
	return "the agent waits: 1-9 or " + keymap.Join(keymap.Hint(b.k.AskChoose, "choose"), keymap.Hint(b.k.Cancel, "dismiss"))
}

// guardHint is the hint bar while the question ignores keys.
const guardHint = "the agent asks — read it; its keys work in a moment"

func (b *askBox) Update(m tea.Msg) (overlay.Overlay, tea.Cmd, any) {
	if msg, ok := m.(tea.KeyPressMsg); ok {
		if res, done := b.Key(msg); done {
			return nil, nil, res
		}
	}
	return b, nil, nil
}
