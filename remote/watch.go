package remote

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Backoff bounds of Watch's reconnection attempts: the first retry waits
// FirstRetry, each next one twice the last, at most MaxRetry.
const (
	FirstRetry = time.Second
	MaxRetry   = 30 * time.Second
)

// Clock is the time Watch waits on between attempts (chat.Clock has the
// shape; a test injects a manual one).
type Clock interface {
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realClock struct{}

func (realClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// LinkState is the master's state as Watch sees it.
type LinkState int

const (
	// Connected: the master runs (at Watch's start, and after a
	// reconnection).
	Connected LinkState = iota
	// Lost: the master ended (a dropped network, sshd restarted, ssh -O
	// exit); Watch tries again at once.
	Lost
	// Retrying: an attempt failed (Err); the next one is in Retry.
	Retrying
)

// Change is one step of the master's state.
type Change struct {
	State   LinkState
	Attempt int           // Retrying: the attempts that failed so far
	Retry   time.Duration // Retrying: the wait before the next one
	Err     error         // Lost: ssh's last line, when it said one; Retrying: the attempt's *Error
}

// Watch keeps the master up until ctx ends: it holds a sentinel session
// over the master (`ssh -T HOST -- exec cat`, its standard input left
// open), so the master's end is seen the moment it happens rather than
// at the next command; then it reconnects (Connect, in batch mode) with
// backoff (FirstRetry doubling to MaxRetry, timed by clock; the real one
// when nil) and reports every step to notify, from Watch's goroutine.
// The sentinel keeps the master busy, so ControlPersist does not end it
// while Watch runs; Close ends both.
//
// A sentinel that ended while the master still answers (ssh -O check) is
// started again without a word. The remote processes of Process commands
// that ran over a lost master are ended once reconnected (cancel.go).
// Watch returns when ctx ends.
func (c *Conn) Watch(ctx context.Context, clock Clock, notify func(Change)) {
	if clock == nil {
		clock = realClock{}
	}
	retry, failed := FirstRetry, 0
	var orphans []string // the Processes of a lost master (cancel.go)
	for ctx.Err() == nil && !c.isClosed() {
		err := c.Connect(ctx)
		if err == nil {
			c.end(orphans...)
			orphans = nil
			lost := c.sentinel(ctx, func() { notify(Change{State: Connected, Attempt: failed}) })
			retry, failed = FirstRetry, 0
			if ctx.Err() != nil || c.isClosed() {
				return
			}
			if !c.Alive(ctx) {
				orphans = c.takeProcs()
				notify(Change{State: Lost, Err: lost})
			}
			continue
		}
		if ctx.Err() != nil || c.isClosed() {
			return
		}
		failed++
		notify(Change{State: Retrying, Attempt: failed, Retry: retry, Err: err})
		if !wait(ctx, clock, retry) {
			return
		}
		retry = min(2*retry, MaxRetry)
	}
}

// wait waits d on clock, or until ctx ends (false).
func wait(ctx context.Context, clock Clock, d time.Duration) bool {
	fired := make(chan struct{})
	var once sync.Once
	stop := clock.AfterFunc(d, func() { once.Do(func() { close(fired) }) })
	select {
	case <-fired:
		return true
	case <-ctx.Done():
		stop()
		return false
	}
}

// sentinelReady is what the sentinel prints once its session runs.
const sentinelReady = "chipchat-sentinel"

// sentinel runs a session over the master that prints sentinelReady
// (then ready is called) and reads its standard input until the session
// ends (the master ended) or ctx ends; it returns ssh's last line as an
// error (nil when it said nothing).
func (c *Conn) sentinel(ctx context.Context, ready func()) error {
	cmd := c.command(ctx, append(c.sshArgs(true), "-T"), "echo "+sentinelReady+"; exec cat >/dev/null")
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	defer in.Close()
	// Pipes of our own, not exec's copying: the master holds its
	// sessions' descriptors and may close them after the client ended.
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return err
	}
	var wg sync.WaitGroup
	var stderr bytes.Buffer
	wg.Add(2)
	go func() {
		defer wg.Done()
		// A login banner or a chatty shell may print first.
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) == sentinelReady {
				ready()
				break
			}
		}
		_, _ = io.Copy(io.Discard, outR)
	}()
	go func() {
		defer wg.Done()
		_, _ = io.Copy(&stderr, io.LimitReader(errR, 64<<10))
	}()
	_ = cmd.Wait()
	outR.Close()
	errR.Close()
	wg.Wait()
	if l := lastLine(stderr.Bytes()); l != "" {
		return errors.New(l)
	}
	return nil
}

func (c *Conn) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}
