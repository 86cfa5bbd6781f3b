package transcript

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/message"
)

// An agent terminal inside a tool item (issue 23 item 2): one line with
// its command (unless the item's title is that command), where it runs and
// how it stands (running, exit N, killed by a signal), then the end of its
// output, folded to the lines the item has room for with "… N earlier
// lines" above them (a terminal's last lines say how it went). A terminal
// content without state (an older chipchat's, or one chipchat did not run)
// is its id.

// terminalStatus words how a terminal stands.
func terminalStatus(st *message.TerminalState) string {
	switch {
	case !st.Exited:
		return "running"
	case st.Signal != "":
		return "killed by " + st.Signal
	case st.ExitCode != nil:
		return fmt.Sprintf("exit %d", *st.ExitCode)
	}
	return "ended"
}

// renderTerminal adds terminal content c of a call titled title to b.
func renderTerminal(c message.ToolContent, title string, width int, o contentOpts, b *lineBudget) {
	st := c.Terminal
	if st == nil {
		b.add(o.looks.Faint.Render("▣ terminal " + chips.SanitizeLine(c.TerminalID)))
		return
	}
	var parts []string
	if cmd := chips.SanitizeLine(strings.TrimSpace(st.Command)); cmd != "" && cmd != chips.SanitizeLine(strings.TrimSpace(title)) {
		parts = append(parts, "$ "+cmd)
	}
	if st.Cwd != "" {
		parts = append(parts, "in "+chips.SanitizeLine(st.Cwd))
	}
	status, look := terminalStatus(st), o.looks.Faint
	if st.Exited && (st.Signal != "" || st.ExitCode == nil || *st.ExitCode != 0) {
		look = o.looks.Bad
	}
	const sep = " · "
	lead := "▣ "
	if len(parts) > 0 {
		room := max(width-ansi.StringWidth(lead+sep+status), 1)
		lead += ansi.Truncate(strings.Join(parts, sep), room, "…") + sep
	}
	b.add(o.looks.Faint.Render(lead) + look.Render(status))
	out := strings.TrimRight(st.Output, "\n")
	if out == "" {
		return
	}
	lines := strings.Split(out, "\n")
	var rows [][]string // each line's rows, from the last line back
	room := -1
	if b.max > 0 {
		room = b.max - len(b.lines)
	}
	used, earlier := 0, 0
	for i := len(lines) - 1; i >= 0; i-- {
		r := wrapPlain(chips.Sanitize(chips.ExpandTabs(strings.TrimRight(lines[i], "\r"))), width, noStyle)
		if len(r) == 0 {
			r = []string{""}
		}
		// Keep a row for "… N earlier lines" unless every line fits.
		if room >= 0 && used+len(r) > room-boolInt(i > 0) {
			earlier = i + 1
			break
		}
		rows = append(rows, r)
		used += len(r)
	}
	if earlier > 0 || st.Truncated {
		note := "… earlier output in the terminal pane"
		if earlier > 0 {
			note = "… " + moreLines(earlier)[1:] + " earlier"
		}
		if room >= 0 && len(rows) == 0 && room < 1 {
			b.hidden += earlier
			return
		}
		b.add(o.looks.Faint.Render(note))
	}
	for i := len(rows) - 1; i >= 0; i-- {
		b.add(rows[i]...)
	}
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}
