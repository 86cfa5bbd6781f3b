package transcript

import (
	"strings"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// The notice item: a line from chipchat or the agent. Level "error" is
// drawn as an error, with the agent's stderr tail under it (its last
// noticeTail lines in Compact, all of it in Expanded and Details).

func init() { registerKind(message.ItemNotice, registerNotice) }

const noticeTail = 8

func registerNotice(r *ItemRegistry) error {
	if err := r.Register(message.ItemNotice, chips.Compact, func(it message.Item, c ItemContext) []string {
		return renderNotice(it, c, noticeTail)
	}); err != nil {
		return err
	}
	if err := r.Register(message.ItemNotice, chips.Expanded, func(it message.Item, c ItemContext) []string {
		return renderNotice(it, c, detailsMaxLines)
	}); err != nil {
		return err
	}
	return r.Register(message.ItemNotice, chips.Details, func(it message.Item, c ItemContext) []string {
		return renderNotice(it, c, detailsMaxLines)
	})
}

func renderNotice(it message.Item, c ItemContext, tail int) []string {
	l := c.Looks
	glyph, st := l.Glyph.Render("ℹ"), l.Faint
	if it.Level == "error" {
		glyph, st = l.Bad.Render("✗"), l.Bad
	}
	text := strings.TrimSpace(it.Text)
	if text == "" && it.Level == "error" {
		text = "error"
	}
	var out []string
	for k, r := range wrapPlain(chips.Sanitize(text), max(1, c.Width-2), st) {
		if k == 0 {
			out = append(out, glyph+" "+r)
		} else {
			out = append(out, "  "+r)
		}
	}
	if len(out) == 0 {
		out = []string{glyph}
	}
	if s := strings.TrimRight(it.StderrTail, "\n "); s != "" {
		lines := strings.Split(s, "\n")
		if len(lines) > tail {
			out = append(out, "  "+l.Faint.Render(moreLines(len(lines)-tail)+" of stderr above"))
			lines = lines[len(lines)-tail:]
		}
		for _, ln := range lines {
			for _, r := range wrapPlain(chips.Sanitize(chips.ExpandTabs(ln)), max(1, c.Width-4), l.Faint) {
				out = append(out, "  │ "+r)
			}
		}
	}
	return out
}
