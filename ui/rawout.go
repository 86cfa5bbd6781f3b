package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/tty"
)

// rawCmd writes s (a bell, a notification) to the terminal: at once,
// between two frames, when package tty draws them; else through Bubble
// Tea (tea.Raw, with its next frame).
func rawCmd(s string) tea.Cmd {
	if !tty.Active() {
		return tea.Raw(s)
	}
	return func() tea.Msg {
		tty.WriteRaw(s)
		return nil
	}
}

// setClipboardCmd copies text with OSC 52, the way rawCmd writes.
func setClipboardCmd(text string) tea.Cmd {
	if !tty.Active() {
		return tea.SetClipboard(text)
	}
	return rawCmd(ansi.SetSystemClipboard(text))
}
