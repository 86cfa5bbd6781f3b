package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/workspace"
)

// Draft autosave (issue 14). The bookkeeping — which version is on disk,
// the pending tick, the running write, failures and retries, a stopped
// quit — is workspace.DraftSaves'; this file is its wiring: the timer (a
// tea.Tick), the save command, the toasts. When a changed draft is due on
// disk is workspace.Autosave's schedule (a debounce of workspace.SaveQuiet, a
// ceiling of workspace.SaveCeiling). One timer is pending at a time (not
// one per key). When it fires the UI goroutine takes a snapshot of the
// draft (composer.Draft.Snapshot: a copy of its chunk pointers, one per
// 256 lines or so); the save's command writes the pieces of it the store
// lacks — the one the typing changed (workspace.SaveText,
// store.SavePiecedDraftOver) — so typing costs about the same in a
// 10,000-line draft as in a 100-line one (TestTypingCostFlat). Saves run one at a
// time; a change during a write is saved when it ends.
//
// Each save carries the draft's revision (workspace.SaveDraft): a save
// over a revision this process has not seen — another chipchat saved the
// draft — keeps the other version in the stash and says so in a toast.
//
// A failed write loses nothing: the draft stays in the composer, a toast
// says it is not saved yet and why, and the save is tried again every
// workspace.SaveRetry until the store writes again. A draft whose save
// failed while the user switched threads is kept in memory
// (DraftSaves keeps it), tried again with the others, and is what the thread
// shows when it is opened again.
//
// Quit and signals save at once (finishQuit calls drafts.saveAndQuit,
// Close drafts.save). A quit whose save fails does not quit: a toast says the
// draft is not saved and why, and the next quit goes through.

type draftTickMsg struct{ seq int }

type draftSavedMsg struct {
	end     workspace.SaveEnd
	version uint64 // the composer's draft version that was written
}

// drafts is the draft-save controller: the bookkeeping's (book) wiring to
// the composer, chat, the timer and the toasts. The clock (book.Sched.Now)
// and the timer are time.Now and tea.Tick unless a test sets them.
type drafts struct {
	ws     *workspace.Workspace
	ed     *composer.Editor
	chat   *chat.Service
	thread *workspace.Thread // the open thread (the App's)
	toast  *toastLine
	book   workspace.DraftSaves
	tick   func(d time.Duration, msg tea.Msg) tea.Cmd
}

// timer sends the tick t asks for (nil: none).
func (s *drafts) timer(t *workspace.Timer) tea.Cmd {
	switch {
	case t == nil:
		return nil
	case s.tick != nil:
		return s.tick(t.After, draftTickMsg{t.Seq})
	}
	return tea.Tick(t.After, func(time.Time) tea.Msg { return draftTickMsg{t.Seq} })
}

// loaded notes the revision of the draft a thread opened with, and
// gives back a draft of that thread whose save failed, in place of the
// stored one.
func (s *drafts) loaded(threadID string, d *workspace.Draft) *workspace.Draft {
	if u, ok := s.book.Loaded(threadID); ok {
		return &u
	}
	s.ws.DraftLoaded(threadID, d)
	return d
}

// afterComposer notes a change of the draft and makes sure a save is
// coming (at the debounce or the ceiling, whichever is first); a changed
// draft may change the layout.
func (a *App) afterComposer() tea.Cmd {
	changed, t := a.drafts.book.Changed(a.ed.Draft().Version())
	if changed {
		a.layout()
	}
	return a.drafts.timer(t)
}

// due is the save timer: save now when the draft is due (a send storing
// it owns it: the save comes after), else wait.
func (s *drafts) due(m draftTickMsg) tea.Cmd {
	v := s.ed.Draft().Version()
	d, ok := s.book.Tick(m.seq, s.thread.ID, v, s.chat.Sending(s.thread.ID, v))
	if !ok {
		return nil
	}
	cmds := []tea.Cmd{s.timer(d.Timer)}
	for _, r := range d.Retries {
		cmds = append(cmds, s.retryCmd(r.No, r.Draft))
	}
	if d.Save {
		cmds = append(cmds, s.save())
	}
	return tea.Batch(cmds...)
}

// save writes the draft as it is now (canonical Markdown, records,
// caret) in a command: the UI goroutine takes the snapshot, the command
// serializes it (its cost comes back in the save's end, for the schedule).
func (s *drafts) save() tea.Cmd {
	d := s.ed.Draft()
	if s.chat.Sending(s.thread.ID, d.Version()) {
		// The draft on screen is the message being stored: the send
		// clears it on disk; saving it again would bring it back.
		return nil
	}
	start, snap := time.Now(), d.Snapshot()
	no, c := s.book.Save(snap.Version(), time.Since(start)), snap.Caret()
	save := s.ws.SaveText(no, s.thread.ID, snap, workspace.Caret{Line: c.Line, Col: c.Col})
	return func() tea.Msg { return draftSavedMsg{version: snap.Version(), end: save()} }
}

func (s *drafts) retryCmd(no uint64, sd workspace.Draft) tea.Cmd {
	save := s.ws.SaveDraft(no, sd)
	return func() tea.Msg {
		res, err := save()
		return draftSavedMsg{end: workspace.SaveEnd{ThreadID: sd.ThreadID, Draft: sd, Result: res, Err: err}}
	}
}

// saved is a save's end (workspace.DraftSaves.Ended): its notes as toasts,
// and the timer of what is due next.
func (s *drafts) saved(m draftSavedMsg) tea.Cmd {
	notes, t := s.book.Ended(m.end, s.thread.ID, s.ed.Draft().Version())
	cmds := []tea.Cmd{s.timer(t)}
	for _, n := range notes {
		cmds = append(cmds, s.toast.show(n.Text, n.Err))
	}
	return tea.Batch(cmds...)
}

// saveAndQuit saves the draft and then quits, in one command: when the save
// fails, the quit stops (the draft stays in the composer and a toast says
// so) unless a quit was stopped before; then, before quitting, done runs.
// A draft that a send is storing is not saved (save: the send clears
// it on disk).
func (s *drafts) saveAndQuit(done func()) tea.Cmd {
	save := s.save()
	force := s.book.QuitBlocked()
	return func() tea.Msg {
		var m draftSavedMsg
		if save != nil {
			m, _ = save().(draftSavedMsg)
		}
		if m.end.Err != nil && !force {
			m.end.QuitStopped = true
			return m
		}
		done()
		return tea.QuitMsg{}
	}
}
