package ui

import (
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/transcript"
)

// Assistant quotes (DESIGN.md 3.8): q on a selection of a reply's text in
// the transcript sends QuoteMsg; the app writes the citation link — this
// environment, this thread, the reply — and puts it at the composer's caret
// as one atomic chip. Q asks for a comment first, in a one-line prompt on
// the footer row: enter inserts the quote with it (a blank comment: none),
// esc drops the quote.

// quote handles QuoteMsg.
func (c *conversation) quote(q transcript.QuoteMsg) effect {
	cit, err := q.Citation(c.ws.EnvironmentID(), c.thread.ID)
	if err != nil {
		return effect{cmd: c.notify("cannot quote that: "+err.Error(), true)}
	}
	if q.WithComment {
		c.ovs.Push(dialog.NewQuote(c.keys, cit))
		return effect{}
	}
	return c.insertCitation(cit)
}

// insertCitation puts the quote chip at the composer's caret and gives the
// composer the keys.
func (c *conversation) insertCitation(cit *contextref.Citation) effect {
	c.ed.QuoteAtCaret(cit)
	return effect{focusComposer: true, composer: true,
		cmd: c.notify("quoted: "+chips.SanitizeLine(contextref.CitationQuoteLabel(cit)), false)}
}
