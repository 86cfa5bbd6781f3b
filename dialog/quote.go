package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/ui/keymap"
)

// Quote is the comment being written for an assistant quote (Q): a
// one-line field with the table's field_* keys, on the footer row.
type Quote struct {
	k *keymap.Keys
	c *contextref.Citation
	f composer.Field
}

// NewQuote asks a comment for c.
func NewQuote(k *keymap.Keys, c *contextref.Citation) *Quote { return &Quote{k: k, c: c} }

// What the quote prompt asks of the app: insert the quote (with its
// comment), or drop it.
type (
	QuoteInsert  struct{ Citation *contextref.Citation }
	QuoteDropped struct{}
)

func (p *Quote) Placement() Placement { return OnFooter }
func (p *Quote) Scope() keymap.Scope  { return keymap.ScopeQuote }
func (p *Quote) Hints() string        { return "" }

func (p *Quote) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	switch msg := m.(type) {
	case tea.PasteMsg:
		p.paste(msg.Content)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, p.k.QuoteDrop):
			return nil, nil, QuoteDropped{}
		case key.Matches(msg, p.k.QuoteInsert):
			return nil, nil, QuoteInsert{p.c.WithComment(p.f.String())}
		}
		if p.f.Key(p.k.FieldKeys(), msg) {
			p.bound()
		}
	}
	return p, nil, nil
}

// View is the prompt, on the footer row: the field keeps its caret in
// view.
func (p *Quote) View(width, _ int) []string {
	head := " Comment on “" + chips.Truncate(chips.SanitizeLine(contextref.CitationChipLabel(p.c)), 24) + "”: "
	tail := "  " + keymap.Join(keymap.Hint(p.k.QuoteInsert, "quote"), keymap.Hint(p.k.QuoteDrop, "drop"))
	w := max(width-ansi.StringWidth(tail), ansi.StringWidth(head)+4)
	return []string{chips.Truncate(p.f.View(head, w)+tail, width)}
}

// maxQuoteComment is the contract's bound on a comment, in UTF-16 units.
const maxQuoteComment = contextref.MaxCitationTextLen

func (p *Quote) paste(s string) {
	p.f.Insert(strings.Join(strings.Fields(chips.SanitizeLine(s)), " "))
	p.bound()
}

// bound cuts the comment to the contract's length.
func (p *Quote) bound() {
	if contextref.UTF16Len(p.f.String()) <= maxQuoteComment {
		return
	}
	n, cut := 0, 0
	for i, r := range []rune(p.f.String()) {
		n += contextref.UTF16Len(string(r))
		if n > maxQuoteComment {
			cut = i
			break
		}
	}
	p.f.Cut(cut)
}
