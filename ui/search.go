package ui

import (
	"fmt"
	"reflect"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/transcript"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/ui/overlay"
)

// The search in the thread (issue 27 item 1) is the transcript's; the app
// opens the field (dialog.Search) and says "3 of 17" in the hint bar.
func searchRows(add func(reflect.Type, handler)) {
	add(on(func(a *App, m transcript.SearchAskMsg) tea.Cmd {
		a.ovs.Push(dialog.NewSearch(a.keys, m.Query))
		return nil
	}))
	add(on(func(a *App, m transcript.SearchDoneMsg) tea.Cmd { a.tr.Update(m); return nil }))
	add(on(func(a *App, m dialog.FindFound) tea.Cmd { return a.deliver(overlay.Is[*dialog.Find], m) }))
}

// find acts on the search of every thread (dialog.Find): it opens, its
// queries run on the store's index in a command, and a message found
// opens its thread there (at once in the open thread, else once the
// thread is read: threadOpened).
func (a *App) find(res any) tea.Cmd {
	switch r := res.(type) {
	case dialog.FindStart:
		a.ovs.Push(dialog.NewFind(a.keys, a.ovs.Now))
	case dialog.FindAsk:
		if strings.TrimSpace(r.Text) == "" {
			return func() tea.Msg { return dialog.FindFound{Gen: r.Gen} }
		}
		search := a.nav.ws.Search(r.Text, r.Every)
		return func() tea.Msg {
			found, err := search()
			return dialog.FindFound{Gen: r.Gen, Found: found, Err: err}
		}
	case dialog.FindOpen:
		if r.ThreadID == a.thread.ID {
			if a.tr.Reveal(r.MessageID) {
				a.setFocus(paneTranscript)
			}
			return nil
		}
		a.nav.at = r.MessageID
		return a.nav.switchTo(r.ThreadID)
	}
	return nil
}

// searchHint is the search's place in the hint bar ("" none).
func searchHint(tr *transcript.Model, keys *keymap.Keys) string {
	q, at, total, pending := tr.SearchStatus()
	k := &keys.Transcript
	switch {
	case q == "":
		return ""
	case pending:
		return "searching…"
	case total == 0:
		return fmt.Sprintf("no match for %q", q)
	}
	return keymap.Join(fmt.Sprintf("%d of %d", at, total), keymap.Hint(k.SearchNext, "next"), keymap.Hint(k.SearchPrev, "previous"), keymap.Hint(keys.Cancel, "clear the search"))
}
