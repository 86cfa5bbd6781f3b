package chat

import (
	"sort"
	"sync"
	"time"
)

// Clock is the time chat uses: when to flush a growing reply, how long a
// quit or a cancel may wait. Tests inject a ManualClock.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed; stop
	// prevents that if it has not happened yet.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realClock struct{}

// SystemClock is the machine's clock: the Clock used when none is given.
var SystemClock Clock = realClock{}

func (realClock) Now() time.Time { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// ManualClock is a Clock that moves only when told to: Advance runs the
// timers that come due, in order, before it returns.
type ManualClock struct {
	mu     sync.Mutex
	now    time.Time
	seq    int
	timers map[int]manualTimer
	armed  chan struct{} // closed (and replaced) when a timer is scheduled
}

type manualTimer struct {
	at time.Time
	f  func()
}

// NewManualClock starts at t.
func NewManualClock(t time.Time) *ManualClock {
	return &ManualClock{now: t, timers: map[int]manualTimer{}, armed: make(chan struct{})}
}

// Now is the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f at Now()+d.
func (c *ManualClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	id := c.seq
	c.timers[id] = manualTimer{at: c.now.Add(d), f: f}
	close(c.armed)
	c.armed = make(chan struct{})
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.timers[id]
		delete(c.timers, id)
		return ok
	}
}

// Armed is closed when a timer is next scheduled (AfterFunc): a test waits
// on it for code in another goroutine to arm its timer, instead of polling.
func (c *ManualClock) Armed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.armed
}

// Pending is how many timers are waiting.
func (c *ManualClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// Advance moves the clock by d, running (synchronously, in time order) the
// timers due by then, including ones they schedule.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		ids := make([]int, 0, len(c.timers))
		for id, t := range c.timers {
			if !t.at.After(end) {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			c.now = end
			c.mu.Unlock()
			return
		}
		sort.Slice(ids, func(i, j int) bool {
			a, b := c.timers[ids[i]], c.timers[ids[j]]
			return a.at.Before(b.at) || a.at.Equal(b.at) && ids[i] < ids[j]
		})
		t := c.timers[ids[0]]
		delete(c.timers, ids[0])
		if t.at.After(c.now) {
			c.now = t.at
		}
		c.mu.Unlock()
		t.f()
	}
}
