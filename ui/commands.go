package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
)

// Slash commands (issue 12 item 4): one table, Commands, that the `/`
// picker, the send path, F1 and the README (TestREADMEListsCommands) read.
//
//   - chat.ChipchatOnly commands always act on chipchat, whatever the agent
//     offers under that name.
//   - chat.AgentFirst commands go to the agent when it advertised a command
//     of that name (available_commands_update): the text `/name args` is
//     sent as the prompt, as the agent expects. Otherwise chipchat serves
//     them where the backend can (can), else a toast says it cannot.
//   - Any other `/word` is the agent's command when it has one, and plain
//     text otherwise (a message may start with a path).
//
// The picker opens while the draft's first word is being typed and starts
// with "/": it lists chipchat's commands that apply and the agent's, with
// their descriptions and input hints, filtered by what follows the "/".
// Picking an agent command writes `/name ` into the draft (its hint shown
// in the footer) for enter to send; picking one of chipchat's runs it.

// The slash commands' results: what each of chipchat's commands asks of
// the app, which acts on it in one place (runSlash).
type (
	slashNew     struct{}
	slashFork    struct{}
	slashStash   struct{}
	slashReview  struct{ args string }
	slashCompact struct{}
	slashMode    struct {
		scope chat.ModeScope
		args  string
	}
	slashHelp   struct{}
	slashQuit   struct{}
	slashCannot struct{ why string } // chipchat cannot serve it with this backend
	slashTyped  struct{}             // an agent's command was written into the draft
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
	case "mode":
		return slashMode{chat.ScopeModes, args}
	case "model":
		return slashMode{chat.ScopeModels, args}
	case "help":
		return slashHelp{}
	case "quit":
		return slashQuit{}
	}
	return nil
}

// commandHelp is the command table for F1.
func commandHelp() []string { return chat.SlashHelp() }

// slash is the send path's part: for a slash command chipchat serves it
// clears the draft and reports what to do; false when the text is for the
// agent (its command, or plain text).
func (c *conversation) slash(text string, withChips bool) (any, bool) {
	name, args, ok := chat.SplitCommand(text)
	if !ok || withChips {
		return nil, false
	}
	cmd, ours := chat.LookupSlash(name)
	if !ours || c.info().AgentServes(name, cmd.Route) {
		return nil, false
	}
	c.ed.Reset()
	if cmd.Needs != nil && !cmd.Needs(c.chat.Capabilities()) {
		return slashCannot{c.cannotServe(cmd)}, true
	}
	return slashAction(name, args), true
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
		cmd = a.openReview(r.args)
	case slashCompact:
		a.chat.Send(a.thread.ID, chat.Submission{Markdown: chat.CompactCommand, Ref: a.ed.Draft().Version()})
	case slashMode:
		cmd = a.conv.modeCommand(r.scope, r.args)
	case slashHelp:
		a.openHelp()
	case slashQuit:
		cmd = a.quit()
	case slashCannot:
		cmd = a.notify(r.why, true)
	}
	return tea.Batch(a.afterComposer(), cmd)
}

// cannotServe says why chipchat cannot run cmd with this backend.
func (c *conversation) cannotServe(cmd chat.SlashCommand) string {
	if cmd.Name == "review" {
		return "/review: the review pane is not available in this build"
	}
	return fmt.Sprintf("/%s: %s cannot serve it (works with %s)", cmd.Name, chips.SanitizeLine(c.chat.AgentName()), cmd.Backends)
}

// ---- the `/` picker ----

// commandPicker is the `/` command picker, drawn over the bottom of the
// main area, above the composer: its query is the draft's first word, so
// typing goes on to the composer (syncCommandPicker follows the draft).
type commandPicker struct {
	k    *Keys
	pick *composer.KeyMap // the composer's picker keys, as the config binds them
	p    *composer.Picker
}

// What the command picker asks of the app: a command it chose; closed by
// esc (dismissed for this "/word"; pass: and the key goes on — enter on
// no match sends the text as prose).
type (
	commandChosen    struct{ value string }
	commandDismissed struct{ pass bool }
)

func (c *commandPicker) placement() placement { return atBottom }
func (c *commandPicker) Scope() Scope         { return ScopePicker }
func (c *commandPicker) Hints() string {
	return "↑↓ choose · enter or tab pick · esc close (the text stays)"
}
func (c *commandPicker) View(width, height int) []string {
	return strings.Split(c.p.View(width, min(c.p.Len()+2, 12, height)), "\n")
}

func (c *commandPicker) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	msg, ok := m.(tea.KeyPressMsg)
	if !ok {
		return c, nil, passKey{} // a paste is the composer's
	}
	k := c.pick
	switch {
	case key.Matches(msg, c.k.Interrupt):
		return nil, nil, passKey{} // ctrl+c cancels the turn (or clears the draft) from anywhere
	case key.Matches(msg, k.PickerClose):
		return nil, nil, commandDismissed{}
	case key.Matches(msg, k.PickerPrev):
		c.p.Move(-1)
	case key.Matches(msg, k.PickerNext):
		c.p.Move(1)
	case key.Matches(msg, k.PickerChoose):
		it, ok := c.p.Selected()
		if !ok {
			return nil, nil, commandDismissed{pass: true} // nothing matches: the text is prose (a path, say)
		}
		return nil, nil, commandChosen{it.Value}
	default:
		return c, nil, passKey{}
	}
	return c, nil, nil
}

// acpUI is the app's state for the ACP client's UI: the agent's
// terminals, chipchat's MCP server wiring.
type acpUI struct {
	terms   *AgentTerminals
	tabs    []agentTab // the agent's tabs in the pane, oldest first (agentterm.go)
	authSeq int        // numbers the sign-in tabs
	mcp     *PanesServer
}

