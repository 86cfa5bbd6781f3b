package tty

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
)

// DefaultInterval is the shortest time between two frames: 60 a second.
const DefaultInterval = time.Second / 60

// Options are a Terminal's settings; the zero value is usable.
type Options struct {
	Profile  colorprofile.Profile // the colours the terminal shows (zero: TrueColor)
	Interval time.Duration        // the shortest time between two frames (zero: DefaultInterval)
	// OnResize is told the new size after SIGWINCH (or after Resume, if the
	// size changed meanwhile), from a goroutine of its own.
	OnResize func(cols, rows int)
	// Out is where the bytes go (nil: the output file); the key trace
	// wraps the file here to see when frames are written.
	Out io.Writer
}

// Terminal is the process's terminal while the app runs: raw mode, the
// modes Painter.Start sets, and the frames, written by one goroutine.
type Terminal struct {
	in, out  *os.File
	w        io.Writer
	interval time.Duration
	onResize func(cols, rows int)

	wmu   sync.Mutex // one write at a time on w; guards p and saved
	p     *Painter
	saved *term.State // the input's state before raw mode (nil: not raw)

	mu       sync.Mutex // guards what follows
	pending  string
	modes    Modes
	dirty    bool // pending is not written yet
	urgent   bool // pending answers input: written at once, not held for the interval
	released bool // another program has the terminal: frames wait

	kick     chan struct{}
	sigs     chan os.Signal
	done     chan struct{}
	loopDone chan struct{}
	close    sync.Once
}

// Open takes the terminal over: in (the keyboard) goes to raw mode, out
// to the alternate screen with the modes the app needs. Close gives it
// back.
func Open(in, out *os.File, o Options) (*Terminal, error) {
	cols, rows, err := term.GetSize(out.Fd())
	if err != nil {
		return nil, fmt.Errorf("the terminal's size: %w", err)
	}
	if o.Profile == 0 {
		o.Profile = colorprofile.TrueColor
	}
	t := &Terminal{
		in: in, out: out, w: o.Out, interval: o.Interval, onResize: o.OnResize,
		p:    NewPainter(cols, rows, o.Profile),
		kick: make(chan struct{}, 1), sigs: make(chan os.Signal, 1),
		done: make(chan struct{}), loopDone: make(chan struct{}),
	}
	if t.w == nil {
		t.w = out
	}
	if t.interval <= 0 {
		t.interval = DefaultInterval
	}
	t.wmu.Lock()
	err = t.takeLocked()
	t.wmu.Unlock()
	if err != nil {
		return nil, err
	}
	signal.Notify(t.sigs, syscall.SIGWINCH)
	go t.watchSize()
	go t.loop()
	active.Store(t)
	return t, nil
}

// takeLocked puts the input in raw mode and writes Start.
func (t *Terminal) takeLocked() error {
	saved, err := term.MakeRaw(t.in.Fd())
	if err != nil {
		return fmt.Errorf("raw mode: %w", err)
	}
	t.saved = saved
	_, err = t.w.Write(t.p.Start())
	return err
}

// giveLocked writes Stop and restores the input's state.
func (t *Terminal) giveLocked() error {
	_, werr := t.w.Write(t.p.Stop())
	var rerr error
	if t.saved != nil {
		rerr = term.Restore(t.in.Fd(), t.saved)
		t.saved = nil
	}
	return errors.Join(werr, rerr)
}

// Size is the screen's size.
func (t *Terminal) Size() (cols, rows int) {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	return t.p.Size()
}

// Frame hands the writer the app's latest frame and returns at once: it
// does no I/O and costs no more than comparing content with the frame
// before. Frames handed faster than the interval are coalesced: the last
// one is written. A frame that answers input (a key, a click, a paste:
// input true) is written as soon as it is handed, not held for the
// interval, so a key typed while a reply streams is drawn as fast as an
// idle one.
func (t *Terminal) Frame(content string, m Modes, input bool) {
	t.mu.Lock()
	if content == t.pending && m == t.modes {
		t.mu.Unlock()
		return
	}
	t.pending, t.modes, t.dirty = content, m, true
	t.urgent = t.urgent || input
	t.mu.Unlock()
	select {
	case t.kick <- struct{}{}:
	default:
	}
}

