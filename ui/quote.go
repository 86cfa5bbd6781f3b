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
		c.ovs.Push(dialog.NewQuote(c.keys, cit))
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
		cmd: c.notify("quoted: "+chips.SanitizeLine(contextref.CitationQuoteLabel(cit)), false)}
}
