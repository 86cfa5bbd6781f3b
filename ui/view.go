package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/workspace"

	tea "charm.land/bubbletea/v2"
)

var (
	headerStyle = lipgloss.NewStyle().Bold(true)
	ruleStyle   = lipgloss.NewStyle().Faint(true)
	hintStyle   = lipgloss.NewStyle().Faint(true)
	focusStyle  = lipgloss.NewStyle().Reverse(true)
)

// layout gives the transcript what the composer, shelf, header and footer
// leave.
func (a *App) layout() {
	a.ed.SetWidth(a.width - a.shell.gutter()) // the "! " prompt of shell mode (shell.go)
	a.ed.SetMaxHeight(a.composerRows())       // never more than the screen leaves (shell.go)
	h := a.height - 1 /* header */ - 1 /* rule */ - a.ed.Height() - 1 /* footer */ - len(a.conv.queueView(a.width))
	if len(a.ed.Draft().Shelf()) > 0 {
		h--
	}
	a.rv.setSize(a.width, max(h, 1)) // the review pane takes the whole area
	trW, trH, pw, ph := a.panes.split(a.width, max(h, 1))
	if trW > 0 && trH > 0 {
		a.tr.SetSize(trW, trH)
	}
	if pw > 0 && ph > 0 {
		a.panes.pane.SetSize(pw, ph)
	}
}

// mainArea draws the transcript and the terminal pane in their area of
// exactly h lines.
func (a *App) mainArea(h int) string {
	if a.rv.shown() {
		return a.rv.view(h, a.width)
	}
	trW, _, pw, ph := a.panes.split(a.width, h)
	switch {
	case pw == 0:
		return a.tr.View()
	case trW == 0:
		return fitLines(a.panes.pane.View(), ph, pw)
	case a.panes.pane.Right:
		left := strings.Split(fitLines(a.tr.View(), h, trW), "\n")
		right := strings.Split(fitLines(a.panes.pane.View(), h, pw), "\n")
		sep := ruleStyle.Render("│")
		for i := range left {
			left[i] += strings.Repeat(" ", max(0, trW-ansi.StringWidth(left[i]))) + sep + right[i]
		}
		return strings.Join(left, "\n")
	}
	return a.tr.View() + "\n" + fitLines(a.panes.pane.View(), ph, pw)
}

