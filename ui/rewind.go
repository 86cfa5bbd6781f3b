package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
)

// The rewind (issue 26 item 4): the rewind key on a user message forks the
// thread before it (chat.ForkBefore); once the fork is open its composer
// holds that message with its chips, to edit and send. A draft in the
// composer when the rewind began goes to the stash (a toast says so); esc
// in the fork before anything is sent there leaves the edit: the fork is
// deleted, the thread rewound opens again and the draft comes back from
// the stash. esc esc (within 400 ms) on an empty composer with no turn
// running rewinds the last user message.

// rewindEditMsg follows a thread's load: the draft its composer takes.
type rewindEditMsg struct {
	thread string
	draft  *composer.Draft
}

// rewinding is the rewind being edited: the fork, the thread it came
// from, and the draft stashed when it began (its stash entry, once
// stored).
type rewinding struct {
	from, fork string
	draft      *composer.Draft
	stashID    int64
	left       bool // esc left the edit (before the stash answered, maybe)
}

// rewindStashedMsg: the rewind's draft is in the stash as entry id.
type rewindStashedMsg struct {
	r   *rewinding
	id  int64
	err error
}

// rewound is the Forked of a rewind: stash the draft, open the fork, then
// edit the message there.
func (c *conversation) rewound(e chat.Forked) effect {
	r := &rewinding{from: e.From, fork: e.ThreadID}
	c.rewind = r
	edit := composer.FromMarkdown(e.Edit.Text, e.Edit.Records())
	edit.MoveDocEnd(false) // to add to it
	cmds := []tea.Cmd{func() tea.Msg { return rewindEditMsg{thread: e.ThreadID, draft: edit} }}
	if d := c.ed.Draft(); c.here(e.From) && !d.IsEmpty() {
		r.draft = d
		c.ed.Reset() // the thread rewound keeps no draft: it is in the stash
		push := c.ws.Stash(d.Markdown(), d.Records())
		cmds = append(cmds, func() tea.Msg { id, err := push(); return rewindStashedMsg{r: r, id: id, err: err} })
	}
	cmds = append(cmds, c.notify("forked: "+e.Title+" — edit the message and send it; esc leaves the edit", false))
	return effect{fork: e.ThreadID, cmd: tea.Sequence(cmds...)}
}

// rewindStashed records the stash entry (or says it failed: the draft is
// kept for esc only).
func (c *conversation) rewindStashed(m rewindStashedMsg) tea.Cmd {
	switch {
	case m.err != nil:
		return c.notify("the draft was not stashed ("+m.err.Error()+"): esc leaves the edit and brings it back", true)
	case m.r.left: // the draft is back already
		drop := c.ws.DropStash(m.id)
		return func() tea.Msg { return stashDroppedMsg{drop()} }
	}
	m.r.stashID = m.id
	return c.notify("your draft is in the stash — esc leaves the edit and brings it back", false)
}

// leaveRewind is esc in the fork while nothing was sent there: the fork
// is deleted, the thread rewound opens, its draft back from the stash.
func (c *conversation) leaveRewind() (effect, bool) {
	r := c.rewind
	if r == nil || !c.here(r.fork) || c.phase() != chat.Idle {
		return effect{}, false
	}
	c.rewind, r.left = nil, true
	del, drop := c.ws.Delete(r.fork), c.ws.DropStash(r.stashID)
	c.chat.CloseSession(r.fork)
	cmds := []tea.Cmd{func() tea.Msg { return threadChangedMsg{err: del()} }}
	if r.draft != nil {
		back := composer.FromMarkdown(r.draft.Markdown(), r.draft.Records()) // a new version: autosaved
		back.MoveDocEnd(false)
		cmds = append(cmds, func() tea.Msg { return rewindEditMsg{thread: r.from, draft: back} })
		if r.stashID != 0 {
			cmds = append(cmds, func() tea.Msg { return stashDroppedMsg{drop()} })
		}
	}
	return effect{fork: r.from, cmd: tea.Sequence(append(cmds, c.notify("left the edit: the fork is deleted", false))...)}, true
}

// rewindEdit fills the thread's composer (unless the user went elsewhere).
func (a *App) rewindEdit(m rewindEditMsg) tea.Cmd {
	if m.thread != a.thread.ID {
		return nil
	}
	a.ed.SetDraft(m.draft)
	a.setFocus(paneComposer)
	return a.afterComposer()
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
