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
//   - routeChipchat commands always act on chipchat, whatever the agent
//     offers under that name.
//   - routeAgentFirst commands go to the agent when it advertised a command
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

type commandRoute int

const (
	routeChipchat   commandRoute = iota // always chipchat's
	routeAgentFirst                     // the agent's command of that name, else chipchat's
)

// slashCommand is one of chipchat's slash commands.
type slashCommand struct {
	Name        string
	Args        string // what may follow, as an input hint ("" none)
	Description string
	Route       commandRoute
	// Backends says which backends chipchat's own version works with
	// (F1 and the README).
	Backends string
	// can says whether chipchat can serve it now (nil: always).
	can func(a *App) bool
	run func(a *App, args string) tea.Cmd
}

// Commands is chipchat's slash-command table, in the order the picker, F1
// and the README list it. It is a function, not a variable: its commands
// call back into code that reads it.
func Commands() []slashCommand {
	return []slashCommand{
		{Name: "new", Description: "start a new thread", Backends: "all",
			run: func(a *App, _ string) tea.Cmd { return a.nav.newThread() }},
		{Name: "fork", Description: "fork the thread at a message you choose in the transcript", Backends: "all",
			run: func(a *App, _ string) tea.Cmd {
				a.setFocus(paneTranscript)
				return a.notify("choose the message to fork from (↑↓) and press f", false)
			}},
		{Name: "stash", Description: "list the stash: restore or delete a stashed draft", Backends: "all",
			run: func(a *App, _ string) tea.Cmd { return a.stash.open() }},
		{Name: "review", Args: "[--staged | <ref>]", Description: "review a diff and comment on its lines", Backends: "all",
			run: func(a *App, args string) tea.Cmd { return a.openReview(args) }},
		{Name: "compact", Description: "summarize the thread; later turns get the summary instead", Route: routeAgentFirst,
			Backends: "the agent's /compact (acp:), else chipchat's (openai:)",
			can:      func(a *App) bool { return a.chat.Capabilities().Compact },
			run: func(a *App, _ string) tea.Cmd {
				a.chat.Send(a.thread.ID, chat.Submission{Markdown: chat.CompactCommand, Ref: a.ed.Draft().Version()})
				return nil
			}},
		{Name: "mode", Args: "[mode]", Description: "switch the agent's session mode (alt+m)", Route: routeAgentFirst,
			Backends: "acp: agents that offer modes",
			can:      func(a *App) bool { return a.chat.Capabilities().Modes },
			run:      func(a *App, args string) tea.Cmd { return a.modeCommand(scopeModes, args) }},
		{Name: "model", Args: "[model]", Description: "switch the model (alt+m)", Route: routeAgentFirst,
			Backends: "acp: agents that offer models",
			can:      func(a *App) bool { return a.chat.Capabilities().Modes },
			run:      func(a *App, args string) tea.Cmd { return a.modeCommand(scopeModels, args) }},
		{Name: "help", Description: "show the keys and these commands (F1)", Backends: "all",
			run: func(a *App, _ string) tea.Cmd { a.openHelp(); return nil }},
		{Name: "quit", Description: "quit (a running turn is recorded interrupted)", Backends: "all",
			run: func(a *App, _ string) tea.Cmd { return a.quit() }},
	}
}

// lookupCommand is chipchat's command called name.
func lookupCommand(name string) (*slashCommand, bool) {
	cmds := Commands()
	for i := range cmds {
		if cmds[i].Name == name {
			return &cmds[i], true
		}
	}
	return nil, false
}

