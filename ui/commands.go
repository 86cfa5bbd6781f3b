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

// slashCommand is one of chipchat's slash commands.
type slashCommand struct {
	Name        string
	Args        string // what may follow, as an input hint ("" none)
	Description string
	Route       chat.CommandRoute // ChipchatOnly or AgentFirst
	// Backends says which backends chipchat's own version works with
	// (F1 and the README).
	Backends string
	// can says whether chipchat can serve it with this backend (nil:
	// always).
	can func(s *chat.Service) bool
	// run is what the command asks of the app (a slashResult), which acts
	// on it in one place (runSlash).
	run func(args string) slashResult
}

// The slash commands' results: what the app does for each.
type (
	slashResult  interface{ isSlash() }
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

func (slashNew) isSlash()     {}
func (slashFork) isSlash()    {}
func (slashStash) isSlash()   {}
func (slashReview) isSlash()  {}
func (slashCompact) isSlash() {}
func (slashMode) isSlash()    {}
func (slashHelp) isSlash()    {}
func (slashQuit) isSlash()    {}
func (slashCannot) isSlash()  {}
func (slashTyped) isSlash()   {}

// Commands is chipchat's slash-command table, in the order the picker, F1
// and the README list it.
func Commands() []slashCommand {
	modes := func(s *chat.Service) bool { return s.Capabilities().Modes }
	return []slashCommand{
		{Name: "new", Description: "start a new thread", Backends: "all",
			run: func(string) slashResult { return slashNew{} }},
		{Name: "fork", Description: "fork the thread at a message you choose in the transcript", Backends: "all",
			run: func(string) slashResult { return slashFork{} }},
		{Name: "stash", Description: "list the stash: restore or delete a stashed draft", Backends: "all",
			run: func(string) slashResult { return slashStash{} }},
		{Name: "review", Args: "[--staged | <ref>]", Description: "review a diff and comment on its lines", Backends: "all",
			run: func(args string) slashResult { return slashReview{args} }},
		{Name: "compact", Description: "summarize the thread; later turns get the summary instead", Route: chat.AgentFirst,
			Backends: "the agent's /compact (acp:), else chipchat's (openai:)",
			can:      func(s *chat.Service) bool { return s.Capabilities().Compact },
			run:      func(string) slashResult { return slashCompact{} }},
		{Name: "mode", Args: "[mode]", Description: "switch the agent's session mode (alt+m)", Route: chat.AgentFirst,
			Backends: "acp: agents that offer modes", can: modes,
			run: func(args string) slashResult { return slashMode{chat.ScopeModes, args} }},
		{Name: "model", Args: "[model]", Description: "switch the model (alt+m)", Route: chat.AgentFirst,
			Backends: "acp: agents that offer models", can: modes,
			run: func(args string) slashResult { return slashMode{chat.ScopeModels, args} }},
		{Name: "help", Description: "show the keys and these commands (F1)", Backends: "all",
			run: func(string) slashResult { return slashHelp{} }},
		{Name: "quit", Description: "quit (a running turn is recorded interrupted)", Backends: "all",
			run: func(string) slashResult { return slashQuit{} }},
	}
}

// lookupCommand is chipchat's command called name.
func lookupCommand(name string) (*slashCommand, bool) {
	cmds := Commands()
	for i := range cmds {
		if cmds[i].Name == name {
			if cmds[i].Route == chat.NotChipchats {
				cmds[i].Route = chat.ChipchatOnly
			}
			return &cmds[i], true
		}
	}
	return nil, false
}

// routeOf is how chipchat routes `/name`.
func routeOf(name string) chat.CommandRoute {
	if c, ok := lookupCommand(name); ok {
		return c.Route
	}
	return chat.NotChipchats
}

// splitCommand reads "/name args" (false when text is not a slash command).
func splitCommand(text string) (name, args string, ok bool) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "/") || len(text) < 2 {
		return "", "", false
	}
	name, args, _ = strings.Cut(text[1:], " ")
	if name == "" || strings.ContainsAny(name, "/\n\t") {
		return "", "", false
	}
	return name, strings.TrimSpace(args), true
}

// slash is the send path's part: for a slash command chipchat serves it
// clears the draft and reports what to do; false when the text is for the
// agent (its command, or plain text).
func (c *conversation) slash(text string, withChips bool) (slashResult, bool) {
	name, args, ok := splitCommand(text)
	if !ok || withChips {
		return nil, false
	}
	cmd, ours := lookupCommand(name)
	if !ours || c.info().AgentServes(name, cmd.Route) {
		return nil, false
	}
	c.ed.Reset()
	if cmd.can != nil && !cmd.can(c.chat) {
		return slashCannot{c.cannotServe(cmd)}, true
	}
	return cmd.run(args), true
}

// runSlash does what a slash command asked.
func (a *App) runSlash(res slashResult) tea.Cmd {
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
func (c *conversation) cannotServe(cmd *slashCommand) string {
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
	for _, cmd := range Commands() {
		if cmd.Route == chat.AgentFirst && (info.AgentServes(cmd.Name, cmd.Route) || cmd.can != nil && !cmd.can(c.chat)) {
			continue // listed as the agent's below, or chipchat cannot serve it
		}
		title := "/" + cmd.Name
		if cmd.Args != "" {
			title += " " + cmd.Args
		}
		items = append(items, composer.PickerItem{Title: title, Detail: cmd.Description, Value: "c:" + cmd.Name})
	}
	for _, cmd := range info.Commands {
		if !info.AgentServes(cmd.Name, routeOf(cmd.Name)) {
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
func (c *conversation) choose(value string) slashResult {
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
		if !info.AgentServes(cmd.Name, routeOf(cmd.Name)) {
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

// commandHelp is the command table for F1.
func commandHelp() []string {
	lines := []string{"Slash commands (type / at the start of the draft; the agent's own are listed there too):"}
	for _, c := range Commands() {
		lines = append(lines, "  "+commandLine(c))
	}
	return lines
}

// usage is "/name args" and who serves it (short for F1, long for the
// README).
func (c slashCommand) usage(long bool) (name, who string) {
	name = "/" + c.Name
	if c.Args != "" {
		name += " " + c.Args
	}
	switch {
	case c.Route != chat.AgentFirst:
		who = "chipchat"
	case long:
		who = "the agent's command of that name, else chipchat's"
	default:
		who = "agent first"
	}
	return name, who
}

// commandLine is one command as F1 lists it.
func commandLine(c slashCommand) string {
	name, who := c.usage(false)
	return fmt.Sprintf("%-26s %s (%s; %s)", name, c.Description, who, c.Backends)
}

// CommandsMarkdown is the README's list of the table (README.md, between
// the commands markers; TestREADMEListsCommands keeps them equal).
func CommandsMarkdown() string {
	var b strings.Builder
	b.WriteString("| command | what it does | who serves it | backends |\n| --- | --- | --- | --- |\n")
	cell := strings.NewReplacer("|", `\|`)
	for _, c := range Commands() {
		name, who := c.usage(true)
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", cell.Replace(name), cell.Replace(c.Description), who, cell.Replace(c.Backends))
	}
	return b.String()
}
