package transcript

import (
	"strings"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// The notice item: a line from chipchat or the agent. Level "error" is
// drawn as an error, with the agent's stderr tail under it (its last
// noticeTail lines in Compact, all of it in Expanded and Details).

func init() {
	whole := func(it message.Item, c ItemContext) []string { return renderNotice(it, c, detailsMaxLines) }
	registerKind(message.ItemNotice, itemKind{
		Compact:  func(it message.Item, c ItemContext) []string { return renderNotice(it, c, noticeTail) },
		Expanded: whole, Details: whole, Title: title("Notice"), Pager: noticeText})
}

const noticeTail = 8

// noticeText is a notice whole: its text and the agent's stderr tail.
func noticeText(it message.Item) string {
	if it.StderrTail != "" {
		return it.Text + "\n\nstderr:\n" + it.StderrTail
	}
	return it.Text
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
