package ui

import (
	"errors"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/store"
)

// Thread chips (DESIGN.md 3.1, 3.5): the composer's # picker lists this
// project's other threads through threadSource.list, which the composer
// runs in a command; activating a thread chip in the transcript opens that
// thread when it is one of this environment's (and this project's), else
// says it is not here.

// threadSource lists the project's threads other than the open one. The
// open thread's id is kept in an atomic, since list runs off the UI
// goroutine.
type threadSource struct {
	st      *store.Store
	project int64
	current atomic.Pointer[string]
}

func newThreadSource(st *store.Store, project int64) *threadSource {
	return &threadSource{st: st, project: project}
}

// setCurrent names the open thread (from Update).
func (s *threadSource) setCurrent(id string) { s.current.Store(&id) }

// list is the composer's Threads provider: newest first, as the store
// lists them, without the open thread. It does I/O: commands only.
func (s *threadSource) list() ([]composer.ThreadItem, error) {
	if s.st == nil {
		return nil, errors.New("no store")
	}
	ts, err := s.st.Threads(s.project)
	if err != nil {
		return nil, err
	}
	cur := ""
	if p := s.current.Load(); p != nil {
		cur = *p
	}
	env := s.st.EnvironmentID()
	items := make([]composer.ThreadItem, 0, len(ts))
	for _, t := range ts {
		if t.ID == cur {
			continue
		}
		items = append(items, composer.ThreadItem{EnvironmentID: env, ThreadID: t.ID, Title: t.Title, Updated: t.Updated})
	}
	return items, nil
}

// threadRefOpenedMsg is the answer to "is that thread here?".
type threadRefOpenedMsg struct {
	id    string
	title string
	err   error
	other bool // it is in another project
}

// openThreadRef is a thread chip activated in the transcript.
func (a *App) openThreadRef(t *contextref.ThreadRecord) tea.Cmd {
	name := chips.SanitizeLine(t.Title)
	if name == "" {
		name = chips.SanitizeLine(t.ThreadID)
	}
	if t.EnvironmentID != a.st.EnvironmentID() {
		return a.notify("the thread “"+name+"” is not here: it belongs to another chipchat environment", true)
	}
	if t.ThreadID == a.thread.ID {
		return a.notify("that is this thread", false)
	}
	st, id, project := a.st, t.ThreadID, a.opt.Project.ID
	return func() tea.Msg {
		th, err := st.Thread(id)
		if err != nil {
			if errors.Is(err, store.ErrNotFound) {
				err = errors.New("the thread “" + name + "” is not here any more (deleted?)")
			}
			return threadRefOpenedMsg{id: id, err: err}
		}
		return threadRefOpenedMsg{id: id, title: th.Title, other: th.ProjectID != project}
	}
}

func (a *App) threadRefOpened(m threadRefOpenedMsg) tea.Cmd {
	switch {
	case m.err != nil:
		return a.notify(m.err.Error(), true)
	case m.other:
		return a.notify("the thread “"+chips.SanitizeLine(m.title)+"” belongs to another project: open chipchat there", true)
	}
	return a.switchThread(m.id)
}