// Raw writes s (a bell, a notification, an OSC 52 copy) to the terminal
// now, between frames. It blocks while a frame is written.
func (t *Terminal) Raw(s string) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	_, err := io.WriteString(t.w, s)
	return err
}

// loop writes the frames: when kicked, at most one per interval.
func (t *Terminal) loop() {
	defer close(t.loopDone)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var last time.Time
	for {
		select {
		case <-t.kick:
		case <-t.done:
			return
		}
		if wait := t.interval - time.Since(last); wait > 0 && !t.isUrgent() {
			timer.Reset(wait)
		wait:
			for {
				select {
				case <-timer.C:
					break wait
				case <-t.kick:
					if t.isUrgent() {
						timer.Stop()
						break wait
					}
				case <-t.done:
					return
				}
			}
		}
		t.mu.Lock()
		if !t.dirty || t.released {
			t.mu.Unlock()
			continue
		}
		content, m := t.pending, t.modes
		t.dirty, t.urgent = false, false
		t.mu.Unlock()
		t.wmu.Lock()
		if b := t.p.Frame(content, m); len(b) > 0 {
			_, _ = t.w.Write(b) // a terminal gone is a SIGHUP, which quits
			last = time.Now()
		}
		t.wmu.Unlock()
	}
}

// isUrgent says whether a frame answering input waits.
func (t *Terminal) isUrgent() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.dirty && t.urgent
}

// watchSize follows SIGWINCH.
func (t *Terminal) watchSize() {
	for {
		select {
		case <-t.sigs:
			t.checkSize()
		case <-t.done:
			return
		}
	}
}

// checkSize reads the size and, if it changed, has the next frame repaint
// everything and tells OnResize.
func (t *Terminal) checkSize() {
	cols, rows, err := term.GetSize(t.out.Fd())
	if err != nil {
		return
	}
	t.wmu.Lock()
	oc, or := t.p.Size()
	changed := oc != cols || or != rows
	if changed {
		t.p.Resize(cols, rows)
	}
	t.wmu.Unlock()
	if !changed {
		return
	}
	// The last frame is painted again at the new size even if the app's
	// next one is the same text (the terminal reflowed what it showed).
	t.mu.Lock()
	t.dirty = t.pending != "" || t.dirty
	t.mu.Unlock()
	select {
	case t.kick <- struct{}{}:
	default:
	}
	if t.onResize != nil {
		t.onResize(cols, rows)
	}
}

// Release gives the terminal to another program (an editor, a pager):
// the main screen back, cooked mode, frames held until Resume.
func (t *Terminal) Release() error {
	t.mu.Lock()
	t.released = true
	t.mu.Unlock()
	t.wmu.Lock()
	defer t.wmu.Unlock()
	return t.giveLocked()
}

// Resume takes the terminal back after Release and repaints the whole
// last frame (telling OnResize first if the size changed meanwhile).
func (t *Terminal) Resume() error {
	t.wmu.Lock()
	err := t.takeLocked()
	t.wmu.Unlock()
	t.checkSize()
	t.mu.Lock()
	t.released, t.dirty = false, true
	t.mu.Unlock()
	select {
	case t.kick <- struct{}{}:
	default:
	}
	return err
}

// Close writes the last frame handed, then gives the terminal back as
// Open found it. It may be called more than once.
func (t *Terminal) Close() error {
	var err error
	t.close.Do(func() {
		active.CompareAndSwap(t, nil)
		signal.Stop(t.sigs)
		close(t.done)
		<-t.loopDone
		t.mu.Lock()
		content, m, dirty, released := t.pending, t.modes, t.dirty, t.released
		t.mu.Unlock()
		t.wmu.Lock()
		defer t.wmu.Unlock()
		if dirty && !released {
			if b := t.p.Frame(content, m); len(b) > 0 {
				_, _ = t.w.Write(b)
			}
		}
		err = t.giveLocked()
	})
	return err
}
