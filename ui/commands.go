package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/ui/overlay"
)

// Slash commands (issue 12 item 4): one table, chat.SlashCommands, that
// the `/` picker, the send path, F1 and the README read; who serves a
// `/name` (chipchat, or the agent's command of that name) is chat's rule
// (chat.Info.AgentServes): every command the agent advertises keeps its
// name, and chipchat's own of that name is then `/chipchat:<name>`; any
// other `/word` is plain text. Before an ACP agent's first turn its
// commands are the ones it advertised last (chat.KnownCommands). The picker (dialog.Commands, its items dialog.CommandItems) opens while the
// draft's first word starts with "/": picking an agent command writes it
// into the draft for enter to send; picking one of chipchat's runs it.

// The slash commands' results, which the app acts on in one place
// (runSlash).
type (
	slashRun    struct{ name, args string } // one of chipchat's commands (slashActions)
	slashCannot struct{ why string }        // chipchat cannot serve it with this backend
	slashNone   struct{ name string }       // no command of that name: refused once, enter again sends it
	slashTyped  struct{}                    // an agent's command was written into the draft
)

// slashActions is what each of chipchat's commands (chat.SlashCommands,
// by name) does, with its args.
var slashActions = map[string]func(a *App, args string) tea.Cmd{
	"new": func(a *App, _ string) tea.Cmd { return a.nav.newThread() },
	"fork": func(a *App, _ string) tea.Cmd {
		a.setFocus(paneTranscript)
		return a.notify("choose the message to fork from (↑↓) and press f", false)
	},
	"stash":  func(a *App, _ string) tea.Cmd { return a.stash.open() },
	"review": func(a *App, args string) tea.Cmd { return a.act(a.rv.open(args)) },
	"compact": func(a *App, _ string) tea.Cmd {
		a.chat.Send(a.thread.ID, chat.Submission{Markdown: chat.CompactCommand, Ref: a.ed.Draft().Version()})
		return nil
	},
	"export": func(a *App, args string) tea.Cmd {
		return a.conv.openExport(args, a.opt.Dir, a.opt.Home, a.opt.Clock.Now())
	},
	"mode":   func(a *App, args string) tea.Cmd { return a.conv.modeCommand(chat.ScopeModes, args) },
	"model":  func(a *App, args string) tea.Cmd { return a.conv.modeCommand(chat.ScopeModels, args) },
	"help":   func(a *App, _ string) tea.Cmd { a.openHelp(); return nil },
	"logout": func(a *App, _ string) tea.Cmd { a.chat.Logout(a.thread.ID); return nil },
	"quit":   func(a *App, _ string) tea.Cmd { return a.quit() },
}

// slash is the send path's part (chat.Service.SlashFor): for a slash
// command chipchat serves it clears the draft and reports what to do;
// false when the text is for the agent (its command, or plain text).
func (c *conversation) slash(text string, withChips bool) (any, bool) {
	r, ok := c.chat.SlashFor(c.thread.ID, text, withChips, c.unknown)
	switch {
	case r.Unknown != "":
		c.unknown = text
		return slashNone{r.Unknown}, true
	case !ok:
		if !withChips && text == c.unknown {
			c.unknown = ""
		}
		return nil, false
	}
	c.ed.Reset()
	if r.Cannot != "" {
		return slashCannot{chips.SanitizeLine(r.Cannot)}, true
	}
	return slashRun{r.Name, r.Args}, true
}

// runSlash does what a slash command asked.
func (a *App) runSlash(res any) tea.Cmd {
	var cmd tea.Cmd
	switch r := res.(type) {
	case slashRun:
		if act, ok := slashActions[r.name]; ok {
			cmd = act(a, r.args)
		}
	case slashCannot:
		cmd = a.notify(r.why, true)
	case slashNone:
		return a.notify("no command /"+chips.SanitizeLine(r.name)+" — enter again sends it as text", false)
	}
	return tea.Batch(a.afterComposer(), cmd)
}

// ---- the `/` picker ----

// syncCommandPicker opens, updates or closes the command picker
// (dialog.Commands) after the
// draft or caret changed; composing says the composer has the keys.
func (c *conversation) syncCommandPicker(composing bool) {
	open, isOpen := overlay.Of[*dialog.Commands](c.ovs)
	if c.ovs.Len() > 0 && !isOpen {
		return // another overlay is open (the modes picker among them)
	}
	q, ok := dialog.CommandQuery(c.ed.Draft())
	if !ok || !composing || c.ed.PickerOpen() || c.ed.Plain() { // ! shell mode: "/" is a character
		if !ok {
			c.dismissed = false
		}
		c.ovs.Remove(overlay.Is[*dialog.Commands])
		return
	}
	if q == "" {
		c.dismissed = false // a "/" typed anew
	}
	if c.dismissed {
		return
	}
	if !isOpen {
		open = dialog.NewCommands(c.keys, &c.ed.Keys, c.commandItems())
		c.ovs.Push(open)
	}
	open.Picker().SetQuery(q)
}

// refreshCommandItems re-reads the items of an open command picker (the
// agent's commands changed).
func (c *conversation) refreshCommandItems() {
	if p, ok := overlay.Of[*dialog.Commands](c.ovs); ok {
		p.Picker().SetItems(c.commandItems())
	}
}

// choose acts on a picked command: one of chipchat's runs (its result),
// an agent's is written into the draft for enter to send (slashTyped).
func (c *conversation) choose(value string) any {
	kind, name, _ := strings.Cut(value, ":")
	if kind == "c" {
		if res, ok := c.slash("/"+chat.OwnPrefix+name, false); ok {
			return res
		}
	}
	dialog.WriteCommand(c.ed.Draft(), name)
	return slashTyped{}
}

// commandItems lists what the command picker offers (dialog.CommandItems).
func (c *conversation) commandItems() []composer.PickerItem {
	caps := c.chat.Capabilities()
	return dialog.CommandItems(c.info(), func(cmd chat.SlashCommand) bool { return cmd.Needs == nil || cmd.Needs(caps) })
}

// commandHint is the footer's line while the draft holds an agent command
// (dialog.CommandHint); composing says the composer has the keys.
func (c *conversation) commandHint(composing bool) string {
	if !composing || c.ed.Plain() {
		return ""
	}
	return dialog.CommandHint(c.info(), c.ed.Draft())
}
