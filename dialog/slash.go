package dialog

import (
	"strings"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
)

// CommandItems lists what the `/` picker offers: chipchat's commands
// that apply (an AgentFirst one only when the agent has none of that name
// and can says chipchat can serve it), then the agent's that are not shadowed
// (chat.Info.AgentServes).
func CommandItems(info chat.Info, can func(chat.SlashCommand) bool) []composer.PickerItem {
	var items []composer.PickerItem
	for _, cmd := range chat.SlashCommands() {
		if !can(cmd) {
			continue // chipchat cannot serve it with this backend
		}
		title := "/" + cmd.Name
		if info.AgentServes(cmd.Name) {
			title = "/" + chat.OwnPrefix + cmd.Name // the agent's keeps the name
		}
		if cmd.Args != "" {
			title += " " + cmd.Args
		}
		items = append(items, composer.PickerItem{Title: title, Detail: cmd.Description, Value: "c:" + cmd.Name})
	}
	for _, cmd := range info.Commands {
		if cmd.Name == "" {
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

// maxWord bounds how far the draft's first word is read.
const maxWord = 64

// CommandQuery is what follows "/" at the draft's start, when the caret is
// in that first word and nothing is selected; ok false when the command
// picker does not apply. It reads at most maxWord atoms.
func CommandQuery(d *composer.Draft) (string, bool) {
	caret := d.Caret()
	if _, _, sel := d.Selection(); sel || caret.Line != 0 || caret.Col < 1 || caret.Col > maxWord {
		return "", false
	}
	atoms := d.Line(0)
	if len(atoms) == 0 || atoms[0] != '/' {
		return "", false
	}
	end := caret.Col
	for i := 1; i < len(atoms) && i <= maxWord; i++ {
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

// WriteCommand puts `/name ` at the draft's start in place of its first word, the
// caret after it, for enter to send (a picked agent command).
func WriteCommand(d *composer.Draft, name string) {
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
}

// CommandHint is the footer's line while the draft holds an agent command (with
// its input hint; "" otherwise). It reads only the first word.
func CommandHint(info chat.Info, d *composer.Draft) string {
	if len(info.Commands) == 0 {
		return ""
	}
	atoms := d.Line(0)
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
