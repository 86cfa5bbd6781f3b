package transcript

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// pagerCmd asks the app to show item s whole in $PAGER: a text or thought
// item's own text (never cut; a huge reply goes as it is, joined once
// when it is kept in pieces), any other item as plain text.
func (m *Model) pagerCmd(s stop) tea.Cmd {
	if s.i < 0 || s.i >= len(m.ents) {
		return nil
	}
	vs := m.views(s.i)
	if s.it < 0 || s.it >= len(vs) {
		return nil
	}
	it := vs[s.it].it
	pm := PagerMsg{Title: itemTitle(it), Text: pagerText(it)}
	return func() tea.Msg { return pm }
}

// itemTitle is the pager's title for it: its kind's, else the kind's name.
func itemTitle(it message.Item) string {
	if d, ok := itemKinds[it.Kind]; ok && d.Title != nil {
		return d.Title(it)
	}
	return chips.SanitizeLine(string(it.Kind))
}

// pagerText is the whole item as text: its kind's pager text, else its
// Details surface as plain text.
func pagerText(it message.Item) string {
	if d, ok := itemKinds[it.Kind]; ok && d.Pager != nil {
		return d.Pager(it)
	}
	var b strings.Builder
	for _, l := range DefaultItems().Render(chips.Details, it, ItemContext{Width: 100, NoColor: true}) {
		b.WriteString(strings.TrimRight(ansi.Strip(l), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// itemText is the pager text of the kinds whose text is the whole item.
func itemText(it message.Item) string { return it.Body().String() }

// toolText is a tool call as plain text: its line, command, texts and
// each diff as a unified diff.
func toolText(t message.Tool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s [%s]\n", toolGlyph(t.Kind), t.Title, t.Status)
	for _, l := range t.Locations {
		fmt.Fprintf(&b, "location: %s", l.Path)
		if l.Line > 0 {
			fmt.Fprintf(&b, ":%d", l.Line)
		}
		b.WriteByte('\n')
	}
	if p := t.Permission; p != nil {
		fmt.Fprintf(&b, "permission: %s\n", p.ChosenName())
	}
	if mcp, ok := t.MCP(); ok {
		fmt.Fprintf(&b, "mcp: %s · %s\n", mcp.Server, mcp.Tool)
		if raw := prettyJSON(mcp.Arguments); raw != "" {
			fmt.Fprintf(&b, "arguments:\n%s\n", raw)
		}
	} else if c := commandOf(t.RawInput); c != "" {
		fmt.Fprintf(&b, "$ %s\n", c)
	} else if raw := prettyJSON(t.RawInput); raw != "" {
		fmt.Fprintf(&b, "input:\n%s\n", raw)
	}
	for _, c := range t.Content {
		b.WriteByte('\n')
		switch c.Type {
		case message.ContentText:
			b.WriteString(strings.TrimRight(c.Text, "\n"))
			b.WriteByte('\n')
		case message.ContentDiff:
			fmt.Fprintf(&b, "--- %s\n+++ %s\n", c.Path, c.Path)
			for _, r := range unifiedLines(c) {
				switch {
				case r.hunk:
					b.WriteString(r.text)
				case r.kind == diffDelete:
					b.WriteString("-" + r.text)
				case r.kind == diffInsert:
					b.WriteString("+" + r.text)
				default:
					b.WriteString(" " + r.text)
				}
				b.WriteByte('\n')
			}
		case message.ContentTerminal:
			st := c.Terminal
			if st == nil {
				fmt.Fprintf(&b, "terminal %s\n", c.TerminalID)
				break
			}
			fmt.Fprintf(&b, "terminal %s: $ %s (in %s) %s\n", c.TerminalID, st.Command, st.Cwd, terminalStatus(st))
			if st.Truncated {
				b.WriteString("… earlier output in the terminal pane\n")
			}
			if out := strings.TrimRight(st.Output, "\n"); out != "" {
				b.WriteString(out)
				b.WriteByte('\n')
			}
		}
	}
	if raw := prettyJSON(t.RawOutput); raw != "" && len(t.Content) == 0 {
		fmt.Fprintf(&b, "\noutput:\n%s\n", raw)
	}
	return b.String()
}
