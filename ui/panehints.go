package ui

import "github.com/chipchat/chipchat/ui/keymap"

// chipSelected reports whether the composer has one chip selected (a
// backspace next to it selected it; the next one deletes it).
func (a *App) chipSelected() bool {
	_, ok := a.ed.SelectedChip()
	return ok
}

// paneHints is the hint bar of the focused pane, from the keys bound.
func (a *App) paneHints() string {
	k := a.keys
	switch {
	case a.focus == paneTranscript:
		if h := searchHint(a.tr, k); h != "" {
			return h
		}
		return keymap.Join(keymap.Hint2(k.Transcript.Up, k.Transcript.Down, "messages"), keymap.Hint2(k.Transcript.PrevChip, k.Transcript.NextChip, "chips"), keymap.Hint(k.Transcript.Details, "details"),
			keymap.Hint(k.Transcript.Open, "open"), keymap.Hint(k.Transcript.Copy, "copy"), keymap.Hint(k.Cancel, "back"), keymap.Hint(k.FocusNext, "next pane"),
			keymap.Hint(k.Help, "keys"), keymap.Hint(k.Quit, "quit"))
	case a.focus == paneShelf:
		return keymap.Join(keymap.Hint2(k.ShelfLeft, k.ShelfRight, "choose"), keymap.Hint(k.ShelfRemove, "remove"), keymap.Hint(k.ShelfOpen, "open"), keymap.Hint(k.Cancel, "back"))
	case a.focus == paneTerminal && a.panes.pane.InCopyMode():
		return "copy mode: ↑↓/jk move · v select lines · y capture · esc leave"
	case a.focus == paneTerminal:
		return keymap.Join("keys go to the shell", keymap.Hint(k.Terminal, "composer"), keymap.Hint(k.CopyMode, "copy mode"), keymap.Hint(k.QuickCapture, "capture last output"),
			keymap.Hint(k.NewTerminal, "new"), keymap.Hint(k.CloseTerminal, "close"), keymap.Hint(k.HidePane, "hide"), keymap.Hint(k.ZoomTerminal, "zoom"), keymap.Hint(k.TerminalSide, "side"),
			keymap.Hint(k.Help, "keys"))
	case a.shell.run != nil:
		return keymap.Join("running: "+a.shell.cmdline, keymap.Hint(k.ShellKill, "kill"), keymap.Hint(k.Help, "keys"), keymap.Hint(k.Quit, "quit"))
	case a.shell.on:
		return keymap.Join("! shell mode", keymap.Hint(k.Editor.Submit, "run"), keymap.Hint(k.ShellLeave, "leave"), keymap.Hint(k.Help, "keys"), keymap.Hint(k.Quit, "quit"))
	case a.focus == paneComposer && a.ed.PickerMatches(): // the @ $ # pickers, worded as the others
		return keymap.Join(keymap.PickerHints(&k.Editor, "pick"), keymap.Hint(k.Help, "keys"))
	case a.focus == paneComposer && a.chipSelected():
		return keymap.Join(keymap.Hint(k.Editor.DeleteBack, "deletes the chip"), keymap.Hint2(k.Editor.Left, k.Editor.Right, "keep it"), keymap.Hint(k.Help, "keys"))
	case a.conv.turnShown():
		return keymap.Join(keymap.Hint(k.Editor.Submit, "queue"), keymap.Hint(k.Cancel, "cancel turn"), keymap.Hint(k.Editor.Newline, "newline"),
			keymap.Hint(k.FocusNext, "transcript"), keymap.Hint(k.Help, "keys"), keymap.Hint(k.Quit, "quit"))
	}
	return keymap.Join(keymap.Hint(k.Editor.Submit, "send"), keymap.Hint(k.Editor.Newline, "newline"), "@ file", "$ skill", "/ command", "! shell",
		keymap.Hint(k.Editor.Up, "history"), keymap.Hint(k.HistorySearch, "search"), keymap.Hint(k.Attach, "attach"), keymap.Hint(k.Terminal, "terminal"),
		keymap.Hint(k.FocusNext, "transcript"), keymap.Hint(k.NewThread, "new"), keymap.Hint(k.Threads, "threads"), keymap.Hint(k.Help, "keys"), keymap.Hint(k.Quit, "quit"))
}
