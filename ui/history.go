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

type history struct {
	entries []workspace.HistoryEntry // newest first
	pos     int                      // the entry shown, -1: the user's own draft
	typed   *composer.Draft          // the user's draft when the stepping began
	shown   uint64                   // the draft's version after the last step: an edit ends the stepping
	seq     int                      // the latest recall, so a late import is dropped
	on      bool                     // stepping through the history
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

// loadHistory reads the project's history in a command.
func (a *App) loadHistory() tea.Cmd {
	list := a.ws.History()
	return func() tea.Msg {
		e, err := list()
		return historyLoadedMsg{e, err}
	}
}

// remember appends a sent prompt to the history, then reads the history
// again (other processes' prompts included).
func (a *App) remember(m composer.SubmitMsg) tea.Cmd {
	a.hist.on, a.hist.typed = false, nil
	if strings.TrimSpace(m.Markdown) == "" && len(m.Records) == 0 {
		return nil
	}
	add, list := a.ws.Remember(m.Markdown, m.Records), a.ws.History()
	return func() tea.Msg {
		if err := add(); err != nil {
			return historyAddedMsg{err}
		}
		e, err := list()
		return historyLoadedMsg{e, err}
	}
}

// historyLoaded takes the project's history as read again (an open search
// lists it).
func (a *App) historyLoaded(msg historyLoadedMsg) tea.Cmd {
	if msg.err == nil && !a.hist.on {
		a.hist.entries = msg.entries
	}
	if s, ok := overlayOf[*historySearch](a.ovs); ok {
		s.set(a.hist.entries)
	}
	return nil
}

// historyKey is up and down in the composer: a step through the history
// when the caret is on the first (up) or last (down) line; ok false leaves
// the key to the editor.
func (a *App) historyKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	up, down := key.Matches(msg, a.keys.Editor.Up), key.Matches(msg, a.keys.Editor.Down)
	if !up && !down || a.ed.PickerOpen() || a.focus != paneComposer {
		return nil, false
	}
	h := &a.hist
	d := a.ed.Draft()
	if h.on && d.Version() != h.shown {
		h.on, h.typed = false, nil // edited: the edited text is the user's draft now
	}
	if _, _, sel := d.Selection(); sel {
		return nil, false
	}
	switch {
	case up && (d.IsEmpty() || d.Caret().Line == 0):
		next := 0
		if h.on {
			next = h.pos + 1
		}
		if next >= len(h.entries) {
			if h.on {
				return nil, true // the oldest: stay
			}
			return nil, false
		}
		if !h.on {
			h.on, h.typed = true, nil
			if !d.IsEmpty() {
				h.typed = d
			}
		}
		return a.recall(next), true
	case down && h.on && (d.IsEmpty() || d.Caret().Line == d.LineCount()-1):
		if h.pos == 0 {
			h.on = false
			h.seq++
			if h.typed != nil {
				a.ed.SetDraft(h.typed)
			} else {
				a.ed.Reset()
			}
			h.typed = nil
			return a.afterComposer(), true
		}
		return a.recall(h.pos - 1), true
	}
	return nil, false
}

// recall shows entry i at once with its records as stored, and imports
// them in a command (attachments bound afresh; a binary whose bytes are
// gone stays an unresolved chip).
func (a *App) recall(i int) tea.Cmd {
	h := &a.hist
	h.pos = i
	h.seq++
	e := h.entries[i]
	a.showPrompt(e.Markdown, e.Records)
	if len(e.Records) == 0 {
		return a.afterComposer()
	}
	return tea.Batch(a.afterComposer(), a.importPrompt(h.seq, e))
}

func (a *App) importPrompt(seq int, e workspace.HistoryEntry) tea.Cmd {
	env, local, reg := a.ws.EnvironmentID(), a.ws.Assets(), a.registry()
	return func() tea.Msg {
		f := &contextref.Fragment{Source: contextref.FragmentSource{EnvironmentID: env}, Records: e.Records}
		return historyImportedMsg{seq, clipboard.Import(e.Markdown, f, nil, env, reg.Lookup, local)}
	}
}

// showPrompt replaces the draft with a prompt, the caret at its end.
func (a *App) showPrompt(md string, recs []contextref.Record) {
	d := composer.FromMarkdown(md, recs)
	for _, r := range recs {
		if r.RecordBase().Kind == contextref.KindImage && d.References(r.RecordBase().ContextID) == 0 {
			d.AddImage(r)
		}
	}
	last := d.LineCount() - 1
	d.SetCaret(composer.Pos{Line: last, Col: len(d.Line(last))}, false)
	a.ed.SetDraft(d)
	a.hist.shown = a.ed.Draft().Version()
}

func (a *App) historyImported(m historyImportedMsg) tea.Cmd {
	if m.seq != a.hist.seq || !a.hist.on || a.ed.Draft().Version() != a.hist.shown {
		return nil // a later step, or edited meanwhile: the records as stored stay
	}
	a.showPrompt(m.imp.Text, m.imp.Records)
	if len(m.imp.Notes) > 0 {
		return tea.Batch(a.afterComposer(), a.notify("from the history: "+strings.Join(m.imp.Notes, "; "), true))
	}
	return a.afterComposer()
}

// ---- ctrl+r: the history search ----

type historySearch struct {
	composer.FilterList
	k       *Keys
	entries []workspace.HistoryEntry
}

// historyChosen is the entry the search chose (an index of its entries).
type historyChosen struct{ i int }

func (a *App) openHistorySearch() tea.Cmd {
	s := &historySearch{FilterList: composer.NewFilterList("history"), k: &a.keys}
	s.set(a.hist.entries)
	a.ovs.Push(s)
	return a.loadHistory()
}

func (s *historySearch) set(entries []workspace.HistoryEntry) {
	s.entries = entries
	items := make([]composer.PickerItem, len(entries))
	for i, e := range entries {
		title := contextref.Replace(e.Markdown, func(o contextref.Occurrence) string { return "[" + o.Label + "]" })
		items[i] = composer.PickerItem{Title: chips.SanitizeLine(strings.Join(strings.Fields(title), " ")),
			Detail: e.Created.Format("2006-01-02 15:04"), Value: strconv.Itoa(i)}
	}
	s.Picker.SetItems(items)
	s.Picker.SetQuery(s.Field.String())
}

func (s *historySearch) Scope() Scope { return ScopeHistory }

func (s *historySearch) Hints() string {
	k := s.k
	return joinHints("type words to search", hint(k.HistoryChoose, "use"), hint2(k.ListPrev, k.ListNext, "move"), hint(k.HistoryClose, "close"))
}

func (s *historySearch) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
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
		return nil, nil, historyChosen{i}
	default:
		s.FilterList.Key(k.listKeys(), msg)
	}
	return s, nil, nil
}

// useHistory puts the entry the search chose in the composer, as if
// stepped to it: down goes on to newer prompts and then back to the draft
// the user had typed.
func (a *App) useHistory(c historyChosen) tea.Cmd {
	if d := a.ed.Draft(); !a.hist.on || d.Version() != a.hist.shown {
		a.hist.typed = nil
		if !d.IsEmpty() {
			a.hist.typed = d
		}
	}
	a.hist.on = true
	a.setFocus(paneComposer)
	return a.recall(c.i)
}

func (s *historySearch) View(width, height int) []string {
	k := s.k
	lines := strings.Split(s.Picker.View(width, max(3, height-2)), "\n")
	lines = append(lines, s.Field.View("search: ", width))
	return append(lines, chips.Truncate(joinHints(hint(k.HistoryChoose, "use"), hint(k.ListNext, "next"), hint(k.HistoryClose, "close")), width))
}
