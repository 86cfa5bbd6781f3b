package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/ui/overlay"
)

// Modes and config options (issue 12 item 3): one picker — alt+m, /mode,
// /model — lists the modes and config options the agent offers
// (chat.ModeChoices: which ones, and how an argument resolves, are chat's
// rules). Choosing calls chat.Service.Choose; the header shows the mode,
// model and usage (chat.Info.Status). /mode and /model with an argument
// switch at once when it names a choice, else open the picker filtered.

// openModes opens the modes picker on scope, filtered by query.
func (c *conversation) openModes(scope chat.ModeScope, query string) tea.Cmd {
	if !c.chat.Capabilities().Modes {
		return c.notify(chips.SanitizeLine(c.chat.AgentName())+" has no modes or models to switch", true)
	}
	cs := chat.ModeChoices(c.info(), scope)
	what, title := scope.Names()
	if len(cs) == 0 {
		return c.notify("the agent has told of no "+what+" yet (it does once a turn has started the session)", false)
	}
	c.ovs.Remove(overlay.Is[*dialog.Commands]) // the modes picker takes its place
	c.ovs.Push(dialog.NewModes(&c.ed.Keys, c.keys.Interrupt, title, scope, cs, query))
	return nil
}

// modeCommand is /mode and /model: switch at once when args names a
// choice, else open the picker.
func (c *conversation) modeCommand(scope chat.ModeScope, args string) tea.Cmd {
	if ch, ok := chat.ResolveMode(c.info(), scope, args); ok {
		return c.applyMode(ch)
	}
	return c.openModes(scope, args)
}

// applyMode switches to ch.
func (c *conversation) applyMode(ch chat.ModeChoice) tea.Cmd {
	if ch.Current && !ch.Toggle {
		return c.notify(chips.SanitizeLine(ch.Label)+" is already on", false)
	}
	c.chat.Choose(c.thread.ID, ch)
	return c.toast.show("switching to "+chips.SanitizeLine(ch.Label), false, func() bool { return c.info().IsCurrent(ch) })
}

// refreshModes re-reads an open modes picker after AgentInfo (the current
// mark moves; the selection stays on its row).
func (c *conversation) refreshModes() {
	if m, ok := overlay.Of[*dialog.Modes](c.ovs); ok {
		m.Refresh(chat.ModeChoices(c.info(), m.ModeScope()))
	}
}
