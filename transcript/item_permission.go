package transcript

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// The permission item: a question the agent asked before a tool call and
// the answer. Compact and Expanded are one line (what was asked, what was
// chosen, or that it waits); Details lists the options with their kinds.

func init() {
	registerKind(message.ItemPermission, itemKind{Compact: renderPermission, Expanded: renderPermission,
		Details: renderPermissionDetails, Title: title("Permission"), Inline: true})
}

// permissionAnswer is the answer's text and style.
func permissionAnswer(p message.Permission, l *ItemLooks) string {
	switch p.Outcome {
	case "":
		return l.Running.Render("waiting for your answer")
	case "cancelled":
		return l.Faint.Render("cancelled")
	}
	name := chips.SanitizeLine(p.ChosenName())
	kind := ""
	for _, o := range p.Options {
		if o.ID == p.Chosen {
			kind = o.Kind
		}
	}
	switch kind {
	case message.AllowOnce, message.AllowAlways:
		return l.OK.Render(name)
	case message.RejectOnce, message.RejectAlways:
		return l.Bad.Render(name)
	}
	return l.Title.Render(name)
}

func renderPermission(it message.Item, c ItemContext) []string {
	if it.Permission == nil {
		return fallbackItem(it, "permission item without its question", c)
	}
	l := c.Looks
	p := *it.Permission
	asked := chips.SanitizeLine(p.Asked)
	if asked == "" {
		asked = "permission"
	}
	head := l.Glyph.Render("?") + " "
	ans := " → " + permissionAnswer(p, l)
	room := c.Width - ansi.StringWidth(head) - ansi.StringWidth(ans)
	if room < 6 {
		return []string{ansi.Truncate(head+asked+ans, c.Width, "…")}
	}
	return []string{head + ansi.Truncate(asked, room, "…") + ans}
}

func renderPermissionDetails(it message.Item, c ItemContext) []string {
	if it.Permission == nil {
		return fallbackItem(it, "permission item without its question", c)
	}
	l := c.Looks
	p := *it.Permission
	out := []string{l.Title.Render("Permission")}
	out = append(out, wrapPlain(chips.Sanitize(p.Asked), c.Width, noStyle)...)
	if p.ToolCallID != "" {
		out = append(out, l.Faint.Render("tool call: ")+chips.SanitizeLine(p.ToolCallID))
	}
	out = append(out, "")
	for _, o := range p.Options {
		out = append(out, optionRow(o, o.ID == p.Chosen, l))
	}
	return append(out, "", l.Faint.Render("answer: ")+permissionAnswer(p, l))
}
