package ui

import (
	tea "charm.land/bubbletea/v2"
)

// sendsPausedQueue reports whether the send key sends the paused queue's
// next message: the composer has focus and holds nothing to send (blanks
// at most, no chip, no image), no picker is open and it is not in ! mode.
// The composer drops enter on such a draft, so the app takes the key
// before it.
func (a *App) sendsPausedQueue() bool {
	if !a.queuePaused || a.focus != paneComposer || a.ed.PickerOpen() || a.shell.on {
		return false
	}
	return a.ed.Draft().IsBlank()
}

// sendNextQueued is enter on an empty composer under a paused queue: its
// head is sent.
func (a *App) sendNextQueued() tea.Cmd {
	if !a.chat.SendNext(a.thread.ID) {
		return a.notify("nothing is queued", false)
	}
	return nil
}
