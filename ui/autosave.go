package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/workspace"
)

// Draft autosave (issue 14). When a changed draft is due on disk is
// workspace.Autosave's schedule (a debounce of workspace.SaveQuiet, a
// ceiling of workspace.SaveCeiling). One timer is pending at a time (not
// one per key), and the draft is serialized only when the timer fires: at
// most one serialization per SaveQuiet while the user types, never one per
// key (BenchmarkAutosaveSerialize measures one: about 4 ms for a 1 MiB
// draft, 60 ms for 16 MiB). The write runs in a command, one at a time; a
// change during a write is saved when it ends.
//
// Each save carries the draft's revision (workspace.SaveDraft): a save
// over a revision this process has not seen — another chipchat saved the
// draft — keeps the other version in the stash and says so in a toast.
//
// A failed write loses nothing: the draft stays in the composer, a toast
// says it is not saved yet and why, and the save is tried again every
// workspace.SaveRetry until the store writes again. A draft whose save
// failed while the user switched threads is kept in memory
// (drafts.unsaved), tried again with the others, and is what the thread
// shows when it is opened again.
//
// Quit and signals save at once (finishQuit calls drafts.saveAndQuit,
// Close drafts.save). A quit whose save fails does not quit: a toast says the
// draft is not saved and why, and the next quit goes through.

// The other chipchat's version went to the stash.
const conflictNote = "another chipchat changed this draft; your other version is in the stash"

type draftTickMsg struct{ seq int }

type draftSavedMsg struct {
	threadID string
	version  uint64 // the composer's draft version that was written
	composer bool   // written by drafts.save (else a retry of another thread's draft)
	draft    workspace.Draft
	res      workspace.DraftSaved
	skipped  bool // a newer save of the thread was written first
	err      error
	// quitStopped: this was the save of a quit, which it stopped.
	quitStopped bool
}

// drafts is the draft-save controller: when the composer's draft goes to
// disk, and what a save's end means. The clock (sched.Now) and the timer
// are time.Now and tea.Tick unless a test sets them.
type drafts struct {
	ws     *workspace.Workspace
	ed     *composer.Editor
	chat   *chat.Service
	thread *workspace.Thread // the open thread (the App's)
	toast  *toastLine

	savedVersion uint64 // the composer's draft version on disk

	sched workspace.Autosave // when the changes are due
	tick  func(d time.Duration, msg tea.Msg) tea.Cmd

	seen    uint64 // the draft version afterComposer last saw
	armed   bool   // a draftTickMsg is pending
	seq     int    // the pending tick's number (older ones are stale)
	writing bool   // a save command is running
	retry   bool   // the last write failed: the draft is not on disk
	failed  error  // the last write's error, until one succeeds
	saveNo  uint64 // numbers the saves, so an older one never overwrites a newer

	unsaved map[string]workspace.Draft // drafts of other threads whose save failed
	// quitBlocked: a quit stopped because the draft could not be saved; the
	// next quit goes through whatever the save does.
	quitBlocked bool
}

