package transcript

import (
	"fmt"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// The plan item: the agent's checklist, one per reply, replaced in place
// when the agent sends a new plan. Compact and Expanded are the checklist
// (a title line with how many entries are done, then one row per entry);
// Details adds each entry's priority.

func init() {
	checklist := func(it message.Item, c ItemContext) []string { return renderPlan(it, c, false) }
	registerKind(message.ItemPlan, itemKind{Compact: checklist, Expanded: checklist,
		Details: func(it message.Item, c ItemContext) []string { return renderPlan(it, c, true) },
		Title:   title("Plan")})
}

func renderPlan(it message.Item, c ItemContext, priorities bool) []string {
	l := c.Looks
	done := 0
	for _, e := range it.Plan {
		if e.Status == "completed" {
			done++
		}
	}
	out := []string{l.Glyph.Render("☰") + " " + l.Title.Render("Plan") + l.Faint.Render(fmt.Sprintf(" · %d/%d done", done, len(it.Plan)))}
	for _, e := range it.Plan {
		box, st := "☐", l.Faint
		switch e.Status {
		case "completed":
			box, st = "☑", l.OK
		case "in_progress":
			box, st = "◐", l.Running
		}
		text := chips.SanitizeLine(e.Content)
		if priorities && e.Priority != "" {
			text += l.Faint.Render(" (" + chips.SanitizeLine(e.Priority) + ")")
		}
		rows := wrapPlain(text, max(1, c.Width-4), noStyle)
		for k, r := range rows {
			if k == 0 {
				out = append(out, "  "+st.Render(box)+" "+r)
			} else {
				out = append(out, "    "+r)
			}
		}
	}
	return out
}
