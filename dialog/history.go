package dialog

import (
	"cmp"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/workspace"
)

// HistorySearch is ctrl+r: a fuzzy list over the project's prompt history.
type HistorySearch struct {
	composer.FilterList
	k       *keymap.Keys
	entries []workspace.HistoryEntry
}

// HistoryChosen is the entry the search chose (an index of its entries).
type HistoryChosen struct{ Index int }

// NewHistorySearch lists entries (newest first).
func NewHistorySearch(k *keymap.Keys, entries []workspace.HistoryEntry) *HistorySearch {
	s := &HistorySearch{FilterList: composer.NewFilterList("history"), k: k}
	s.Set(entries)
	return s
}

// Set lists entries anew (the history as read again).
func (s *HistorySearch) Set(entries []workspace.HistoryEntry) {
	s.entries = entries
	items := make([]composer.PickerItem, len(entries))
	for i, e := range entries {
		items[i] = composer.PickerItem{Title: chips.SanitizeLine(cmp.Or(e.Title, workspace.HistoryTitle(e.Markdown))),
			Detail: e.Created.Format("2006-01-02 15:04"), Value: strconv.Itoa(i)}
	}
	s.Picker.SetItems(items)
	s.Picker.SetQuery(s.Field.String())
}

func (s *HistorySearch) Scope() keymap.Scope { return keymap.ScopeHistory }

func (s *HistorySearch) Hints() string {
	k := s.k
	return keymap.Join("type words to search", keymap.Hint(k.HistoryChoose, "use"), keymap.Hint2(k.ListPrev, k.ListNext, "move"), keymap.Hint(k.HistoryClose, "close"))
}

func (s *HistorySearch) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	msg, ok := m.(tea.KeyPressMsg)
	if !ok {
		return s, nil, nil
	}
	k := s.k
	switch {
	case key.Matches(msg, k.HistoryClose) || key.Matches(msg, k.HistorySearch):
		return nil, nil, nil
	case key.Matches(msg, k.HistoryChoose):
		item, ok := s.Picker.Selected()
		i, err := strconv.Atoi(item.Value)
		if !ok || err != nil || i >= len(s.entries) {
			return nil, nil, nil
		}
		return nil, nil, HistoryChosen{i}
	default:
		s.FilterList.Key(k.ListKeys(), msg)
	}
	return s, nil, nil
}

func (s *HistorySearch) View(width, height int) []string {
	k := s.k
	lines := strings.Split(s.Picker.View(width, max(3, height-2)), "\n")
	lines = append(lines, s.Field.View("search: ", width))
	return append(lines, chips.Truncate(keymap.Join(keymap.Hint(k.HistoryChoose, "use"), keymap.Hint(k.ListNext, "next"), keymap.Hint(k.HistoryClose, "close")), width))
}
