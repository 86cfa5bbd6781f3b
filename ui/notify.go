package ui

import (
	"reflect"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/notify"
)

// terminalProbedMsg is notify.Probe's result: Init runs the probe as a
// command; the focus reports and it are the message table's bellRows.
type terminalProbedMsg notify.Terminal

func probeTerminal() tea.Msg { return terminalProbedMsg(notify.Probe()) }

func bellRows(add func(reflect.Type, handler)) {
	add(on(func(a *App, _ tea.FocusMsg) tea.Cmd { a.conv.bell.SetFocus(true); return nil }))
	add(on(func(a *App, _ tea.BlurMsg) tea.Cmd { a.conv.bell.SetFocus(false); return nil }))
	add(on(func(a *App, m terminalProbedMsg) tea.Cmd { a.conv.bell.SetTerminal(notify.Terminal(m)); return nil }))
}

// rung writes the notification ([notify]) an event of chat's calls for.
func (c *conversation) rung(e chat.Event) tea.Cmd {
	var s string
	switch e := e.(type) {
	case chat.ReplyStarted:
		c.bell.Started(e.ThreadID, e.Started)
	case chat.ReplyFinished:
		s = c.bell.Ended(e.ThreadID, c.titleOf(e.ThreadID), e.Status == message.StatusError, e.Status != message.StatusDone, e.Ended)
	case chat.PermissionAsked:
		s = c.bell.Asked(e.ThreadID, c.titleOf(e.ThreadID), e.Tool.Title)
	case chat.SignInAsked:
		s = c.bell.Asked(e.ThreadID, c.titleOf(e.ThreadID), "sign in")
	case chat.ElicitationAsked:
		s = c.bell.Asked(e.ThreadID, c.titleOf(e.ThreadID), "input")
	}
	if s == "" {
		return nil
	}
	return rawCmd(s)
}

// titleOf is a notification's title: the open thread's, else chipchat's.
func (c *conversation) titleOf(threadID string) string {
	if c.here(threadID) && c.thread.Title != "" {
		return c.thread.Title
	}
	return "chipchat"
}
