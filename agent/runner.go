package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
)

// ChunkMsg carries reply text of a running turn. Deltas that arrive while
// the program is busy are concatenated into one message, so at most one
// ChunkMsg per turn is ever pending and the UI never falls behind.
type ChunkMsg struct {
	TurnID string
	Delta  string
}

// DoneMsg ends a turn; it comes after its last ChunkMsg. Err is the
// backend's error (nil on success and on a user's cancel); Interrupted says
// the turn was cancelled and the reply received so far is partial.
type DoneMsg struct {
	TurnID      string
	Err         error
	Interrupted bool
}

// Runner runs turns on a backend and streams them to a Bubble Tea program.
// It is safe for concurrent use. Keeping one turn per thread is the app's
// concern; turn ids must be unique among running turns.
//
// Use: cmd := r.Start(id, turn) and return it from Update; on each ChunkMsg
// for id, append the delta and return r.Next(id); on DoneMsg, finish. Keep
// exactly one Next outstanding per turn.
type Runner struct {
	backend Backend
	mu      sync.Mutex
	turns   map[string]*run
}

type run struct {
	cancel context.CancelFunc

	mu          sync.Mutex
	buf         strings.Builder
	done        bool // backend returned or the turn was cancelled
	delivered   bool // DoneMsg handed out
	err         error
	interrupted bool
	notify      chan struct{} // cap 1: "buf grew"
	finished    chan struct{} // closed when done
}

// NewRunner returns a runner for b.
func NewRunner(b Backend) *Runner {
	return &Runner{backend: b, turns: map[string]*run{}}
}

// Backend is the runner's backend.
func (r *Runner) Backend() Backend { return r.backend }

// Start starts the turn in a goroutine at once and returns a Cmd that waits
// for its first event (a ChunkMsg or the DoneMsg). Starting an id that is
// still running gives a DoneMsg with an error and leaves the running turn
// alone.
func (r *Runner) Start(turnID string, t Turn) tea.Cmd {
	ctx, cancel := context.WithCancel(context.Background())
	ru := &run{cancel: cancel, notify: make(chan struct{}, 1), finished: make(chan struct{})}
	r.mu.Lock()
	if _, busy := r.turns[turnID]; busy {
		r.mu.Unlock()
		cancel()
		err := fmt.Errorf("agent: turn %q is already running", turnID)
		return func() tea.Msg { return DoneMsg{TurnID: turnID, Err: err} }
	}
	r.turns[turnID] = ru
	r.mu.Unlock()

	go func() {
		var err error
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("agent %s panicked: %v", r.backend.Name(), p)
			}
			ru.finish(err, false)
			cancel()
		}()
		err = r.backend.Run(ctx, t, func(e Event) {
			if d, ok := e.(TextDelta); ok {
				ru.emit(d.Text)
			}
		})
	}()
	return r.Next(turnID)
}

// Next returns a Cmd that waits for the turn's next event: the text
// emitted since the last ChunkMsg, or the DoneMsg once all text is out. It
// is nil for a turn the runner does not know (never started, or its DoneMsg
// already delivered).
func (r *Runner) Next(turnID string) tea.Cmd {
	r.mu.Lock()
	ru := r.turns[turnID]
	r.mu.Unlock()
	if ru == nil {
		return nil
	}
	return func() tea.Msg { return r.wait(turnID, ru) }
}

func (r *Runner) wait(turnID string, ru *run) tea.Msg {
	for {
		ru.mu.Lock()
		if ru.buf.Len() > 0 {
			d := ru.buf.String()
			ru.buf.Reset()
			ru.mu.Unlock()
			return ChunkMsg{TurnID: turnID, Delta: d}
		}
		if ru.done {
			if ru.delivered {
				ru.mu.Unlock()
				return nil
			}
			ru.delivered = true
			msg := DoneMsg{TurnID: turnID, Err: ru.err, Interrupted: ru.interrupted}
			ru.mu.Unlock()
			r.mu.Lock()
			if r.turns[turnID] == ru {
				delete(r.turns, turnID)
			}
			r.mu.Unlock()
			return msg
		}
		ru.mu.Unlock()
		select {
		case <-ru.notify:
		case <-ru.finished:
		}
	}
}

// Take returns the text the backend produced that no ChunkMsg has
// delivered yet, and clears it: a caller that stops listening (quitting)
// keeps every byte the agent wrote.
func (r *Runner) Take(turnID string) string {
	r.mu.Lock()
	ru := r.turns[turnID]
	r.mu.Unlock()
	if ru == nil {
		return ""
	}
	ru.mu.Lock()
	defer ru.mu.Unlock()
	d := ru.buf.String()
	ru.buf.Reset()
	return d
}

// Cancel interrupts a running turn: it stops the backend and ends the turn
// at once, keeping the text emitted so far; the DoneMsg then has
// Interrupted=true. It reports false when the turn is unknown or already
// finished.
func (r *Runner) Cancel(turnID string) bool {
	r.mu.Lock()
	ru := r.turns[turnID]
	r.mu.Unlock()
	if ru == nil || !ru.finish(nil, true) {
		return false
	}
	ru.cancel()
	return true
}

// Running reports whether the turn has started and its DoneMsg has not been
// delivered yet.
func (r *Runner) Running(turnID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.turns[turnID]
	return ok
}

func (ru *run) emit(delta string) {
	if delta == "" {
		return
	}
	ru.mu.Lock()
	if ru.done {
		ru.mu.Unlock()
		return
	}
	ru.buf.WriteString(delta)
	ru.mu.Unlock()
	select {
	case ru.notify <- struct{}{}:
	default:
	}
}

// finish ends the run once; it reports whether this call ended it.
func (ru *run) finish(err error, interrupted bool) bool {
	ru.mu.Lock()
	defer ru.mu.Unlock()
	if ru.done {
		return false
	}
	ru.done, ru.err, ru.interrupted = true, err, interrupted
	close(ru.finished)
	return true
}
