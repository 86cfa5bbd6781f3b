package terminal

import (
	"strconv"
	"strings"
	"syscall"

	"github.com/chipchat/chipchat/contextref"
)

// StartShellCommand runs cmdline with shell -c in dir, visibly: a tab id
// labelled label that does not restart, its screen starting with the
// "$ cmdline" line. from is that line's number, for CaptureCommand.
func StartShellCommand(id, label string, scrollback int, dir, shell, cmdline string) (t *Terminal, from int64, err error) {
	return StartShellCommandWith(nil, id, label, scrollback, dir, shell, cmdline)
}

// StartShellCommand is the package's StartShellCommand with the pane's
// shell for commands (CommandShell, else Shell's program, else
// DefaultShell) and its Spawn. The caller adds the terminal (Add).
func (p *Pane) StartShellCommand(id, label string, scrollback int, dir, cmdline string) (*Terminal, int64, error) {
	sh := p.CommandShell
	if sh == "" && len(p.Shell) > 0 {
		sh = p.Shell[0]
	}
	if sh == "" {
		sh = DefaultShell()
	}
	return StartShellCommandWith(p.Spawn, id, label, scrollback, dir, sh, cmdline)
}

// StartShellCommandWith is StartShellCommand through spawn (nil: here; a
// remote project's runs the command there).
func StartShellCommandWith(spawn Spawn, id, label string, scrollback int, dir, shell, cmdline string) (t *Terminal, from int64, err error) {
	t = NewTerminal(id, label, 80, 24, scrollback)
	t.Spawn = spawn
	t.Do(func(s *Screen) {
		from = s.CursorLine()
		_, _ = s.Write([]byte("$ " + strings.ReplaceAll(cmdline, "\n", "\r\n") + "\r\n"))
	})
	t.NoRestart = true
	if err := t.Start(dir, shell, "-c", cmdline); err != nil {
		return nil, 0, err
	}
	return t, from, nil
}

// CaptureCommand cuts a finished StartShellCommand's lines, from its
// "$ cmdline" line to its last line that is not blank before the pane's
// "[process exited N]", into an excerpt (CaptureLines, numbered seq). lost
// reports that its first lines were past the scrollback.
func CaptureCommand(t *Terminal, from int64, seq string) (rec *contextref.TerminalRecord, lost bool, err error) {
	t.Do(func(s *Screen) {
		lost = from < s.FirstLine()
		to := s.CursorLine() - 1 // the line before "[process exited N]"
		for to > from && strings.TrimSpace(s.Lines(to, to)[0]) == "" {
			to--
		}
		rec, err = CaptureLines(s, t.ID, t.Label, from, to, seq)
	})
	return rec, lost, err
}

// KillCommand is esc or ctrl+c while a ! command runs: SIGKILL to its
// process group (nothing while it has none).
func KillCommand(t *Terminal) {
	if pg := t.Pgid(); pg > 0 {
		_ = syscall.Kill(-pg, syscall.SIGKILL)
	}
}

// CommandNote is the toast after a finished ! command's chip: "! cmdline"
// with how it ended (" (exit N)", or " (killed)" when the user killed it)
// and, lost (CaptureCommand), that its first lines were past the
// scrollback.
func CommandNote(t *Terminal, cmdline string, killed, lost bool) string {
	code := ""
	if _, c := t.Exited(); c != 0 {
		code = " (exit " + strconv.Itoa(c) + ")"
	}
	if killed {
		code = " (killed)"
	}
	if lost {
		code += " · its first lines were past the scrollback (limits.scrollback)"
	}
	return "! " + cmdline + code + " → chip"
}
