package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
)

// The rewind (issue 26 item 4): the rewind key on a user message forks the
// thread before it (chat.ForkBefore); once the fork is open its composer
// holds that message with its chips, to edit and send. The draft of the
// thread left is saved with it as on any switch; a draft the fork's
// composer holds goes to the stash first. esc esc (within 400 ms) on an
// empty composer with no turn running rewinds the last user message.

// rewindEditMsg follows the fork's load: the message to edit there.
type rewindEditMsg struct {
	thread string
	edit   chat.Message
}

// rewound is the Forked of a rewind: open the fork, then edit the message.
func rewound(e chat.Forked, toast tea.Cmd) effect {
	m := rewindEditMsg{thread: e.ThreadID, edit: *e.Edit}
	return effect{fork: e.ThreadID, cmd: tea.Sequence(func() tea.Msg { return m }, toast)}
}

// rewindEdit fills the fork's composer (unless the user went elsewhere).
func (a *App) rewindEdit(m rewindEditMsg) tea.Cmd {
	if m.thread != a.thread.ID {
		return nil
	}
	var keep tea.Cmd
	if d := a.ed.Draft(); !d.IsEmpty() {
		push := a.stash.ws.Stash(d.Markdown(), d.Records())
		keep = func() tea.Msg { return stashedMsg{err: push()} } // its toast says where it went
	}
	d := composer.FromMarkdown(m.edit.Text, m.edit.Records())
	d.MoveDocEnd(false) // to add to it
	a.ed.SetDraft(d)
	a.setFocus(paneComposer)
	return tea.Batch(keep, a.afterComposer())
}

// rewindLast is esc with nothing to close nor cancel: the second within
// 400 ms on an empty composer, no turn running, rewinds the last message.
func (c *conversation) rewindLast(now time.Time) tea.Cmd {
	at, id := c.escAt, c.tr.LastUser()
	c.escAt = time.Time{}
	switch {
	case !c.ed.Draft().IsEmpty() || c.chat.Phase(c.thread.ID) != chat.Idle || id == "":
	case at.IsZero() || now.Sub(at) > 400*time.Millisecond:
		c.escAt = now
	default:
		c.chat.ForkBefore(c.thread.ID, id)
	}
	return nil
}
