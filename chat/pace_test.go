package chat

import (
	"context"
	"testing"
	"time"

	"github.com/chipchat/chipchat/agent"
)

// pacedEnv is an env whose Wait is paced at PaceInterval.
func pacedEnv(t *testing.T) *env {
	fb := &fakeBackend{turns: make(chan *fakeTurn, 4)}
	return newEnvWith(t, fb, fb, func(o *Options) { o.EventEvery = PaceInterval })
}

// waitAsync calls Wait in its own goroutine.
func waitAsync(e *env) <-chan []Event {
	out := make(chan []Event, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		out <- e.s.Wait(ctx)
	}()
	return out
}

// untilArmed waits until the clock has more than before timers, woken by
// each timer scheduled (ManualClock.Armed), failing the test after 2 s.
func untilArmed(t *testing.T, c *ManualClock, before int) {
	t.Helper()
	deadline := time.NewTimer(2 * time.Second)
	defer deadline.Stop()
	for {
		armed := c.Armed()
		if c.Pending() > before {
			return
		}
		select {
		case <-armed:
		case <-deadline.C:
			t.Fatalf("timed out waiting for a pace timer (%d pending)", c.Pending())
		}
	}
}

// drainUntil collects paced batches until one holds an event ok accepts,
// moving the clock a frame whenever Wait is pacing.
func drainUntil(e *env, ok func(Event) bool) {
	e.t.Helper()
	deadline := time.NewTimer(2 * time.Second)
	defer deadline.Stop()
	for {
		before := e.clock.Pending()
		ch := waitAsync(e)
		var evs []Event
	batch:
		for {
			armed := e.clock.Armed()
			if e.clock.Pending() > before {
				e.clock.Advance(PaceInterval)
			}
			select {
			case evs = <-ch:
				break batch
			case <-armed:
			case <-deadline.C:
				e.t.Fatal("timed out waiting for a batch")
			}
		}
		for _, ev := range evs {
			if ok(ev) {
				return
			}
		}
	}
}

// A stream's changes between two batches reach the app as one batch a
// frame after the last, holding the latest text once; the first event
// after a quiet frame is not held back.
func TestWaitPacesBatches(t *testing.T) {
	e := pacedEnv(t)
	e.send("go")
	ft := e.turn()
	drainUntil(e, func(ev Event) bool { _, is := ev.(ReplyStarted); return is })

	ft.emit(agent.TextDelta{Text: "a"})
	ft.emit(agent.TextDelta{Text: "b"})
	ft.emit(agent.TextDelta{Text: "c"})
	before := e.clock.Pending()
	ch := waitAsync(e)
	untilArmed(t, e.clock, before)
	e.clock.Advance(PaceInterval - time.Millisecond)
	select {
	case evs := <-ch:
		t.Fatalf("Wait returned before a frame had passed: %v", evs)
	default:
	}
	e.clock.Advance(time.Millisecond)
	var evs []Event
	select {
	case evs = <-ch:
	case <-time.After(2 * time.Second):
		t.Fatal("Wait did not return once the frame had passed")
	}
	var texts []string
	for _, ev := range evs {
		if c, ok := ev.(ItemChanged); ok {
			texts = append(texts, c.Item.Text)
		}
	}
	if len(texts) != 1 || texts[0] != "abc" {
		t.Fatalf("the batch's item changes are %q, want one with \"abc\"", texts)
	}

	// A quiet frame later, the next change is returned at once.
	e.clock.Advance(PaceInterval)
	ft.emit(agent.TextDelta{Text: "d"})
	before = e.clock.Pending()
	ch = waitAsync(e)
	select {
	case evs = <-ch:
	case <-time.After(2 * time.Second):
		t.Fatal("Wait held back the first change after a quiet frame")
	}
	if e.clock.Pending() != before {
		t.Fatalf("Wait armed a pace timer after a quiet frame (%d timers, %d before)", e.clock.Pending(), before)
	}
	if c, ok := evs[len(evs)-1].(ItemChanged); !ok || c.Item.Text != "abcd" {
		t.Fatalf("after a quiet frame got %v, want the text \"abcd\"", evs)
	}
	ft.end <- nil
}