// agentCommand is the agent's command called name.
func (a *App) agentCommand(name string) (chat.Command, bool) {
	for _, c := range a.info.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return chat.Command{}, false
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

// runCommand is the send path's part: it runs a slash command chipchat
// serves and reports true, or reports false when the text is for the
// agent (its command, or plain text).
func (a *App) runCommand(text string, withChips bool) (tea.Cmd, bool) {
	name, args, ok := splitCommand(text)
	if !ok || withChips {
		return nil, false
	}
	c, ours := lookupCommand(name)
	if !ours {
		return nil, false
	}
	if c.Route == routeAgentFirst {
		if _, theirs := a.agentCommand(name); theirs {
			return nil, false
		}
	}
	a.ed.Reset()
	if c.can != nil && !c.can(a) {
		return tea.Batch(a.afterComposer(), a.notify(a.cannotServe(c), true)), true
	}
	return tea.Batch(a.afterComposer(), c.run(a, args)), true
}

// cannotServe says why chipchat cannot run c with this backend.
func (a *App) cannotServe(c *slashCommand) string {
	if c.Name == "review" {
		return "/review: the review pane is not available in this build"
	}
	return fmt.Sprintf("/%s: %s cannot serve it (works with %s)", c.Name, chips.SanitizeLine(a.chat.AgentName()), c.Backends)
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

// acpUI is the app's state for the ACP client's UI: the bottom picker,
// the agent's terminals, chipchat's MCP server wiring.
type acpUI struct {
	// dismissed: esc closed the command picker for the current "/word";
	// it opens again once the draft no longer starts with one, or at a
	// bare "/".
	dismissed bool
	terms     *AgentTerminals
	tabs      []agentTab // the agent's tabs in the pane, oldest first (agentterm.go)
	authSeq   int        // numbers the sign-in tabs
	mcp       *PanesServer
}

// commandItems lists what the command picker offers: chipchat's commands
// that apply (a routeAgentFirst one only when the agent has none of that
// name and chipchat can serve it), then the agent's.
func (a *App) commandItems() []composer.PickerItem {
	var items []composer.PickerItem
	shadowed := map[string]bool{}
	cmds := Commands()
	for i := range cmds {
		c := &cmds[i]
		shadowed[c.Name] = true
		if c.Route == routeAgentFirst {
			if _, theirs := a.agentCommand(c.Name); theirs {
				shadowed[c.Name] = false // listed as the agent's below
				continue
			}
			if c.can != nil && !c.can(a) {
				continue
			}
		}
		title := "/" + c.Name
		if c.Args != "" {
			title += " " + c.Args
		}
		items = append(items, composer.PickerItem{Title: title, Detail: c.Description, Value: "c:" + c.Name})
	}
	for _, c := range a.info.Commands {
		if shadowed[c.Name] || c.Name == "" {
			continue
		}
		title := "/" + c.Name
		if c.InputHint != "" {
			title += " <" + c.InputHint + ">"
		}
		detail := "agent"
		if c.Description != "" {
			detail = "agent: " + c.Description
		}
		items = append(items, composer.PickerItem{Title: title, Detail: detail, Value: "a:" + c.Name})
	}
	return items
}

// maxCommandWord bounds how far the draft's first word is read.
const maxCommandWord = 64

// commandQuery is what follows "/" at the draft's start, when the caret is
// in that first word; ok false when the command picker does not apply.
// It reads at most maxCommandWord atoms.
func (a *App) commandQuery() (string, bool) {
	d := a.ed.Draft()
	caret := d.Caret()
	if caret.Line != 0 || caret.Col < 1 || caret.Col > maxCommandWord || a.hasSelection() {
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
// draft or caret changed.
func (a *App) syncCommandPicker() {
	open, isOpen := overlayOf[*commandPicker](a.ovs)
	if a.ovs.Len() > 0 && !isOpen {
		return // another overlay is open (the modes picker among them)
	}
	q, ok := a.commandQuery()
	if !ok || a.focus != paneComposer || a.ed.PickerOpen() {
		if !ok {
			a.acp.dismissed = false
		}
		a.ovs.Remove(is[*commandPicker])
		return
	}
	if q == "" {
		a.acp.dismissed = false // a "/" typed anew
	}
	if a.acp.dismissed {
		return
	}
	if !isOpen {
		open = &commandPicker{k: &a.keys, pick: &a.ed.Keys, p: composer.NewPicker("/ command")}
		open.p.SetItems(a.commandItems())
		a.ovs.Push(open)
	}
	open.p.SetQuery(q)
}

// refreshCommandItems re-reads the items of an open command picker (the
// agent's commands changed).
func (a *App) refreshCommandItems() {
	if c, ok := overlayOf[*commandPicker](a.ovs); ok {
		c.p.SetItems(a.commandItems())
	}
}

// chooseCommand acts on a picked command: one of chipchat's runs, an
// agent's is written into the draft for enter to send.
func (a *App) chooseCommand(value string) tea.Cmd {
	kind, name, _ := strings.Cut(value, ":")
	if kind == "c" {
		if cmd, ok := a.runCommand("/"+name, false); ok {
			return cmd
		}
	}
	d := a.ed.Draft()
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
	return a.afterComposer()
}

// commandHint is the footer's line while the draft holds an agent command
// (with its input hint; "" otherwise). It reads only the first word.
func (a *App) commandHint() string {
	if len(a.info.Commands) == 0 || a.focus != paneComposer {
		return ""
	}
	atoms := a.ed.Draft().Line(0)
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
	for _, c := range a.info.Commands {
		if _, ours := lookupCommand(c.Name); ours && c.Name != "compact" && c.Name != "mode" && c.Name != "model" {
			continue // chipchat's acts
		}
		if p := "/" + c.Name; strings.HasPrefix(string(text), p+" ") || string(text) == p {
			line := "/" + c.Name
			if c.InputHint != "" {
				line += " <" + c.InputHint + ">"
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
	case c.Route == routeChipchat:
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
