package paste

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// DefaultThreshold is the largest paste handed to the program as a
// tea.PasteMsg; a longer one is streamed to Options.Store.
const DefaultThreshold = 1 << 20

var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

// markerPrefix starts the APC sequence that stands for a paste in the
// byte stream Bubble Tea reads: ESC _ "ccp" id ESC \ (at most 11 bytes,
// never more than the 12 bytes of the paste's own brackets).
const markerPrefix = "\x1b_ccp"

// ErrTooLarge is the error a refused paste's reader gives Store.
var ErrTooLarge = errors.New("paste: over the size limit")

// Options configure a Filter.
type Options struct {
	// Threshold is the largest paste passed through as a tea.PasteMsg
	// (DefaultThreshold when ≤ 0).
	Threshold int
	// Limit is the most bytes a streamed paste may have; one past it is
	// refused at once (RefusedMsg) and the rest of it dropped. ≤ 0: no
	// limit.
	Limit int64
	// Store receives a large paste's bytes as they arrive, in a goroutine
	// of its own, and returns the message for the program (delivered with
	// Send). A refused paste's reader fails with ErrTooLarge; Store's
	// message is then dropped.
	Store func(r io.Reader) tea.Msg
	// Progress is how often a ProgressMsg is sent while a large paste
	// streams (250 ms when 0).
	Progress time.Duration
	// Now is the clock for Progress (time.Now when nil).
	Now func() time.Time
}

// Messages the program receives (through Translate) for a large paste.
type (
	// StartedMsg: a paste passed the threshold and is being streamed to
	// Store.
	StartedMsg struct{ ID int }
	// ProgressMsg: Bytes of the paste received so far.
	ProgressMsg struct {
		ID    int
		Bytes int64
	}
	// RefusedMsg: the paste passed Limit after Bytes; it is dropped.
	RefusedMsg struct {
		ID           int
		Bytes, Limit int64
	}
	// EndedMsg: the paste's end arrived after Bytes (Store's result follows
	// through Send unless Refused).
	EndedMsg struct {
		ID      int
		Bytes   int64
		Refused bool
	}
)

// Filter is a terminal input for tea.WithInput that takes bracketed pastes
// off the byte stream before Bubble Tea parses them (Bubble Tea collects a
// paste into one string: a 100 MB paste would be ≥ 400 MB of runes). A
// paste up to Threshold reaches the program as a tea.PasteMsg; a longer
// one is streamed to Store as it arrives — the Filter holds at most
// Threshold bytes of it, whatever its size — and the program gets
// StartedMsg, ProgressMsg, EndedMsg (or RefusedMsg) and Store's message.
//
// Order is kept: where a paste was, the stream gets a short APC marker,
// which Bubble Tea decodes in its place among the keys; Translate (for
// tea.WithFilter) turns the marker into the paste's message.
//
// The Filter is the terminal to Bubble Tea (Fd and Name are the
// terminal's: raw mode and the cancelable reader work as on the terminal
// itself). A Read returns no more than it read and never holds back bytes
// that the terminal has delivered — except, for up to 15 ms, a trailing
// ESC that may begin a paste. Outside a large paste it reads the terminal
// once; inside one it reads on for up to 50 ms, so the paste streams
// without handing Bubble Tea an empty read every 4 KiB.
type Filter struct {
	f    *os.File
	opts Options

	mu     sync.Mutex
	msgs   map[int]tea.Msg // marker id → message
	nextID int
	send   func(tea.Msg)

	wait    func(*os.File, time.Duration) bool // waitReadable; tests wait longer
	rbuf    []byte
	carry   []byte // held bytes that may begin a bracket
	inPaste bool
	small   []byte // the paste so far, while at most Threshold
	large   *stream
}

// stream is a paste being streamed to Store.
type stream struct {
	id       int
	w        *io.PipeWriter
	n        int64
	refused  atomic.Bool // over Limit: Store's message is dropped
	gone     bool        // Store stopped reading (it says why)
	lastNote time.Time
}

