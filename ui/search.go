package ui

import (
	"fmt"
	"reflect"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/transcript"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/ui/overlay"
)

// The search in the thread (issue 27 item 1) is the transcript's; the app
// opens the field (overlay.Search) and says "3 of 17" in the hint bar.
func searchRows(add func(reflect.Type, handler)) {
	add(on(func(a *App, m transcript.SearchAskMsg) tea.Cmd {
		a.ovs.Push(overlay.NewSearch(a.keys, m.Query))
		return nil
	}))
	add(on(func(a *App, m transcript.SearchDoneMsg) tea.Cmd { a.tr.Update(m); return nil }))
}

// searchHint is the search's place in the hint bar ("" none).
func (a *App) searchHint() string {
	q, at, total, pending := a.tr.SearchStatus()
	k := &a.keys.Transcript
	switch {
	case q == "":
		return ""
	case pending:
		return "searching…"
	case total == 0:
		return fmt.Sprintf("no match for %q", q)
	}
	return keymap.Join(fmt.Sprintf("%d of %d", at, total), keymap.Hint(k.SearchNext, "next"), keymap.Hint(k.SearchPrev, "previous"), keymap.Hint(a.keys.Cancel, "clear the search"))
}
