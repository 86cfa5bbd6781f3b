package ui

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/workspace"
)

// Thread chips (DESIGN.md 3.1, 3.5): the composer's # picker lists this
// project's other threads through workspace.ThreadSource, which the composer
// runs in a command; activating a thread chip in the transcript opens that
// thread when it is one of this environment's (and this project's), else
// says it is not here.

// threadItems is the composer's Threads provider over the workspace's
// source (newest first, without the open thread). It does I/O: the
// composer runs it in a command.
func threadItems(src *workspace.ThreadSource) func() ([]composer.ThreadItem, error) {
	return func() ([]composer.ThreadItem, error) {
		refs, err := src.List()
		if err != nil {
			return nil, err
		}
		items := make([]composer.ThreadItem, len(refs))
		for i, t := range refs {
			items[i] = composer.ThreadItem{EnvironmentID: t.EnvironmentID, ThreadID: t.ThreadID, Title: t.Title, Updated: t.Updated}
		}
		return items, nil
	}
}

// threadRefOpenedMsg is the answer to "is that thread here?".
type threadRefOpenedMsg struct {
	id    string
	title string
	err   error
	other bool // it is in another project
}

// openThreadRef is a thread chip activated in the transcript.
func (n *nav) openRef(t *contextref.ThreadRecord) tea.Cmd {
	name := chips.SanitizeLine(t.Title)
	if name == "" {
		name = chips.SanitizeLine(t.ThreadID)
	}
	if t.EnvironmentID != n.ws.EnvironmentID() {
		return n.toast.show("the thread “"+name+"” is not here: it belongs to another chipchat environment", true)
	}
	if t.ThreadID == n.thread.ID {
		return n.toast.show("that is this thread", false)
	}
	id, here := t.ThreadID, n.ws.Here(t.ThreadID)
	return func() tea.Msg {
		title, other, err := here()
		if err != nil {
			if errors.Is(err, workspace.ErrNotFound) {
				err = errors.New("the thread “" + name + "” is not here any more (deleted?)")
			}
			return threadRefOpenedMsg{id: id, err: err}
		}
		return threadRefOpenedMsg{id: id, title: title, other: other}
	}
}

func (n *nav) refOpened(m threadRefOpenedMsg) tea.Cmd {
	switch {
	case m.err != nil:
		return n.toast.show(m.err.Error(), true)
	case m.other:
		return n.toast.show("the thread “"+chips.SanitizeLine(m.title)+"” belongs to another project: open chipchat there", true)
	}
	return n.switchTo(m.id)
}