// NewFilter filters the terminal f.
func NewFilter(f *os.File, opts Options) *Filter {
	if opts.Threshold <= 0 {
		opts.Threshold = DefaultThreshold
	}
	if opts.Progress <= 0 {
		opts.Progress = 250 * time.Millisecond
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Filter{f: f, opts: opts, msgs: map[int]tea.Msg{}, rbuf: make([]byte, 4096), wait: waitReadable}
}

// SetSend sets how Store's messages reach the program (tea.Program.Send).
// Until it is set they are dropped.
func (f *Filter) SetSend(send func(tea.Msg)) {
	f.mu.Lock()
	f.send = send
	f.mu.Unlock()
}

// Fd is the terminal's file descriptor.
func (f *Filter) Fd() uintptr { return f.f.Fd() }

// Name is the terminal's name.
func (f *Filter) Name() string { return f.f.Name() }

// Write writes to the terminal.
func (f *Filter) Write(p []byte) (int, error) { return f.f.Write(p) }

// Close leaves the terminal open (it is the process's standard input).
func (f *Filter) Close() error { return nil }

// Translate is the tea.WithFilter function: a paste marker becomes its
// message; everything else passes.
func (f *Filter) Translate(_ tea.Model, msg tea.Msg) tea.Msg {
	ev, ok := msg.(uv.UnknownApcEvent)
	if !ok || !strings.HasPrefix(string(ev), markerPrefix) {
		return msg
	}
	id, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(string(ev), markerPrefix), "\x1b\\"), 36, 32)
	if err != nil {
		return msg
	}
	f.mu.Lock()
	m, ok := f.msgs[int(id)]
	delete(f.msgs, int(id))
	f.mu.Unlock()
	if !ok {
		return nil
	}
	return m
}

// marker queues msg and returns the bytes that stand for it.
func (f *Filter) marker(msg tea.Msg) []byte {
	f.mu.Lock()
	f.nextID = (f.nextID + 1) % (36 * 36 * 36 * 36)
	id := f.nextID
	f.msgs[id] = msg
	f.mu.Unlock()
	return []byte(markerPrefix + strconv.FormatInt(int64(id), 36) + "\x1b\\")
}

// streamSlice is how long one Read goes on reading a large paste.
const streamSlice = 50 * time.Millisecond

// maxExtra bounds what a Read adds to the bytes it read (markers for a
// large paste's start, progress or refusal and end).
const maxExtra = 64

// Read reads the terminal once and returns what passes, markers in place
// of pastes.
func (f *Filter) Read(p []byte) (int, error) {
	room := len(p) - maxExtra - len(pasteStart)
	if room < 1 {
		room = 1
	}
	room = min(room, len(f.rbuf))
	n, err := f.f.Read(f.rbuf[:room])
	if n == 0 {
		return 0, err
	}
	out := f.feed(p[:0], f.rbuf[:n])
	// While a large paste streams and nothing is to be returned, read on
	// (the terminal is still sending it) for up to streamSlice, rather than
	// return empty reads to Bubble Tea 4 KiB at a time.
	for start := time.Now(); f.large != nil && len(out) == 0 && time.Since(start) < streamSlice; {
		m, err := f.f.Read(f.rbuf[:room])
		if m == 0 {
			if err != nil {
				return 0, err
			}
			break
		}
		out = f.feed(out, f.rbuf[:m])
	}
	// A trailing ESC (or more of a bracket) outside a paste: wait briefly
	// for the rest rather than hold it until the next key. (A bracket
	// split by a longer pause passes to Bubble Tea, which reads that paste
	// itself: terminals write the bracket and the paste at once.)
	for len(f.carry) > 0 && !f.inPaste && room-len(out) > len(pasteStart) {
		if !f.wait(f.f, 15*time.Millisecond) {
			out = append(out, f.carry...)
			f.carry = f.carry[:0]
			break
		}
		m, err := f.f.Read(f.rbuf[:room-len(out)])
		if m == 0 {
			out = append(out, f.carry...)
			f.carry = f.carry[:0]
			if err != nil {
				return len(out), nil
			}
			break
		}
		out = f.feed(out, f.rbuf[:m])
	}
	if len(f.carry) > 0 && !f.inPaste {
		// No room left to read the rest: pass it rather than hold it.
		out = append(out, f.carry...)
		f.carry = f.carry[:0]
	}
	copy(p, out)
	return len(out), nil
}

