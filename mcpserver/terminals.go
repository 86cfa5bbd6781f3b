package mcpserver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/chipchat/chipchat/terminal"
)

// Terminals is the app's list of terminals as PaneServer reads it: the UI
// goroutine calls Set after it opens or closes one (the pane's own list is
// not safe to read from another goroutine), and Read, a PaneFunc, reads
// each terminal under its own lock (terminal.Terminal.Snapshot). The zero
// value is an empty list.
type Terminals struct {
	list atomic.Pointer[[]*terminal.Terminal]
}

// Set replaces the list with a copy of terms.
func (t *Terminals) Set(terms []*terminal.Terminal) {
	c := slices.Clone(terms)
	t.list.Store(&c)
}

// Read is a PaneFunc: name "" is every terminal, else the one whose id
// ("term-2"), label ("Terminal 2", any case) or number ("2") it is.
func (t *Terminals) Read(name string, lines int) ([]PaneText, error) {
	var terms []*terminal.Terminal
	if p := t.list.Load(); p != nil {
		terms = *p
	}
	if len(terms) == 0 {
		return nil, fmt.Errorf("the user has no terminal open in chipchat")
	}
	var pick []*terminal.Terminal
	if name = strings.TrimSpace(name); name == "" {
		pick = terms
	} else {
		for _, x := range terms {
			if matches(x, name) {
				pick = append(pick, x)
				break
			}
		}
		if pick == nil {
			var names []string
			for _, x := range terms {
				names = append(names, x.Label+" ("+x.ID+")")
			}
			return nil, fmt.Errorf("no terminal named %q; the open terminals are: %s", name, strings.Join(names, ", "))
		}
	}
	out := make([]PaneText, 0, len(pick))
	for _, x := range pick {
		out = append(out, FromSnapshot(x.Snapshot(lines)))
	}
	return out, nil
}

func matches(t *terminal.Terminal, name string) bool {
	if strings.EqualFold(t.ID, name) || strings.EqualFold(t.Label, name) {
		return true
	}
	if _, err := strconv.Atoi(name); err == nil {
		return t.ID == "term-"+name
	}
	return false
}

// FromSnapshot converts a terminal snapshot to the socket's form.
func FromSnapshot(s terminal.Snapshot) PaneText {
	p := PaneText{ID: s.ID, Label: s.Label, Title: s.Title, Cwd: s.Cwd, Running: s.Running,
		FullScreen: s.Alt, FirstLine: s.First, Lines: s.Lines}
	if s.Exited && !s.Running {
		code := s.Code
		p.ExitCode = &code
	}
	if p.Lines == nil {
		p.Lines = []string{}
	}
	return p
}
