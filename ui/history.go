package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/ui/overlay"
	"github.com/chipchat/chipchat/workspace"
)

// Prompt history (issue 15): every prompt sent in the project goes to the
// project's history (workspace.Remember), so it survives restarts and
// every chipchat of the project shares it. Up on an empty draft or on the
// draft's first line shows the previous prompt with its chips, down the
// next; a draft the user had typed is the newest entry, so down brings it
// back. A recalled prompt's records go through the paste importer
// (clipboard.Import): attachments are bound afresh, or shown unresolved
// when their bytes are gone. The history search (ctrl+r) is a fuzzy list
// over the same entries.

// history is the prompt-history controller: the stepping
// (workspace.HistorySteps) wired to the composer — up/down on its first or
// last line, a search's choice — whose composer.Recall keeps the typed
// draft meanwhile.
type history struct {
	ws    *workspace.Workspace
	ed    *composer.Editor
	keys  *keymap.Keys
	ovs   *overlay.Stack
	toast *toastLine
	reg   *clipboard.Registry

	steps workspace.HistorySteps // the entries and the stepping through them
	rc    composer.Recall        // the user's draft when the stepping began, the prompt shown
}

type historyLoadedMsg struct {
	entries []workspace.HistoryEntry
	err     error
}

type historyAddedMsg struct{ err error }

type historyImportedMsg struct {
	seq int
	imp clipboard.ImportResult
}

// load reads the project's history in a command.
func (h *history) load() tea.Cmd {
	list := h.ws.History()
	return func() tea.Msg {
		e, err := list()
		return historyLoadedMsg{e, err}
	}
}

// remember appends a sent prompt to the history, then reads the history
// again (other processes' prompts included).
func (h *history) remember(m composer.SubmitMsg) tea.Cmd {
	h.steps.Stop()
	h.rc.Forget()
	if strings.TrimSpace(m.Markdown) == "" && len(m.Records) == 0 {
		return nil
	}
	add, list := h.ws.Remember(m.Markdown, m.Records), h.ws.History()
	return func() tea.Msg {
		if err := add(); err != nil {
			return historyAddedMsg{err}
		}
		e, err := list()
		return historyLoadedMsg{e, err}
	}
}

// loaded takes the project's history as read again (an open search
// lists it).
func (h *history) loaded(msg historyLoadedMsg) tea.Cmd {
	if msg.err == nil {
		h.steps.Read(msg.entries)
	}
	if s, ok := overlay.Of[*dialog.HistorySearch](h.ovs); ok {
		s.Set(h.steps.Entries())
	}
	return nil
}

// historyKey is up and down in the composer (history.key).
func (a *App) historyKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if a.ed.PickerOpen() || a.focus != paneComposer {
		return nil, false
	}
	if cmd, ok := a.hist.key(msg); ok {
		return tea.Batch(a.afterComposer(), cmd), true
	}
	return nil, false
}

// key is up or down in the composer: a step through the history when the
// caret is on the first (up) or last (down) line; ok false leaves the key
// to the editor. The draft changed when ok.
func (h *history) key(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	up, down := key.Matches(msg, h.keys.Editor.Up), key.Matches(msg, h.keys.Editor.Down)
	if !up && !down {
		return nil, false
	}
	d := h.ed.Draft()
	if h.steps.Stepping() && h.rc.Edited(h.ed) {
		h.steps.Stop() // edited: the edited text is the user's draft now
		h.rc.Forget()
	}
	var step workspace.Step
	switch {
	case up && composer.RecallsOn(d, true):
		var start bool
		if step, start = h.steps.Up(); start {
			h.rc.Keep(d)
		}
	case down && composer.RecallsOn(d, false):
		step = h.steps.Down()
	}
	switch step {
	case workspace.Stay:
		return nil, true
	case workspace.Show:
		return h.recall(), true
	case workspace.Back:
		h.rc.Back(h.ed)
		return nil, true
	}
	return nil, false
}

// recall shows the entry stepped to at once with its records as stored, and imports
// them in a command (attachments bound afresh; a binary whose bytes are
// gone stays an unresolved chip). The draft changed.
func (h *history) recall() tea.Cmd {
	e, seq := h.steps.Shown()
	h.rc.Show(h.ed, e.Markdown, e.Records)
	if len(e.Records) == 0 {
		return nil
	}
	return h.importPrompt(seq, e)
}

func (h *history) importPrompt(seq int, e workspace.HistoryEntry) tea.Cmd {
	imp := clipboard.Importer(h.ws.EnvironmentID(), h.reg, h.ws.Assets(), nil)
	return func() tea.Msg { return historyImportedMsg{seq, imp(e.Markdown, nil, e.Records...)} }
}

// imported shows a recalled prompt's records as imported (the draft
// changes).
func (h *history) imported(m historyImportedMsg) tea.Cmd {
	if !h.steps.Latest(m.seq) || h.rc.Edited(h.ed) {
		return nil // a later step, or edited meanwhile: the records as stored stay
	}
	h.rc.Show(h.ed, m.imp.Text, m.imp.Records)
	if len(m.imp.Notes) > 0 {
		return h.toast.show("from the history: "+strings.Join(m.imp.Notes, "; "), true)
	}
	return nil
}

// ---- ctrl+r: the history search ----

func (h *history) openSearch() tea.Cmd {
	h.ovs.Push(dialog.NewHistorySearch(h.keys, h.steps.Entries()))
	return h.load()
}

// use puts the entry the search chose in the composer, as if
// stepped to it: down goes on to newer prompts and then back to the draft
// the user had typed. The draft changes.
func (h *history) use(c dialog.HistoryChosen) tea.Cmd {
	if !h.steps.Stepping() || h.rc.Edited(h.ed) {
		h.rc.Keep(h.ed.Draft())
	}
	h.steps.Choose(c.Index)
	return h.recall()
}
