package transcript

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// The thought item: the agent's reasoning. Compact is one collapsed line
// (its first words and its size); Expanded draws one block of its text,
// faint, every line kept (the transcript draws the compact line above the
// blocks); Details is the text, wrapped.

func init() {
	registerKind(message.ItemThought, itemKind{Compact: renderThoughtLine, Expanded: renderThoughtBlock, Details: renderThoughtDetails,
		Title: title("Thought"), Pager: itemText})
}

const detailsMaxLines = 2000

func renderThoughtLine(it message.Item, c ItemContext) []string {
	first := thoughtPreview(textHead(it.Body(), headBytes))
	if len(first) > 4*c.Width {
		first = first[:runeStart(first, 4*c.Width)]
	}
	head := c.Looks.Glyph.Render("✻") + " " + c.Looks.Faint.Render("Thought")
	size := c.Looks.Faint.Render(" · " + humanBytes(it.TextLen()))
	room := c.Width - ansi.StringWidth(head) - ansi.StringWidth(size) - 3
	if first != "" && room > 4 {
		head += c.Looks.Faint.Render(" · " + ansi.Truncate(first, room, "…"))
	}
	return []string{head + size}
}

// thoughtPreview is what the collapsed line shows of a thought: its first
// line that has a letter or digit (a first line of only "****" or other
// punctuation says nothing), without the Markdown emphasis or heading
// marks around it, sanitized. Only the first lines are looked at.
func thoughtPreview(text string) string {
	for k, l := range strings.Split(firstLines(text, 8), "\n") {
		if k == 8 {
			break
		}
		if !strings.ContainsFunc(l, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			continue
		}
		l = strings.TrimFunc(l, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("*_#`~>", r) })
		return chips.SanitizeLine(l)
	}
	return ""
}

func renderThoughtBlock(it message.Item, c ItemContext) []string {
	if strings.TrimSpace(it.Text) == "" {
		return []string{""}
	}
	rows := wrapPlain(chips.Sanitize(chips.ExpandTabs(it.Text)), max(1, c.Width-2), c.Looks.Faint)
	for k, r := range rows {
		rows[k] = "  " + r
	}
	return rows
}

func renderThoughtDetails(it message.Item, c ItemContext) []string {
	out := []string{c.Looks.Title.Render("Thought") + c.Looks.Faint.Render(" · "+humanBytes(it.TextLen()))}
	body := wrapPlain(chips.Sanitize(chips.ExpandTabs(firstLines(textHead(it.Body(), detailsMaxBytes), detailsMaxLines))), c.Width, noStyle)
	out = append(out, body...)
	if n := countLines(it.Body()); n > detailsMaxLines {
		out = append(out, c.Looks.Faint.Render(moreLines(n-detailsMaxLines)+" — o opens it in $PAGER"))
	}
	return out
}