// fitLines makes s exactly h lines, each at most w columns.
func fitLines(s string, h, w int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// View draws the whole screen in the alternate screen.
func (a *App) View() tea.View {
	v := tea.NewView(a.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "chipchat"
	v.ReportFocus = a.conv.bell.Terminal().ReportFocus() // notify.go
	return v
}

func (a *App) render() string {
	if a.width <= 0 || a.height <= 0 {
		return ""
	}
	a.layout()
	var b strings.Builder
	b.WriteString(a.header())
	b.WriteByte('\n')
	queue := a.conv.queueView(a.width)
	trH := a.height - 3 - a.ed.Height() - len(queue)
	if len(a.ed.Draft().Shelf()) > 0 {
		trH--
	}
	trH = max(trH, 1)
	top := a.ovs.Top()
	if top != nil && dialog.PlaceOf(top) == dialog.InArea {
		b.WriteString(a.overlayView(top, trH))
	} else {
		b.WriteString(a.withPicker(top, a.mainArea(trH), trH)) // the / and modes pickers
	}
	b.WriteByte('\n')
	for _, l := range queue {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if shelf := a.shelfView(); shelf != "" {
		b.WriteString(shelf)
		b.WriteByte('\n')
	}
	rule := strings.Repeat("─", a.width)
	if a.focus == paneComposer && (top == nil || dialog.PlaceOf(top) != dialog.InArea) {
		b.WriteString(rule)
	} else {
		b.WriteString(ruleStyle.Render(rule))
	}
	b.WriteByte('\n')
	b.WriteString(a.shell.view(a.ed.View())) // behind the "! " prompt in shell mode (shell.go)
	b.WriteByte('\n')
	b.WriteString(a.footer())
	return b.String()
}

func (a *App) header() string {
	title := a.thread.Title
	if title == "" {
		title = "New thread"
	}
	status := ""
	since := a.conv.elapsed()
	el := since.Truncate(time.Second)
	switch a.conv.phase() {
	case chat.Storing:
		status = " · sending…"
	case chat.Starting, chat.Streaming:
		// Starting is not replying: "replying" from the turn's first
		// update on, "starting <agent>" until then (issue 22 item 9).
		if r, ok := a.chat.ReplyingSince(a.thread.ID); ok {
			status = fmt.Sprintf(" · %s replying %s%s", spinFrame(since), max(0, a.conv.now.Sub(r)).Truncate(time.Second), map[bool]string{true: " (esc cancels)"}[a.ovs.Len() == 0]) // a popup's esc is its own
		} else {
			status = fmt.Sprintf(" · %s starting %s %s", spinFrame(since), chips.Truncate(chips.SanitizeLine(a.chat.AgentName()), 24), el)
		}
	case chat.Stopping:
		status = " · stopping…"
	default:
		if a.chat.CanRetry(a.thread.ID) {
			status = " · alt+r asks again"
		}
	}
	agentState := a.conv.info().Status() // " · mode X · model Y · ctx 42%" (chat)
	// The turn's status comes before the agent's name: a long agent
	// command must not push it off a narrow screen.
	text := fmt.Sprintf(" chipchat · %s%s%s · agent %s%s", chips.SanitizeLine(title), status, chips.SanitizeLine(a.opt.Workspace.Link().Status()), chips.SanitizeLine(a.chat.AgentName()), chips.SanitizeLine(agentState))
	return headerStyle.Render(chips.Truncate(text, a.width))
}

// overlayView draws the open popup in the transcript's place, exactly h
// lines.
func (a *App) overlayView(o dialog.Overlay, h int) string {
	lines := o.View(max(a.width-2, 10), h)
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = " " + l
	}
	return strings.Join(lines, "\n")
}

// shelfView is the image shelf: one row, name and size of each image.
func (a *App) shelfView() string {
	return a.clip.shelf.View(a.ed.Draft(), a.width, a.focus == paneShelf, focusStyle, workspace.HumanSize)
}

// withPicker draws an overlay placed at the bottom (the / and modes
// pickers) over the last rows of the main area (exactly h lines).
func (a *App) withPicker(o dialog.Overlay, area string, h int) string {
	if o == nil || dialog.PlaceOf(o) != dialog.AtBottom || h < 3 {
		return area
	}
	box := o.View(a.width, h)
	lines := strings.Split(area, "\n")
	for len(lines) < h {
		lines = append(lines, "")
	}
	start := max(0, len(lines)-len(box))
	for i, l := range box {
		if start+i < len(lines) {
			lines[start+i] = l
		}
	}
	return strings.Join(lines, "\n")
}

func (a *App) footer() string {
	top := a.ovs.Top()
	if top != nil && dialog.PlaceOf(top) == dialog.OnFooter {
		return top.View(a.width, 1)[0]
	}
	if t := a.toast.view(a.width); t != "" {
		return t
	}
	var hints string
	switch {
	case a.ovs.Guarding() > 0:
		hints = dialog.GuardHint
	case top != nil && top.Hints() != "": // the keys actually bound
		hints = top.Hints()
	case a.rv.shown():
		hints = a.rv.hints()
	case a.conv.commandHint(a.focus == paneComposer) != "":
		hints = a.conv.commandHint(a.focus == paneComposer)
	default:
		hints = a.paneHints() // the keys actually bound (keys.go)
	}
	return hintStyle.Render(keymap.Fit(hints, keymap.Hint(a.keys.Help, "keys"), a.width))
}