func (s *drafts) after(d time.Duration, msg tea.Msg) tea.Cmd {
	if s.tick != nil {
		return s.tick(d, msg)
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// arm starts the timer unless one is pending or a write is running (its
// end arms it).
func (s *drafts) arm(d time.Duration) tea.Cmd {
	if s.armed || s.writing {
		return nil
	}
	s.armed = true
	s.seq++
	return s.after(max(d, 0), draftTickMsg{s.seq})
}

// loaded notes the revision of the draft a thread opened with, and
// gives back a draft of that thread whose save failed, in place of the
// stored one.
func (s *drafts) loaded(threadID string, d *workspace.Draft) *workspace.Draft {
	s.retry = false // a retry was for the thread left (its draft is in unsaved)
	if u, ok := s.unsaved[threadID]; ok {
		s.retry = true // not on disk: save it again
		return &u
	}
	s.ws.DraftLoaded(threadID, d)
	return d
}

// dirty reports whether the composer holds changes not on disk.
func (s *drafts) dirty() bool {
	return s.ed.Draft().Version() != s.savedVersion || s.retry
}

// afterComposer notes a change of the draft and makes sure a save is
// coming (drafts.changed); a changed draft may change the layout.
func (a *App) afterComposer() tea.Cmd {
	changed, cmd := a.drafts.changed()
	if changed {
		a.layout()
	}
	return cmd
}

// changed notes a change of the draft (reported) and makes sure a save is
// coming: at the debounce or the ceiling, whichever is first.
func (s *drafts) changed() (bool, tea.Cmd) {
	v := s.ed.Draft().Version()
	changed := v != s.seen
	if changed {
		s.seen = v
	}
	if !s.dirty() {
		return changed, nil
	}
	s.sched.Changed(changed)
	return changed, s.arm(s.sched.Wait())
}

// due is the save timer: save now when the draft has been quiet
// for saveQuiet or waited saveCeiling; else wait for the sooner of the two.
func (s *drafts) due(m draftTickMsg) tea.Cmd {
	if m.seq != s.seq || !s.armed {
		return nil
	}
	s.armed = false
	var cmds []tea.Cmd
	if len(s.unsaved) > 0 {
		cmds = append(cmds, s.saveUnsaved())
	}
	if !s.dirty() {
		s.sched.Clear()
		return tea.Batch(cmds...)
	}
	s.sched.Changed(false)
	if w := s.sched.Wait(); w > 0 {
		return tea.Batch(append(cmds, s.arm(w))...)
	}
	if s.ownedBySend() {
		// A send being stored owns the draft (it clears it once stored):
		// save after it.
		return tea.Batch(append(cmds, s.arm(20*time.Millisecond))...)
	}
	return tea.Batch(append(cmds, s.save())...)
}

// ownedBySend reports whether a send is storing the draft.
func (s *drafts) ownedBySend() bool { return s.chat.Sending(s.thread.ID, s.ed.Draft().Version()) }

// save writes the draft as it is now (canonical Markdown, records,
// caret) in a command. The serialization is here, on the UI goroutine,
// once per save.
func (s *drafts) save() tea.Cmd {
	if s.ownedBySend() {
		// The draft on screen is the message being stored: the send
		// clears it on disk; saving it again would bring it back.
		return nil
	}
	d := s.ed.Draft()
	c := d.Caret()
	start := time.Now()
	sd := workspace.Draft{ThreadID: s.thread.ID, Markdown: d.Markdown(), Records: d.Records(), Caret: workspace.Caret{Line: c.Line, Col: c.Col}}
	s.sched.Saving(time.Since(start))
	v := d.Version()
	s.savedVersion, s.seen = v, v
	s.retry = false
	if s.armed { // the pending tick is for what this save writes
		s.armed = false
		s.seq++
	}
	s.writing = true
	s.saveNo++
	return s.saveCmd(s.saveNo, v, true, sd)
}

func (s *drafts) saveCmd(no, version uint64, composer bool, sd workspace.Draft) tea.Cmd {
	save := s.ws.SaveDraft(no, sd)
	return func() tea.Msg {
		res, err := save()
		return draftSavedMsg{threadID: sd.ThreadID, version: version, composer: composer, draft: sd, res: res, skipped: res.Skipped, err: err}
	}
}

// saveUnsaved tries again the drafts of other threads whose save failed.
func (s *drafts) saveUnsaved() tea.Cmd {
	var cmds []tea.Cmd
	for id, d := range s.unsaved {
		if id == s.thread.ID {
			continue
		}
		s.saveNo++
		cmds = append(cmds, s.saveCmd(s.saveNo, 0, false, d))
	}
	return tea.Batch(cmds...)
}

// saved is a save's end: on failure the draft is kept (in the
// composer, or in memory for another thread) and tried again; a conflict
// says where the other version went; changes made meanwhile are saved
// when due.
func (s *drafts) saved(m draftSavedMsg) tea.Cmd {
	current := m.threadID == s.thread.ID
	if m.composer {
		s.writing = false
	}
	if current && !m.composer {
		// A retry of a draft the composer holds again (the thread was
		// opened meanwhile): the composer's own saves own it now.
		return nil
	}
	var cmds []tea.Cmd
	if m.quitStopped {
		s.quitBlocked = true
		cmds = append(cmds, s.toast.show("not quitting: the draft is not saved ("+causeWords(m.err)+") — quit again to leave without it", true))
	}
	switch {
	case m.err != nil:
		// Kept until a save of it works, whatever the composer shows next
		// (a thread switch replaces it right after this save).
		if s.unsaved == nil {
			s.unsaved = map[string]workspace.Draft{}
		}
		s.unsaved[m.threadID] = m.draft
		if current {
			s.retry = true
			s.sched.Failed() // due at the retry
		}
		first := s.failed == nil
		s.failed = m.err
		if (first || current) && !m.quitStopped {
			cmds = append(cmds, s.toast.show(notSavedNote(m.err), true))
		}
		if !s.armed {
			s.armed = true
			s.seq++
			cmds = append(cmds, s.after(workspace.SaveRetry, draftTickMsg{s.seq}))
		}
		return tea.Batch(cmds...)
	case !m.skipped:
		delete(s.unsaved, m.threadID)
		if s.failed != nil && len(s.unsaved) == 0 && !s.retry {
			s.failed = nil
			cmds = append(cmds, s.toast.show("draft saved: the store writes again", false))
		}
		if m.res.Conflict {
			cmds = append(cmds, s.toast.show(conflictNote, true))
		}
	}
	if current && s.dirty() {
		s.sched.Changed(false)
		cmds = append(cmds, s.arm(s.sched.Wait()))
	}
	return tea.Batch(cmds...)
}

// notSavedNote is the toast of a failed save: the cause first (the screen
// may cut the end), then that nothing is lost.
func notSavedNote(err error) string {
	return "draft not saved yet: " + causeWords(err) + " — it stays in the composer and is saved when the store writes again"
}

// causeWords is a store error's cause and file, else the error.
func causeWords(err error) string { return workspace.ErrorWords(err) }

// saveAndQuit saves the draft and then quits, in one command: when the save
// fails, the quit stops (the draft stays in the composer and a toast says
// so) unless a quit was stopped before; then, before quitting, done runs.
// A draft that a send is storing is not saved (save: the send clears
// it on disk).
func (s *drafts) saveAndQuit(done func()) tea.Cmd {
	save := s.save()
	force := s.quitBlocked
	return func() tea.Msg {
		var m draftSavedMsg
		if save != nil {
			m, _ = save().(draftSavedMsg)
		}
		if m.err != nil && !force {
			m.quitStopped = true
			return m
		}
		done()
		return tea.QuitMsg{}
	}
}
