package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/transcript"
)

// Assistant quotes (DESIGN.md 3.8): q on a selection of a reply's text in
// the transcript sends QuoteMsg; the app writes the citation link — this
// environment, this thread, the reply — and puts it at the composer's caret
// as one atomic chip. Q asks for a comment first, in a one-line prompt on
// the footer row: enter inserts the quote with it (a blank comment: none),
// esc drops the quote.

// quotePrompt is the comment being written for a quote.
type quotePrompt struct {
	c    *contextref.Citation
	text []rune
}

// maxQuoteComment is the contract's bound on a comment, in UTF-16 units.
const maxQuoteComment = contextref.MaxCitationTextLen

func (p *quotePrompt) paste(s string) {
	p.add(strings.Join(strings.Fields(chips.SanitizeLine(s)), " "))
}

func (p *quotePrompt) add(s string) {
	n := contextref.UTF16Len(string(p.text))
	for _, r := range s {
		u := contextref.UTF16Len(string(r))
		if n+u > maxQuoteComment {
			return
		}
		p.text, n = append(p.text, r), n+u
	}
}

// citation is the quote's citation as the contract writes it, checked by
// parsing its own link back.
func (a *App) citation(q transcript.QuoteMsg) (*contextref.Citation, error) {
	c := &contextref.Citation{Version: 1, EnvironmentID: a.st.EnvironmentID(), ThreadID: a.thread.ID, MessageID: q.MessageID,
		Text: q.Text, Start: int64(q.Start), End: int64(q.End), Prefix: q.Prefix, Suffix: q.Suffix}
	return contextref.ParseCitationHref(c.Href())
}

// quote handles QuoteMsg.
func (a *App) quote(q transcript.QuoteMsg) tea.Cmd {
	c, err := a.citation(q)
	if err != nil {
		return a.notify("cannot quote that: "+err.Error(), true)
	}
	if q.WithComment {
		a.quoting = &quotePrompt{c: c}
		return nil
	}
	return a.insertCitation(c)
}

// insertCitation puts the quote chip at the composer's caret and gives the
// composer the keys.
func (a *App) insertCitation(c *contextref.Citation) tea.Cmd {
	a.setFocus(paneComposer)
	d := a.ed.Draft()
	d.SetCaret(d.Caret(), false)
	d.InsertCitation(c)
	d.InsertText(" ")
	a.ed.SetDraft(d) // scrolls to the caret
	return tea.Batch(a.afterComposer(), a.notify("quoted: "+chips.SanitizeLine(contextref.CitationChipLabel(c)), false))
}

// quoteKey is a key while the comment prompt is open.
func (a *App) quoteKey(msg tea.KeyPressMsg) tea.Cmd {
	p := a.quoting
	switch msg.String() {
	case "esc":
		a.quoting = nil
		return a.notify("quote dropped", false)
	case "enter":
		a.quoting = nil
		return a.insertCitation(p.c.WithComment(string(p.text)))
	case "backspace", "ctrl+h":
		if len(p.text) > 0 {
			p.text = p.text[:len(p.text)-1]
		}
	case "ctrl+u":
		p.text = nil
	default:
		if msg.Text != "" {
			p.add(chips.SanitizeLine(msg.Text))
		}
	}
	return nil
}

// quoteFooter is the prompt, on the footer row: the end of the comment
// stays in view.
func (a *App) quoteFooter() string {
	head := " Comment on “" + chips.Truncate(chips.SanitizeLine(contextref.CitationChipLabel(a.quoting.c)), 24) + "”: "
	tail := "█  enter quote · esc drop"
	room := a.width - ansi.StringWidth(head) - ansi.StringWidth(tail)
	text := chips.SanitizeLine(string(a.quoting.text))
	if w := ansi.StringWidth(text); room > 0 && w > room {
		text = "…" + ansi.TruncateLeft(text, w-room+1, "")
	}
	return chips.Truncate(head+text+tail, a.width)
}
