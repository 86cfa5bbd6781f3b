package dialog

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/workspace"
)

// Stash is the stash list: the project's stashed drafts, newest first,
// filtered; enter restores one, ctrl+d deletes one.
type Stash struct {
	composer.FilterList
	entries []workspace.StashEntry
	keys    *keymap.Keys
}

// NewStash is the list, loading.
func NewStash(k *keymap.Keys) *Stash {
	l := &Stash{FilterList: composer.NewFilterList("stash"), keys: k}
	l.Picker.SetLoading(true)
	return l
}

// StashListed is the stash as read, delivered to the list.
type StashListed struct {
	Entries []workspace.StashEntry
	Err     error
}

// What the stash list asks of the app.
type (
	StashRestore struct{ Entry workspace.StashEntry }
	StashDrop    struct{ Entry workspace.StashEntry }
)

// Entries is the stash as last delivered.
func (s *Stash) Entries() []workspace.StashEntry { return s.entries }

// stashTitle is an entry's text on one line, chips as their labels.
func stashTitle(md string) string {
	s := contextref.Replace(md, func(o contextref.Occurrence) string { return "[" + o.Label + "]" })
	s = strings.Join(strings.Fields(chips.SanitizeLine(strings.ReplaceAll(s, "\n", " "))), " ")
	if s == "" {
		return "(empty)"
	}
	return s
}

func (s *Stash) set(es []workspace.StashEntry, err error) {
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

func (s *Stash) entry(id string) (workspace.StashEntry, bool) {
	for _, e := range s.entries {
		if strconv.FormatInt(e.ID, 10) == id {
			return e, true
		}
	}
	return workspace.StashEntry{}, false
}

func (s *Stash) Scope() keymap.Scope { return keymap.ScopeStash }

func (s *Stash) Hints() string {
	k := s.keys
	return keymap.Join(keymap.Hint(k.StashRestore, "restore"), keymap.Hint(k.StashDelete, "delete"), keymap.Hint(k.StashClose, "close"))
}

func (s *Stash) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	switch msg := m.(type) {
	case StashListed:
		s.set(msg.Entries, msg.Err)
	case tea.KeyPressMsg:
		k := s.keys
		item, ok := s.Picker.Selected()
		switch {
		case key.Matches(msg, k.StashClose) || key.Matches(msg, k.StashList):
			return nil, nil, nil
		case key.Matches(msg, k.StashRestore):
			if e, found := s.entry(item.Value); ok && found {
				return nil, nil, StashRestore{e}
			}
		case key.Matches(msg, k.StashDelete):
			if e, found := s.entry(item.Value); ok && found {
				return s, nil, StashDrop{e}
			}
		default:
			s.FilterList.Key(k.ListKeys(), msg)
		}
	}
	return s, nil, nil
}

func (s *Stash) View(width, height int) []string {
	lines := strings.Split(s.Picker.View(width, max(3, height-2)), "\n")
	k := s.keys
	if q := s.Field.String(); q != "" {
		lines = append(lines, s.Field.View("filter: ", width))
	}
	return append(lines, chips.Truncate(keymap.Join("type to filter", keymap.Hint(k.StashRestore, "restore"), keymap.Hint(k.StashDelete, "delete"), keymap.Hint(k.StashClose, "close")), width))
}
