package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/ui/keymap"
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

type stashListedMsg struct {
	entries []workspace.StashEntry
	err     error
}

type stashDroppedMsg struct{ err error }

// stash is the stash controller: it stores the draft in the project's
// stash, opens the stash list and acts on its choices.
type stash struct {
	ws    *workspace.Workspace
	ed    *composer.Editor
	keys  *keymap.Keys
	ovs   *overlayStack
	toast *toastLine
	reg   *clipboard.Registry
}

type stashList struct {
	composer.FilterList
	entries []workspace.StashEntry
	keys    *keymap.Keys
}

// push stores the draft in the stash (cleared once stored: stashed).
func (s *stash) push() tea.Cmd {
	d := s.ed.Draft()
	if d.IsEmpty() {
		return s.toast.show("nothing to stash", false)
	}
	push, v := s.ws.Stash(d.Markdown(), d.Records()), d.Version()
	return func() tea.Msg { return stashedMsg{draft: d, version: v, err: push()} }
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
	l := &stashList{FilterList: composer.NewFilterList("stash"), keys: s.keys}
	l.Picker.SetLoading(true)
	s.ovs.Push(l)
	return s.list()
}

// What the stash list asks of the app.
type (
	stashRestore struct{ e workspace.StashEntry }
	stashDrop    struct{ e workspace.StashEntry }
)

func (s *stash) list() tea.Cmd {
	list := s.ws.Stashed()
	return func() tea.Msg {
		es, err := list()
		return stashListedMsg{es, err}
	}
}

// stashTitle is an entry's text on one line, chips as their labels.
func stashTitle(md string) string {
	s := contextref.Replace(md, func(o contextref.Occurrence) string { return "[" + o.Label + "]" })
	s = strings.Join(strings.Fields(chips.SanitizeLine(strings.ReplaceAll(s, "\n", " "))), " ")
	if s == "" {
		return "(empty)"
	}
	return s
}

func (s *stashList) set(es []workspace.StashEntry, err error) {
	s.entries = es
	if err != nil {
		s.Picker.SetError(err)
		return
	}
	items := make([]composer.PickerItem, len(es))
	for i, e := range es {
		items[i] = composer.PickerItem{Title: stashTitle(e.Markdown), Detail: e.Created.Format("2006-01-02 15:04"), Value: strconv.FormatInt(e.ID, 10)}
	}
	s.Picker.SetItems(items)
	s.Picker.SetLoading(false)
	s.Picker.SetQuery(s.Field.String())
}

func (s *stashList) entry(id string) (workspace.StashEntry, bool) {
	for _, e := range s.entries {
		if strconv.FormatInt(e.ID, 10) == id {
			return e, true
		}
	}
	return workspace.StashEntry{}, false
}

func (s *stashList) Scope() keymap.Scope { return keymap.ScopeStash }

func (s *stashList) Hints() string {
	k := s.keys
	return keymap.Join(keymap.Hint(k.StashRestore, "restore"), keymap.Hint(k.StashDelete, "delete"), keymap.Hint(k.StashClose, "close"))
}

func (s *stashList) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	switch msg := m.(type) {
	case stashListedMsg:
		s.set(msg.entries, msg.err)
	case tea.KeyPressMsg:
		k := s.keys
		item, ok := s.Picker.Selected()
		switch {
		case key.Matches(msg, k.StashClose) || key.Matches(msg, k.StashList):
			return nil, nil, nil
		case key.Matches(msg, k.StashRestore):
			if e, found := s.entry(item.Value); ok && found {
				return nil, nil, stashRestore{e}
			}
		case key.Matches(msg, k.StashDelete):
			if e, found := s.entry(item.Value); ok && found {
				return s, nil, stashDrop{e}
			}
		default:
			s.FilterList.Key(k.ListKeys(), msg)
		}
	}
	return s, nil, nil
}

// drop deletes an entry the list chose and lists the stash again.
func (s *stash) drop(e workspace.StashEntry) tea.Cmd {
	drop := s.ws.DropStash(e.ID)
	return tea.Sequence(func() tea.Msg { return stashDroppedMsg{drop()} }, s.list())
}

func (s *stashList) View(width, height int) []string {
	lines := strings.Split(s.Picker.View(width, max(3, height-2)), "\n")
	k := s.keys
	if q := s.Field.String(); q != "" {
		lines = append(lines, s.Field.View("filter: ", width))
	}
	return append(lines, chips.Truncate(keymap.Join("type to filter", keymap.Hint(k.StashRestore, "restore"), keymap.Hint(k.StashDelete, "delete"), keymap.Hint(k.StashClose, "close")), width))
}

// restore imports an entry at the caret, then drops it from the stash.
func (s *stash) restore(e workspace.StashEntry) tea.Cmd {
	do, drop := importer(s.ws, s.reg, s.ed.Draft().Records()), s.ws.DropStash(e.ID)
	return func() tea.Msg {
		imp := do(e.Markdown, nil, e.Records...)
		m := pasteReadyMsg{imp: imp, what: "stash entry restored"}
		if len(imp.Notes) == 0 { // keep the entry when something did not come back
			m.after = func() tea.Msg { return stashDroppedMsg{drop()} }
		}
		return m
	}
}