// commandItems lists what the command picker offers: chipchat's commands
// that apply (an AgentFirst one only when the agent has none of that name
// and chipchat can serve it), then the agent's that are not shadowed
// (chat.Info.AgentServes).
func (c *conversation) commandItems() []composer.PickerItem {
	var items []composer.PickerItem
	info := c.info()
	for _, cmd := range chat.SlashCommands() {
		if cmd.Route == chat.AgentFirst && (info.AgentServes(cmd.Name, cmd.Route) || cmd.Needs != nil && !cmd.Needs(c.chat.Capabilities())) {
			continue // listed as the agent's below, or chipchat cannot serve it
		}
		title := "/" + cmd.Name
		if cmd.Args != "" {
			title += " " + cmd.Args
		}
		items = append(items, composer.PickerItem{Title: title, Detail: cmd.Description, Value: "c:" + cmd.Name})
	}
	for _, cmd := range info.Commands {
		if !info.AgentServes(cmd.Name, chat.RouteOf(cmd.Name)) {
			continue
		}
		title := "/" + cmd.Name
		if cmd.InputHint != "" {
			title += " <" + cmd.InputHint + ">"
		}
		detail := "agent"
		if cmd.Description != "" {
			detail = "agent: " + cmd.Description
		}
		items = append(items, composer.PickerItem{Title: title, Detail: detail, Value: "a:" + cmd.Name})
	}
	return items
}

// maxCommandWord bounds how far the draft's first word is read.
const maxCommandWord = 64

// commandQuery is what follows "/" at the draft's start, when the caret is
// in that first word and nothing is selected; ok false when the command
// picker does not apply. It reads at most maxCommandWord atoms.
func commandQuery(d *composer.Draft) (string, bool) {
	caret := d.Caret()
	if _, _, sel := d.Selection(); sel || caret.Line != 0 || caret.Col < 1 || caret.Col > maxCommandWord {
		return "", false
	}
	atoms := d.Line(0)
	if len(atoms) == 0 || atoms[0] != '/' {
		return "", false
	}
	end := caret.Col
	for i := 1; i < len(atoms) && i <= maxCommandWord; i++ {
		r := atoms[i]
		if r < 0 || r == ' ' || r == '\t' {
			if i < end {
				return "", false
			}
			break
		}
	}
	if end > len(atoms) {
		return "", false
	}
	return string(atoms[1:end]), true
}

// syncCommandPicker opens, updates or closes the command picker after the
// draft or caret changed; composing says the composer has the keys.
func (c *conversation) syncCommandPicker(composing bool) {
	open, isOpen := overlayOf[*commandPicker](c.ovs)
	if c.ovs.Len() > 0 && !isOpen {
		return // another overlay is open (the modes picker among them)
	}
	q, ok := commandQuery(c.ed.Draft())
	if !ok || !composing || c.ed.PickerOpen() {
		if !ok {
			c.dismissed = false
		}
		c.ovs.Remove(is[*commandPicker])
		return
	}
	if q == "" {
		c.dismissed = false // a "/" typed anew
	}
	if c.dismissed {
		return
	}
	if !isOpen {
		open = &commandPicker{k: c.keys, pick: &c.ed.Keys, p: composer.NewPicker("/ command")}
		open.p.SetItems(c.commandItems())
		c.ovs.Push(open)
	}
	open.p.SetQuery(q)
}

// refreshCommandItems re-reads the items of an open command picker (the
// agent's commands changed).
func (c *conversation) refreshCommandItems() {
	if p, ok := overlayOf[*commandPicker](c.ovs); ok {
		p.p.SetItems(c.commandItems())
	}
}

// choose acts on a picked command: one of chipchat's runs (its result),
// an agent's is written into the draft for enter to send (slashTyped).
func (c *conversation) choose(value string) any {
	kind, name, _ := strings.Cut(value, ":")
	if kind == "c" {
		if res, ok := c.slash("/"+name, false); ok {
			return res
		}
	}
	d := c.ed.Draft()
	atoms := d.Line(0)
	end := 1
	for end < len(atoms) && atoms[end] >= 0 && atoms[end] != ' ' && atoms[end] != '\t' {
		end++
	}
	d.SetCaret(composer.Pos{}, false)
	d.SetCaret(composer.Pos{Line: 0, Col: end}, true)
	text := "/" + name
	if end >= len(atoms) || atoms[end] != ' ' {
		text += " "
	}
	d.InsertText(text)
	if end < len(atoms) && atoms[end] == ' ' {
		d.MoveRight(false)
	}
	return slashTyped{}
}

// commandHint is the footer's line while the draft holds an agent command
// (with its input hint; "" otherwise); composing says the composer has the
// keys. It reads only the first word.
func (c *conversation) commandHint(composing bool) string {
	if !composing {
		return ""
	}
	info := c.info()
	if len(info.Commands) == 0 {
		return ""
	}
	atoms := c.ed.Draft().Line(0)
	if len(atoms) < 2 || atoms[0] != '/' {
		return ""
	}
	n := min(len(atoms), 128)
	text := make([]rune, 0, n)
	for _, r := range atoms[:n] {
		if r < 0 {
			break
		}
		text = append(text, r)
	}
	for _, cmd := range info.Commands {
		if !info.AgentServes(cmd.Name, chat.RouteOf(cmd.Name)) {
			continue // chipchat's acts
		}
		if p := "/" + cmd.Name; strings.HasPrefix(string(text), p+" ") || string(text) == p {
			line := "/" + cmd.Name
			if cmd.InputHint != "" {
				line += " <" + cmd.InputHint + ">"
			}
			return chips.SanitizeLine(line + " · the agent's command: enter sends it")
		}
	}
	return ""
}
