package main

import (
	"context"
	"fmt"

	"github.com/chipchat/chipchat/remote"
	"github.com/chipchat/chipchat/workspace"
)

// The remote project's connection as the UI shows it: remote.Conn.Watch
// keeps the master up (reconnecting with backoff); each step becomes a
// workspace.LinkEvent, the header's status while the master is down and
// a toast.

var _ workspace.Linked = (*remoteProject)(nil)

// Links is the project's connection steps (workspace.Linked).
func (p *remoteProject) Links() <-chan workspace.LinkEvent { return p.links }

// watch starts remote.Conn.Watch for the app's life: its steps go to
// Links until close. first, when not nil, runs before (the first
// connection, remotefirst.go), posting its own steps; the watch starts
// only when it returns true.
func (p *remoteProject) watch(clock remote.Clock, first func(ctx context.Context, post func(workspace.LinkEvent)) bool) {
	ctx, cancel := context.WithCancel(context.Background())
	p.links, p.stop = make(chan workspace.LinkEvent, 16), cancel
	steps := linkSteps{host: p.Host()}
	go func() {
		defer close(p.links)
		post := func(ev workspace.LinkEvent) {
			select {
			case p.links <- ev:
			case <-ctx.Done():
			}
		}
		if first != nil && !first(ctx, post) {
			<-ctx.Done() // the last step stays in the header
			return
		}
		p.conn.Watch(ctx, clock, func(c remote.Change) {
			if c.State == remote.Lost {
				p.noteLost()
			}
			if ev, ok := steps.step(c); ok {
				post(ev)
			}
		})
	}()
}

// close ends the watch and the master.
func (p *remoteProject) close() error {
	if p.stop != nil {
		p.stop()
	}
	return p.conn.Close()
}

// linkSteps words the master's changes: what the header says while it
// is down, and a line for each step.
type linkSteps struct {
	host string
	down bool // lost and not back yet
}

// step is c as the UI's step; false when there is nothing to say (the
// first connection, a sentinel started again over a master that lived).
func (s *linkSteps) step(c remote.Change) (workspace.LinkEvent, bool) {
	status := " · reconnecting to " + s.host + "…"
	switch c.State {
	case remote.Connected:
		if !s.down {
			return workspace.LinkEvent{}, false
		}
		s.down = false
		return workspace.LinkEvent{Notice: "reconnected to " + s.host}, true
	case remote.Lost:
		s.down = true
		why := ""
		if c.Err != nil {
			why = " (" + c.Err.Error() + ")"
		}
		return workspace.LinkEvent{Status: status, Notice: "lost the connection to " + s.host + why + "; reconnecting", Err: true}, true
	default: // Retrying
		s.down = true
		return workspace.LinkEvent{Status: fmt.Sprintf("%s (next try in %s)", status, c.Retry),
			Notice: fmt.Sprintf("%v; next try in %s", c.Err, c.Retry), Err: true}, true
	}
}
