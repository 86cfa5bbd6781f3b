package ui

import (
	"github.com/chipchat/chipchat/tty"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/transcript"
)

// `o` on a transcript item (or on a reply cut to its head and tail) opens
// it whole in $PAGER: the text goes to a private temporary file in a
// command, then the pager runs in the terminal (tea.ExecProcess), and the
// file is removed when it exits.

type pagerFileMsg struct {
	path string
	err  error
}

type pagerDoneMsg struct{ err error }

// page writes the item's text for the pager (terminal.WritePagerFile:
// escape sequences stripped) and registers the file in files.
func page(files ExitFiles, m transcript.PagerMsg) tea.Cmd {
	return func() tea.Msg {
		path, err := terminal.WritePagerFile(m.Text, files.Add)
		if err != nil {
			if path != "" {
				files.Forget(path)
			}
			return pagerFileMsg{err: err}
		}
		return pagerFileMsg{path: path}
	}
}

// runPager runs the pager on the file written by page.
func runPager(files ExitFiles, toast *toastLine, m pagerFileMsg) tea.Cmd {
	if m.err != nil {
		return toast.show("could not open the pager: "+m.err.Error(), true)
	}
	c, err := terminal.PagerCmd(m.path)
	if err != nil {
		removePagerFile(files, m.path)
		return toast.show("no pager to run: "+err.Error(), true)
	}
	path := m.path
	return tea.Exec(tty.Command(c), func(err error) tea.Msg {
		removePagerFile(files, path)
		return pagerDoneMsg{err}
	})
}

// removePagerFile removes a file page wrote, now that the pager is done
// with it.
func removePagerFile(files ExitFiles, path string) {
	_ = os.Remove(path)
	files.Forget(path)
}

// ExitFiles is where the app registers the files a signal must remove
// (package main's set; Options.ExitFiles). Its methods may be called from
// any goroutine.
type ExitFiles interface {
	Add(path string)    // remove path if a signal ends chipchat
	Forget(path string) // its owner removed it
}

// noExitFiles is ExitFiles when Options has none.
type noExitFiles struct{}

func (noExitFiles) Add(string)    {}
func (noExitFiles) Forget(string) {}
