package transcript

import (
	"fmt"
	"strings"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// The text item: the Markdown (or plain text) the agent wrote. Compact and
// Expanded draw one block of it; Details sums it up (the whole text goes to
// the pager with o, never into a popover).

func init() {
	registerKind(message.ItemText, itemKind{Compact: renderTextBlock, Expanded: renderTextBlock, Details: renderTextDetails,
		Title: title("Reply"), Pager: itemText})
}

// renderTextBlock draws one block: Markdown through glamour, or plain text
// with every line kept (wrapped with its indentation).
func renderTextBlock(it message.Item, c ItemContext) []string {
	if strings.TrimSpace(it.Text) == "" {
		return []string{""}
	}
	if c.Plain {
		return wrapPlain(chips.Sanitize(chips.ExpandTabs(it.Text)), c.Width, noStyle)
	}
	out := c.Markdown(it.Text)
	if len(out) == 0 {
		return []string{""}
	}
	return out
}

func renderTextDetails(it message.Item, c ItemContext) []string {
	lines := countLines(it.Body())
	out := []string{
		c.Looks.Title.Render("Text"),
		c.Looks.Faint.Render(fmt.Sprintf("%s · %d lines", humanBytes(it.TextLen()), lines)),
	}
	head := strings.TrimSpace(firstLines(textHead(it.Body(), headBytes), 8))
	if head != "" {
		out = append(out, "")
		out = append(out, wrapPlain(chips.Sanitize(chips.ExpandTabs(head)), c.Width, noStyle)...)
	}
	return append(out, "", c.Looks.Faint.Render("o opens the whole text in $PAGER"))
}
