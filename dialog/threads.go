package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/workspace"
)

// Threads is the thread list: a filtered list of the project's threads,
// the open one marked; enter opens one, and a thread is renamed in place
// or deleted (asked first, by the app).
type Threads struct {
	composer.FilterList
	k        *keymap.Keys
	threads  []workspace.Thread
	sessions chat.AgentSessions // the agent's, below the threads (none: no section)
	current  string             // the open thread, marked in the list
	renaming composer.Field
	rename   string // id of the thread being renamed
}

// NewThreads is the list, loading, with current marked.
func NewThreads(k *keymap.Keys, current string) *Threads {
	s := &Threads{FilterList: composer.NewFilterList("threads"), k: k, current: current}
	s.Picker.SetLoading(true)
	return s
}

// ThreadsListed is the project's threads as read, delivered to the list.
type ThreadsListed struct {
	Threads []workspace.Thread
	Err     error
}

// What the thread list asks of the app.
type (
	ThreadOpen   struct{ ID string }
	ThreadRename struct{ ID, Title string }
	ThreadDelete struct{ ID, Title string } // to be confirmed
	SessionOpen  struct{ Session chat.AgentSession }
)

// SetCurrent marks id as the open thread ("": none, the next opening).
func (s *Threads) SetCurrent(id string) {
	if s.current = id; s.threads != nil {
		s.setThreads(s.threads, nil)
	}
}

// Listed is the threads as last delivered (nil: not yet).
func (s *Threads) Listed() []workspace.Thread { return s.threads }

// Renaming is the thread being renamed and the title typed ("": none).
func (s *Threads) Renaming() (id, title string) { return s.rename, s.renaming.String() }

func (s *Threads) setThreads(ts []workspace.Thread, err error) {
	s.threads = ts
	if err != nil {
		s.Picker.SetError(err)
		return
	}
	items := make([]composer.PickerItem, 0, len(ts)+1)
	listed := false
	for _, t := range ts {
		listed = listed || t.ID == s.current
		items = append(items, threadItem(t, t.ID == s.current))
	}
	if !listed && s.current != "" {
		// the open thread has no message or draft yet: not stored, still here
		items = append([]composer.PickerItem{threadItem(workspace.Thread{ID: s.current}, true)}, items...)
	}
	for _, r := range s.sessions.Rows() {
		items = append(items, composer.PickerItem(r))
	}
	s.Picker.SetItems(items)
	s.Picker.SetQuery(s.Field.String())
}

// threadItem is a thread's row (workspace.Thread.Row).
func threadItem(t workspace.Thread, current bool) composer.PickerItem {
	title, detail := t.Row(current)
	return composer.PickerItem{Title: title, Detail: detail, Value: t.ID}
}

// title is thread id's title as stored ("" for none).
func (s *Threads) title(id string) string {
	for _, t := range s.threads {
		if t.ID == id {
			return chips.SanitizeLine(t.Title)
		}
	}
	return ""
}

func (s *Threads) Scope() keymap.Scope { return keymap.ScopeThreads }

func (s *Threads) Hints() string {
	k := s.k
	if s.rename != "" {
		return keymap.Join(keymap.Hint(k.RenameSave, "save"), keymap.Hint(k.RenameCancel, "cancel"), keymap.Hint(k.FieldClear, "clear"), keymap.Hint(k.FieldDeleteWord, "delete word"))
	}
	return keymap.Join(keymap.Hint(k.ThreadsOpen, "open"), keymap.Hint(k.ThreadsRename, "rename"), keymap.Hint(k.ThreadsDelete, "delete"), keymap.Hint(k.ThreadsFind, "search messages"), keymap.Hint(k.ThreadsClose, "close"))
}

func (s *Threads) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	switch msg := m.(type) {
	case ThreadsListed:
		s.setThreads(msg.Threads, msg.Err)
	case chat.AgentSessions:
		s.sessions = msg
		s.SetCurrent(s.current) // drawn with the threads
	case tea.KeyPressMsg:
		if s.rename != "" {
			return s, nil, s.renameKey(msg)
		}
		return s.key(msg)
	}
	return s, nil, nil
}

func (s *Threads) renameKey(msg tea.KeyPressMsg) any {
	k := s.k
	switch {
	case key.Matches(msg, k.RenameCancel):
		s.rename = ""
	case key.Matches(msg, k.RenameSave):
		id, title := s.rename, strings.TrimSpace(s.renaming.String())
		s.rename = ""
		return ThreadRename{id, title}
	default:
		s.renaming.Key(k.FieldKeys(), msg)
	}
	return nil
}

func (s *Threads) key(msg tea.KeyPressMsg) (Overlay, tea.Cmd, any) {
	k := s.k
	item, ok := s.Picker.Selected()
	sess, isSession := s.sessions.Of(item.Value)
	ok = ok && item.Value != "" && !isSession // a thread's row
	switch {
	case key.Matches(msg, k.ThreadsOpen) && isSession:
		return nil, nil, SessionOpen{sess}
	case key.Matches(msg, k.ThreadsClose) || key.Matches(msg, k.Threads):
		return nil, nil, nil
	case key.Matches(msg, k.ThreadsFind):
		return nil, nil, FindStart{}
	case key.Matches(msg, k.ThreadsOpen):
		if ok {
			return nil, nil, ThreadOpen{item.Value}
		}
	case key.Matches(msg, k.ThreadsRename):
		if ok {
			s.rename = item.Value
			s.renaming.Set(s.title(item.Value))
		}
	case key.Matches(msg, k.ThreadsDelete):
		if ok {
			return s, nil, ThreadDelete{item.Value, s.title(item.Value)}
		}
	default:
		s.FilterList.Key(k.ListKeys(), msg)
	}
	return s, nil, nil
}

func (s *Threads) View(width, height int) []string {
	k := s.k
	lines := strings.Split(s.Picker.View(width, max(3, height-3)), "\n")
	if s.rename != "" {
		lines = append(lines, s.renaming.View("New title: ", width))
		return append(lines, chips.Truncate(keymap.Join(keymap.Hint(k.RenameSave, "save"), keymap.Hint(k.RenameCancel, "cancel"), keymap.Hint(k.FieldClear, "clear")), width))
	}
	if q := s.Field.String(); q != "" {
		lines = append(lines, s.Field.View("filter: ", width))
	}
	return append(lines, chips.Truncate(keymap.Join("type to filter", keymap.Hint(k.ThreadsOpen, "open"), keymap.Hint(k.ThreadsRename, "rename"),
		keymap.Hint(k.ThreadsDelete, "delete"), keymap.Hint(k.ThreadsClose, "close")), width))
}
