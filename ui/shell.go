package ui

import (
	"strconv"
	"strings"
	"syscall"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/terminal"
)

// ! shell chips (issue 15): "!" typed into an empty draft switches the
// composer to shell mode (a "!" prompt in another colour; backspace on the
// empty line or esc leaves it). enter runs the line with the user's shell
// in the project directory, visibly, as a new tab of the terminal pane
// (the pane's environment: TERM, CHIPCHAT_TERMINAL…). When it exits, its
// command line ("$ ls") and output become a terminal-excerpt chip at the
// caret of the normal draft, cut as every capture is (terminal.CaptureLines).
// esc or ctrl+c while it runs kills its process group; what it printed
// becomes the chip.

type shellMode struct {
	on      bool               // the composer takes a shell command
	run     *terminal.Terminal // the command running, nil when none
	from    int64              // the screen line of its "$ command" line
	n       int                // numbers the shells' tabs
	killed  bool
	cmdline string
}

type shellDoneMsg struct {
	id string
}

var shellPromptStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("#f59e0b")).Bold(true)

// shellGutter is the width of the "! " prompt in shell mode.
func (a *App) shellGutter() int {
	if a.shell.on {
		return 2
	}
	return 0
}

// composerView is the composer, behind the "! " prompt in shell mode.
func (a *App) composerView() string {
	v := a.ed.View()
	if !a.shell.on {
		return v
	}
	lines := strings.Split(v, "\n")
	for i := range lines {
		p := "  "
		if i == 0 {
			p = shellPromptStyle.Render("!") + " "
		}
		lines[i] = p + lines[i]
	}
	return strings.Join(lines, "\n")
}

// shellKey is the composer's keys of shell mode: "!" on an empty draft
// enters it, esc or backspace on the empty line leaves it, esc or ctrl+c
// kill a running command. ok false leaves the key to the others.
func (a *App) shellKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if a.focus != paneComposer || a.ed.PickerOpen() {
		return nil, false
	}
	k := a.keys
	if a.shell.run != nil && key.Matches(msg, k.ShellKill) {
		a.shell.killed = true
		if pg := a.shell.run.Pgid(); pg > 0 {
			_ = syscall.Kill(-pg, syscall.SIGKILL)
		}
		return a.notify("killed: "+a.shell.cmdline, false), true
	}
	empty := a.ed.Draft().IsEmpty()
	switch {
	case !a.shell.on && empty && msg.Text == "!" && a.shell.run == nil:
		a.shell.on = true
		a.layout()
		return nil, true
	case a.shell.on && (key.Matches(msg, k.ShellLeave) || empty && key.Matches(msg, k.Editor.DeleteBack)):
		a.shell.on = false
		a.layout()
		return nil, true
	}
	return nil, false
}

// runShell is enter in shell mode: the line runs in a new terminal tab.
func (a *App) runShell(line string) tea.Cmd {
	cmdline := strings.TrimSpace(line)
	if cmdline == "" {
		return nil
	}
	if a.shell.run != nil {
		return a.notify("a ! command is still running ("+a.keys.ShellKill.Help().Key+" kills it)", true)
	}
	a.shell.on = false
	a.ed.Reset()
	a.shell.n++
	id := "shell-" + strconv.Itoa(a.shell.n)
	t := terminal.NewTerminal(id, "Shell "+strconv.Itoa(a.shell.n), 80, 24, a.opt.Config.Limits.Scrollback)
	t.Do(func(s *terminal.Screen) {
		a.shell.from = s.CursorLine()
		_, _ = s.Write([]byte("$ " + strings.ReplaceAll(cmdline, "\n", "\r\n") + "\r\n"))
	})
	sh := terminal.DefaultShell()
	if len(a.pane.Shell) > 0 {
		sh = a.pane.Shell[0]
	}
	t.NoRestart = true
	if err := t.Start(a.opt.Dir, sh, "-c", cmdline); err != nil {
		return a.notify("! "+cmdline+": "+err.Error(), true)
	}
	a.shell.run, a.shell.cmdline, a.shell.killed = t, cmdline, false
	a.paneShown = true
	wait := a.pane.Add(t)
	a.pane.Show(id)
	a.layout()
	done := t.Done()
	return tea.Batch(tea.Sequence(a.afterComposer(), wait), func() tea.Msg {
		<-done
		return shellDoneMsg{id}
	}, a.notify("running: "+cmdline, false))
}

// shellDone captures the finished command's lines into a chip at the
// caret.
func (a *App) shellDone(m shellDoneMsg) tea.Cmd {
	t := a.shell.run
	if t == nil || t.ID != m.id {
		return nil
	}
	a.shell.run = nil
	from := a.shell.from
	var rec *contextref.TerminalRecord
	var err error
	lost := false
	t.Do(func(s *terminal.Screen) {
		lost = from < s.FirstLine()
		to := s.CursorLine() - 1 // the line before "[process exited N]"
		for to > from && strings.TrimSpace(s.Lines(to, to)[0]) == "" {
			to--
		}
		rec, err = terminal.CaptureLines(s, t.ID, t.Label, from, to, strconv.Itoa(a.shell.n))
	})
	if err != nil {
		return a.notify("! "+a.shell.cmdline+": nothing captured: "+err.Error(), true)
	}
	code := ""
	if _, c := t.Exited(); c != 0 {
		code = " (exit " + strconv.Itoa(c) + ")"
	}
	if a.shell.killed {
		code = " (killed)"
	}
	if lost {
		code += " · its first lines were past the scrollback (limits.scrollback)"
	}
	cmd := a.captured(rec)
	return tea.Batch(cmd, a.notify("! "+a.shell.cmdline+code+" → chip", false))
}

// composerRows is how tall the composer may grow: limits.composer_rows,
// and never so tall that the header, one transcript row, the rule and the
// hint bar fall off a short screen (the caret line stays visible).
func (a *App) composerRows() int {
	rows := a.opt.Config.Limits.ComposerRows
	if rows <= 0 {
		rows = config.Default().Limits.ComposerRows
	}
	room := a.height - 4 - len(a.conv.queueView(a.width)) // header, a transcript row, rule, hint bar
	if len(a.ed.Draft().Shelf()) > 0 {
		room--
	}
	return max(1, min(rows, room))
}
