package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/ui/keymap"
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

// shellMode is ! shell mode's controller.
type shellMode struct {
	on      bool               // the composer takes a shell command
	run     *terminal.Terminal // the command running, nil when none
	from    int64              // the screen line of its "$ command" line
	n       int                // numbers the shells' tabs
	killed  bool
	cmdline string

	ed         *composer.Editor
	panes      *panes // the commands run as tabs of the terminal pane
	keys       *keymap.Keys
	toast      *toastLine
	dir        string // the project directory, where the commands run
	scrollback int
	prompt     lipgloss.Style // the "!" (the theme's)
}

type shellDoneMsg struct {
	id string
}

// gutter is the width of the "! " prompt in shell mode.
func (s *shellMode) gutter() int {
	if s.on {
		return 2
	}
	return 0
}

// view is the composer's view v, behind the "! " prompt in shell mode.
func (s *shellMode) view(v string) string {
	if !s.on {
		return v
	}
	lines := strings.Split(v, "\n")
	for i := range lines {
		p := "  "
		if i == 0 {
			p = s.prompt.Render("!") + " "
		}
		lines[i] = p + lines[i]
	}
	return strings.Join(lines, "\n")
}

// set enters or leaves shell mode, where $ @ # / open no picker (issue 25).
func (s *shellMode) set(on bool) {
	s.on = on
	s.ed.SetPlain(on)
}

// key is the composer's keys of shell mode: "!" on an empty draft enters
// it, esc or backspace on the empty line leaves it, esc or ctrl+c kill a
// running command. ok false leaves the key to the others.
func (s *shellMode) key(msg tea.KeyPressMsg) (tea.Cmd, paneFx, bool) {
	k := s.keys
	if s.run != nil && key.Matches(msg, k.ShellKill) {
		s.killed = true
		terminal.KillCommand(s.run)
		return s.toast.show("killed: "+s.cmdline, false), paneFx{}, true
	}
	empty := s.ed.Draft().IsEmpty()
	switch {
	case !s.on && empty && msg.Text == "!" && s.run == nil:
		s.set(true)
		return nil, paneFx{layout: true}, true
	case s.on && (key.Matches(msg, k.ShellLeave) || empty && key.Matches(msg, k.Editor.DeleteBack)):
		s.set(false)
		return nil, paneFx{layout: true}, true
	}
	return nil, paneFx{}, false
}

// start is enter in shell mode: the line runs in a new terminal tab.
func (s *shellMode) start(line string) (tea.Cmd, paneFx) {
	cmdline := strings.TrimSpace(line)
	if cmdline == "" {
		return nil, paneFx{}
	}
	if s.run != nil {
		return s.toast.show("a ! command is still running ("+s.keys.ShellKill.Help().Key+" kills it)", true), paneFx{}
	}
	s.set(false)
	s.ed.Reset()
	s.n++
	id := "shell-" + strconv.Itoa(s.n)
	t, from, err := s.panes.pane.StartShellCommand(id, "Shell "+strconv.Itoa(s.n), s.scrollback, s.dir, cmdline)
	if err != nil {
		return s.toast.show("! "+cmdline+": "+err.Error(), true), paneFx{}
	}
	s.run, s.from, s.cmdline, s.killed = t, from, cmdline, false
	s.panes.shown = true
	wait := s.panes.pane.Add(t)
	s.panes.pane.Show(id)
	done := t.Done()
	return tea.Batch(func() tea.Msg {
		<-done
		return shellDoneMsg{id}
	}, s.toast.show("running: "+cmdline, false)), paneFx{layout: true, composer: true, after: wait}
}

// done captures the finished command's lines for a chip at the caret
// (App.captured) and the toast that follows it (terminal.CommandNote).
func (s *shellMode) done(m shellDoneMsg) (*contextref.TerminalRecord, func() tea.Cmd) {
	t := s.run
	if t == nil || t.ID != m.id {
		return nil, nil
	}
	s.run = nil
	rec, lost, err := terminal.CaptureCommand(t, s.from, strconv.Itoa(s.n))
	if err != nil {
		return nil, func() tea.Cmd { return s.toast.show("! "+s.cmdline+": nothing captured: "+err.Error(), true) }
	}
	note := terminal.CommandNote(t, s.cmdline, s.killed, lost)
	return rec, func() tea.Cmd { return s.toast.show(note, false) }
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
