package remote

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stepClock is a Clock whose timers fire when the test says: each
// AfterFunc is handed over on armed.
type stepClock struct{ armed chan stepTimer }

type stepTimer struct {
	d    time.Duration
	fire func()
}

func (c stepClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.armed <- stepTimer{d, f}
	return func() bool { return true }
}

// TestWatchReconnectsWithBackoff: the master killed as a dropped network
// ends it, with sshd gone too, is reported lost at once (the sentinel's
// session ended), then each failed attempt waits twice the last on the
// injected clock; with sshd back the next attempt connects, and commands
// run over the new master.
func TestWatchReconnectsWithBackoff(t *testing.T) {
	s, c := newConn(t, Options{Timeout: 5 * time.Second})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clock := stepClock{armed: make(chan stepTimer)}
	changes := make(chan Change, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Watch(ctx, clock, func(ch Change) { changes <- ch })
	}()
	next := func(want LinkState) Change {
		t.Helper()
		select {
		case ch := <-changes:
			if ch.State != want {
				t.Fatalf("change %+v, want state %d\n%s", ch, want, s.Log())
			}
			return ch
		case <-time.After(30 * time.Second):
			t.Fatalf("no change (want state %d)\n%s", want, s.Log())
		}
		return Change{}
	}
	if ch := next(Connected); ch.Attempt != 0 {
		t.Fatalf("first connection: %+v", ch)
	}
	logins := s.Logins()

	s.Stop(t)
	s.KillMaster(t, filepath.Join(c.o.ControlDir, "%C"))
	next(Lost)
	for i, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		ch := next(Retrying)
		if ch.Attempt != i+1 || ch.Retry != want || !errors.Is(ch.Err, ErrUnreachable) {
			t.Fatalf("attempt %d: %+v (%v), want retry in %s, unreachable", i+1, ch, ch.Err, want)
		}
		tm := <-clock.armed
		if tm.d != want {
			t.Fatalf("attempt %d waits %s, want %s", i+1, tm.d, want)
		}
		if i == 2 {
			s.Restart(t)
		}
		tm.fire()
	}
	if ch := next(Connected); ch.Attempt != 3 {
		t.Fatalf("reconnected: %+v, want after 3 failed attempts", ch)
	}
	if s.Logins() <= logins {
		t.Fatalf("no new login after the reconnection\n%s", s.Log())
	}
	out, err := c.Run(ctx, []string{"echo", "back"}, nil)
	if err != nil || strings.TrimSpace(string(out)) != "back" {
		t.Fatalf("after reconnecting: %q, %v", out, err)
	}

	// Close ends the master; Watch does not bring it back, and returns.
	c.Close()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Watch did not return after Close")
	}
	select {
	case ch := <-changes:
		t.Fatalf("a change after Close: %+v", ch)
	default:
	}
}

// TestWatchEndsTheProcessesOfALostMaster: a Process that ran over a
// master killed (its ssh died with it; the remote side lives on, for sshd
// signals nothing) gets SIGTERM on the remote once Watch reconnected.
func TestWatchEndsTheProcessesOfALostMaster(t *testing.T) {
	s, c := newConn(t, Options{})
	seen := termFIFO(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changes := make(chan Change, 16)
	go c.Watch(ctx, stepClock{armed: make(chan stepTimer, 16)}, func(ch Change) { changes <- ch })
	if ch := <-changes; ch.State != Connected {
		t.Fatalf("first change %+v", ch)
	}
	cmd, out := startTrapped(t, c, context.Background())
	defer out.Close()
	s.KillMaster(t, filepath.Join(c.o.ControlDir, "%C"))
	_ = cmd.Wait()
	for ch := range changes {
		if ch.State == Connected {
			break
		}
	}
	select {
	case got := <-seen:
		if got != "ended<nil>" {
			t.Fatalf("the FIFO: %q", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the process of the lost master was not signalled\n%s", s.Log())
	}
}
