package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/transcript"
	"github.com/chipchat/chipchat/ui/keymap"
)

// Assistant quotes (DESIGN.md 3.8): q on a selection of a reply's text in
// the transcript sends QuoteMsg; the app writes the citation link — this
// environment, this thread, the reply — and puts it at the composer's caret
// as one atomic chip. Q asks for a comment first, in a one-line prompt on
// the footer row: enter inserts the quote with it (a blank comment: none),
// esc drops the quote.

// quotePrompt is the comment being written for a quote: a one-line field
// with the table's field_* keys.
type quotePrompt struct {
	k *keymap.Keys
	c *contextref.Citation
	f composer.Field
}

// What the quote prompt asks of the app: insert the quote (with its
// comment), or drop it.
type (
	quoteInsert  struct{ c *contextref.Citation }
	quoteDropped struct{}
)

func (p *quotePrompt) placement() placement { return onFooter }
func (p *quotePrompt) Scope() keymap.Scope  { return keymap.ScopeQuote }
func (p *quotePrompt) Hints() string        { return "" }

func (p *quotePrompt) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	switch msg := m.(type) {
	case tea.PasteMsg:
		p.paste(msg.Content)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, p.k.QuoteDrop):
			return nil, nil, quoteDropped{}
		case key.Matches(msg, p.k.QuoteInsert):
			return nil, nil, quoteInsert{p.c.WithComment(p.f.String())}
		}
		if p.f.Key(p.k.FieldKeys(), msg) {
			p.bound()
		}
	}
	return p, nil, nil
}

// View is the prompt, on the footer row: the field keeps its caret in
// view.
func (p *quotePrompt) View(width, _ int) []string {
	head := " Comment on “" + chips.Truncate(chips.SanitizeLine(contextref.CitationChipLabel(p.c)), 24) + "”: "
	tail := "  " + keymap.Join(keymap.Hint(p.k.QuoteInsert, "quote"), keymap.Hint(p.k.QuoteDrop, "drop"))
	w := max(width-ansi.StringWidth(tail), ansi.StringWidth(head)+4)
	return []string{chips.Truncate(p.f.View(head, w)+tail, width)}
}

// maxQuoteComment is the contract's bound on a comment, in UTF-16 units.
const maxQuoteComment = contextref.MaxCitationTextLen

func (p *quotePrompt) paste(s string) {
	p.f.Insert(strings.Join(strings.Fields(chips.SanitizeLine(s)), " "))
	p.bound()
}

// bound cuts the comment to the contract's length.
func (p *quotePrompt) bound() {
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

// citation is the quote's citation as the contract writes it, checked by
// parsing its own link back.
func (c *conversation) citation(q transcript.QuoteMsg) (*contextref.Citation, error) {
	cit := &contextref.Citation{Version: 1, EnvironmentID: c.ws.EnvironmentID(), ThreadID: c.thread.ID, MessageID: q.MessageID,
		Text: q.Text, Start: int64(q.Start), End: int64(q.End), Prefix: q.Prefix, Suffix: q.Suffix}
	return contextref.ParseCitationHref(cit.Href())
}

// quote handles QuoteMsg.
func (c *conversation) quote(q transcript.QuoteMsg) effect {
	cit, err := c.citation(q)
	if err != nil {
		return effect{cmd: c.notify("cannot quote that: "+err.Error(), true)}
	}
	if q.WithComment {
		c.ovs.Push(&quotePrompt{k: c.keys, c: cit})
		return effect{}
	}
	return c.insertCitation(cit)
}

// insertCitation puts the quote chip at the composer's caret and gives the
// composer the keys.
func (c *conversation) insertCitation(cit *contextref.Citation) effect {
	d := c.ed.Draft()
	d.SetCaret(d.Caret(), false)
	d.InsertCitation(cit)
	d.InsertText(" ")
	c.ed.SetDraft(d) // scrolls to the caret
	return effect{focusComposer: true, composer: true,
		cmd: c.notify("quoted: "+chips.SanitizeLine(contextref.CitationChipLabel(cit)), false)}
}
