package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
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

// PagerCommand is $PAGER, else less, else more.
func PagerCommand() []string {
	if f := strings.Fields(os.Getenv("PAGER")); len(f) > 0 {
		return f
	}
	if _, err := exec.LookPath("less"); err == nil {
		return []string{"less"}
	}
	return []string{"more"}
}

// page writes the item's text for the pager. Escape sequences an agent
// wrote are stripped: the pager shows text, never controls the terminal.
func (a *App) page(m transcript.PagerMsg) tea.Cmd {
	return func() tea.Msg {
		// the pid in the name: a chipchat killed before it removed the
		// file has it removed at the next start (cleanup.go)
		f, err := os.CreateTemp("", pagerPrefix+strconv.Itoa(os.Getpid())+"-*.txt")
		if err != nil {
			return pagerFileMsg{err: err}
		}
		removeOnExit(f.Name())
		_, err = f.WriteString(chips.Sanitize(m.Text))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			removePagerFile(f.Name())
			return pagerFileMsg{err: err}
		}
		return pagerFileMsg{path: f.Name()}
	}
}

// runPager runs the pager on the file written by page.
func (a *App) runPager(m pagerFileMsg) tea.Cmd {
	if m.err != nil {
		return a.notify("could not open the pager: "+m.err.Error(), true)
	}
	args := PagerCommand()
	bin, err := exec.LookPath(args[0])
	if err != nil {
		removePagerFile(m.path)
		return a.notify("no pager to run: set $PAGER ("+filepath.Base(args[0])+" not found)", true)
	}
	c := exec.Command(bin, append(args[1:], m.path)...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	path := m.path
	return tea.ExecProcess(c, func(err error) tea.Msg {
		removePagerFile(path)
		return pagerDoneMsg{err}
	})
}

// removePagerFile removes a file page wrote, now that the pager is done
// with it.
func removePagerFile(path string) {
	_ = os.Remove(path)
	forgetOnExit(path)
}
