package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/ui/overlay"
	"github.com/chipchat/chipchat/workspace"
)

// The prompt stash (issue 6, DESIGN.md section 4): the stash key moves the
// draft (its records included) into the project's stash (workspace.Stash)
// and clears the composer once it is stored; the stash-list key opens a
// fuzzy list, newest first; enter restores an entry at the caret through
// the importer paste uses (clipboard.Import, so images and files get fresh
// local ids) and drops it from the stash; ctrl+d deletes one.

type stashedMsg struct {
	draft   *composer.Draft
	version uint64
	err     error
}

type stashDroppedMsg struct{ err error }

// stash is the stash controller: it stores the draft in the project's
// stash, opens the stash list and acts on its choices.
type stash struct {
	ws    *workspace.Workspace
	ed    *composer.Editor
	keys  *keymap.Keys
	ovs   *overlay.Stack
	toast *toastLine
	reg   *clipboard.Registry
}

// push stores the draft in the stash (cleared once stored: stashed).
func (s *stash) push() tea.Cmd {
	d := s.ed.Draft()
	if d.IsEmpty() {
		return s.toast.show("nothing to stash", false)
	}
	push, v := s.ws.Stash(d.Markdown(), d.Records()), d.Version()
	return func() tea.Msg { _, err := push(); return stashedMsg{draft: d, version: v, err: err} }
}

// stashed clears the draft that was stored (the draft changes).
func (s *stash) stashed(m stashedMsg) tea.Cmd {
	if m.err != nil {
		return s.toast.show("not stashed: "+m.err.Error(), true)
	}
	if s.ed.Draft() == m.draft && m.draft.Version() == m.version {
		s.ed.Reset()
	}
	return s.toast.show("draft stashed — "+s.keys.StashList.Help().Key+" lists the stash", false)
}

func (s *stash) open() tea.Cmd {
	s.ovs.Push(dialog.NewStash(s.keys))
	return s.list()
}

func (s *stash) list() tea.Cmd {
	list := s.ws.Stashed()
	return func() tea.Msg {
		es, err := list()
		return dialog.StashListed{Entries: es, Err: err}
	}
}

// drop deletes an entry the list chose and lists the stash again.
func (s *stash) drop(e workspace.StashEntry) tea.Cmd {
	drop := s.ws.DropStash(e.ID)
	return tea.Sequence(func() tea.Msg { return stashDroppedMsg{drop()} }, s.list())
}

// restore imports an entry at the caret, then drops it from the stash.
func (s *stash) restore(e workspace.StashEntry) tea.Cmd {
	do, drop := clipboard.Importer(s.ws.EnvironmentID(), s.reg, s.ws.Assets(), s.ed.Draft().Records()), s.ws.DropStash(e.ID)
	return func() tea.Msg {
		imp := do(e.Markdown, nil, e.Records...)
		m := pasteReadyMsg{imp: imp, what: "stash entry restored"}
		if len(imp.Notes) == 0 { // keep the entry when something did not come back
			m.after = func() tea.Msg { return stashDroppedMsg{drop()} }
		}
		return m
	}
}
