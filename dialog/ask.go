package dialog

import (
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/ui/keymap"
)

// Ask is the prompt for the agent's open question (QuestionBox) on the
// stack: Guarded (keys are ignored for a moment after it comes on top),
// esc rejects, ctrl+c cancels the turn. Its results are
// QuestionBox's (Answered, Interrupted).
type Ask struct {
	k *keymap.Keys
	*QuestionBox
}

// NewAsk is the prompt for p.
func NewAsk(k *keymap.Keys, p Question) *Ask {
	return &Ask{k: k, QuestionBox: NewQuestionBox(QuestionKeys{Interrupt: k.Interrupt, Cancel: k.Cancel, Up: k.AskUp, Down: k.AskDown,
		PageUp: k.AskPageUp, PageDown: k.AskPageDown, Choose: k.AskChoose}, p)}
}

// GuardHint is the hint bar while the question ignores keys.
const GuardHint = "the agent asks — read it; its keys work in a moment"

func (b *Ask) GuardKeys()          {}
func (b *Ask) Scope() keymap.Scope { return keymap.ScopeAsk }

func (b *Ask) Hints() string {
	return "the agent waits: 1-9 or " + keymap.Join(keymap.Hint(b.k.AskChoose, "choose"), keymap.Hint(b.k.Cancel, message.EscAnswer(b.Ask().Permission != nil, b.Options())))
}

func (b *Ask) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	if msg, ok := m.(tea.KeyPressMsg); ok {
		if res, done := b.Key(msg); done {
			return nil, nil, res
		}
	}
	return b, nil, nil
}
