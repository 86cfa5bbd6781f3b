package mcpserver

import (
	"slices"

	"github.com/chipchat/chipchat/terminal"
)

// Panes is the app's end of the panes socket: the listener at SocketPath
// and the list of terminals it reads, kept by the UI goroutine (Sync).
type Panes struct {
	srv    *PaneServer
	terms  Terminals
	synced []*terminal.Terminal // what terms holds (the UI goroutine's copy)
}

// OpenPanes starts the panes socket at SocketPath (I/O: call it before the
// program starts). Close it with the app.
func OpenPanes() (*Panes, error) {
	path, err := SocketPath()
	if err != nil {
		return nil, err
	}
	p := &Panes{}
	srv, err := ListenPanes(path, p.terms.Read)
	if err != nil {
		return nil, err
	}
	p.srv = srv
	return p, nil
}

// Path is the socket's path.
func (p *Panes) Path() string { return p.srv.Path() }

// Close stops the socket and removes it.
func (p *Panes) Close() error { return p.srv.Close() }

// Sync tells the socket which terminals the pane holds. The UI goroutine
// calls it at each message: when the list did not change it costs a
// comparison of the few tabs.
func (p *Panes) Sync(terms []*terminal.Terminal) {
	if p == nil || slices.Equal(p.synced, terms) {
		return
	}
	p.synced = slices.Clone(terms)
	p.terms.Set(p.synced)
}
