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

// The slash commands' results: what each of chipchat's commands asks of
// the app, which acts on it in one place (runSlash).
type (
	slashNew     struct{}
	slashFork    struct{}
	slashStash   struct{}
	slashReview  struct{ args string }
	slashCompact struct{}
	slashExport  struct{ path string }
	slashMode    struct {
		scope chat.ModeScope
		args  string
	}
	slashHelp   struct{}
	slashLogout struct{}
	slashQuit   struct{}
	slashCannot struct{ why string }  // chipchat cannot serve it with this backend
	slashNone   struct{ name string } // no command of that name: refused once, enter again sends it
	slashTyped  struct{}              // an agent's command was written into the draft
)

// slashAction is what chipchat's command name asks, with args.
func slashAction(name, args string) any {
	switch name {
	case "new":
		return slashNew{}
	case "fork":
		return slashFork{}
	case "stash":
		return slashStash{}
	case "review":
		return slashReview{args}
	case "compact":
		return slashCompact{}
	case "export":
		return slashExport{args}
	case "mode":
		return slashMode{chat.ScopeModes, args}
	case "model":
		return slashMode{chat.ScopeModels, args}
	case "logout":
		return slashLogout{}
	case "help":
		return slashHelp{}
	case "quit":
		return slashQuit{}
	}
	return nil
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
	return slashAction(r.Name, r.Args), true
}

// runSlash does what a slash command asked.
func (a *App) runSlash(res any) tea.Cmd {
	var cmd tea.Cmd
	switch r := res.(type) {
	case slashNew:
		cmd = a.nav.newThread()
	case slashFork:
		a.setFocus(paneTranscript)
		cmd = a.notify("choose the message to fork from (↑↓) and press f", false)
	case slashStash:
		cmd = a.stash.open()
	case slashReview:
		cmd = a.act(a.rv.open(r.args))
	case slashExport:
		cmd = a.conv.openExport(r.path, a.opt.Dir, a.opt.Home, a.opt.Clock.Now())
	case slashCompact:
		a.chat.Send(a.thread.ID, chat.Submission{Markdown: chat.CompactCommand, Ref: a.ed.Draft().Version()})
	case slashMode:
		cmd = a.conv.modeCommand(r.scope, r.args)
	case slashHelp:
		a.openHelp()
	case slashLogout:
		a.chat.Logout(a.thread.ID)
	case slashQuit:
		cmd = a.quit()
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
