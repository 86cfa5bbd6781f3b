package workspace

import (
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/store"
)

// StashEntry is a stashed draft of the project.
type StashEntry struct {
	ID       int64
	Markdown string
	Records  []contextref.Record
	Created  time.Time
}

// HistoryEntry is a prompt sent in the project.
type HistoryEntry struct {
	Markdown string
	Title    string // the prompt on one line with chips as labels (HistoryTitle)
	Records  []contextref.Record
	Created  time.Time
}

// Stash puts a draft into the project's stash; the command answers the
// entry's id (for DropStash).
func (w *Workspace) Stash(markdown string, recs []contextref.Record) func() (int64, error) {
	st, e := w.o.Store, store.StashEntry{ProjectID: w.project, Markdown: markdown, Records: recs}
	return func() (int64, error) {
		got, err := st.PushStash(e)
		return got.ID, err
	}
}

// Stashed lists the project's stash, newest first.
func (w *Workspace) Stashed() func() ([]StashEntry, error) {
	st, project := w.o.Store, w.project
	return func() ([]StashEntry, error) {
		es, err := st.Stash(project)
		out := make([]StashEntry, len(es))
		for i, e := range es {
			out[i] = StashEntry{ID: e.ID, Markdown: e.Markdown, Records: e.Records, Created: e.Created}
		}
		return out, err
	}
}

// DropStash deletes a stash entry.
func (w *Workspace) DropStash(id int64) func() error {
	st := w.o.Store
	return func() error { return st.DropStash(id) }
}

// Remember appends a sent prompt to the project's history.
func (w *Workspace) Remember(markdown string, recs []contextref.Record) func() error {
	st, project := w.o.Store, w.project
	return func() error { return st.AddHistory(project, markdown, recs) }
}

// History reads the project's last HistoryRows prompts, newest first
// (every chipchat of the project shares them).
func (w *Workspace) History() func() ([]HistoryEntry, error) {
	st, project := w.o.Store, w.project
	return func() ([]HistoryEntry, error) {
		es, err := st.History(project, HistoryRows)
		out := make([]HistoryEntry, len(es))
		for i, e := range es {
			out[i] = HistoryEntry{Markdown: e.Markdown, Title: HistoryTitle(e.Markdown), Records: e.Records, Created: e.Created}
		}
		return out, err
	}
}