// feed runs bytes just read through the filter, appending what passes to
// out. It never holds more than len(pasteStart)-1 bytes in carry.
func (f *Filter) feed(out, in []byte) []byte {
	if len(f.carry) > 0 {
		in = append(f.carry, in...) // carry is short; in is a copy only then
		f.carry = nil
	}
	for len(in) > 0 {
		if !f.inPaste {
			i := bytes.Index(in, pasteStart)
			if i < 0 {
				k := partialSuffix(in, pasteStart)
				out = append(out, in[:len(in)-k]...)
				f.carry = append([]byte(nil), in[len(in)-k:]...)
				return out
			}
			out = append(out, in[:i]...)
			in = in[i+len(pasteStart):]
			f.inPaste = true
			f.small = f.small[:0]
			continue
		}
		i := bytes.Index(in, pasteEnd)
		body := in
		k := 0
		if i >= 0 {
			body = in[:i]
		} else {
			k = partialSuffix(in, pasteEnd)
			body = in[:len(in)-k]
		}
		out = f.content(out, body)
		if i < 0 {
			f.carry = append([]byte(nil), in[len(in)-k:]...)
			return out
		}
		in = in[i+len(pasteEnd):]
		out = f.end(out)
	}
	return out
}

// content takes bytes of the paste being read.
func (f *Filter) content(out, b []byte) []byte {
	if len(b) == 0 {
		return out
	}
	if f.large == nil {
		if len(f.small)+len(b) <= f.opts.Threshold || f.opts.Store == nil {
			f.small = append(f.small, b...)
			return out
		}
		out = f.startLarge(out)
	}
	s := f.large
	s.n += int64(len(b))
	if s.refused.Load() || s.gone {
		return out
	}
	if f.opts.Limit > 0 && s.n > f.opts.Limit {
		s.refused.Store(true)
		s.w.CloseWithError(ErrTooLarge)
		return append(out, f.marker(RefusedMsg{ID: s.id, Bytes: s.n, Limit: f.opts.Limit})...)
	}
	if _, err := s.w.Write(b); err != nil {
		// Store gave up (its own limit, a disk error): it reports why in
		// its message; the rest of the paste is dropped.
		s.gone = true
		return out
	}
	if now := f.opts.Now(); now.Sub(s.lastNote) >= f.opts.Progress {
		s.lastNote = now
		out = append(out, f.marker(ProgressMsg{ID: s.id, Bytes: s.n})...)
	}
	return out
}

// startLarge hands the paste so far to Store and streams the rest.
func (f *Filter) startLarge(out []byte) []byte {
	r, w := io.Pipe()
	f.mu.Lock()
	f.nextID = (f.nextID + 1) % (36 * 36 * 36 * 36)
	id := f.nextID
	f.mu.Unlock()
	s := &stream{id: id, w: w, lastNote: f.opts.Now()}
	f.large = s
	store := f.opts.Store
	go func() {
		msg := store(r)
		r.CloseWithError(io.ErrClosedPipe) // unblock a writer if Store stopped reading early
		f.mu.Lock()
		send := f.send
		f.mu.Unlock()
		if send != nil && msg != nil && !s.refused.Load() {
			send(msg)
		}
	}()
	out = append(out, f.marker(StartedMsg{ID: id})...)
	head := f.small
	f.small = nil
	s.n = int64(len(head))
	if _, err := w.Write(head); err != nil {
		s.gone = true
	}
	return out
}

// end is a paste's closing bracket.
func (f *Filter) end(out []byte) []byte {
	f.inPaste = false
	if s := f.large; s != nil {
		f.large = nil
		refused := s.refused.Load()
		if !refused && !s.gone {
			s.w.Close()
		}
		return append(out, f.marker(EndedMsg{ID: s.id, Bytes: s.n, Refused: refused})...)
	}
	text := strings.ToValidUTF8(string(f.small), "")
	f.small = f.small[:0]
	if cap(f.small) > 64<<10 {
		f.small = nil // do not keep a large buffer for the next paste
	}
	return append(out, f.marker(tea.PasteMsg{Content: text})...)
}

// partialSuffix is the length of the longest proper prefix of marker that
// b ends with.
func partialSuffix(b, marker []byte) int {
	for k := min(len(marker)-1, len(b)); k > 0; k-- {
		if bytes.Equal(b[len(b)-k:], marker[:k]) {
			return k
		}
	}
	return 0
}
