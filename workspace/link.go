package workspace

import "sync"

// LinkEvent is a step of the connection of a project on another machine
// (a remote project: its master connection lost, being retried, back), as
// the UI shows it: Status is the header's part while the project cannot
// be reached (" · reconnecting to host…"; "" once connected), Notice a
// line for the user (a toast).
type LinkEvent struct {
	Status string
	Notice string
	Err    bool
}

// Linked is a Project whose connection can drop: Links delivers its
// LinkEvents, in order, until the project is closed (the channel is
// closed then). A project here has none.
type Linked interface {
	Links() <-chan LinkEvent
}

// Link is the Workspace's view of its project's connection: the last
// step's Status, for the header, and the wait for the next step. A nil
// *Link (a project here) has no status and nothing to wait for.
type Link struct {
	ch     <-chan LinkEvent
	mu     sync.Mutex
	status string
}

// Status is the last step's Status ("" when connected, or no link). It
// does no I/O.
func (l *Link) Status() string {
	if l == nil {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.status
}

// NextLink is l's wait for the next step, as a command of the UI (M is
// its message type): it blocks until the step comes, notes its Status and
// returns it as an M; nil when l is nil. After the last step (the project
// closed) it returns M's zero value.
func NextLink[M any](l *Link) func() M {
	if l == nil {
		return nil
	}
	return func() M {
		var m M
		ev, ok := <-l.ch
		if !ok {
			return m
		}
		l.mu.Lock()
		l.status = ev.Status
		l.mu.Unlock()
		if v, ok := any(ev).(M); ok {
			m = v
		}
		return m
	}
}
