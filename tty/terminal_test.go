package tty

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// sink records what the Terminal writes, and wakes who waits for it.
type sink struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
	ch     chan struct{}
}

func newSink() *sink { return &sink{ch: make(chan struct{}, 1)} }

func (s *sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.b.Write(p)
	s.writes++
	s.mu.Unlock()
	select {
	case s.ch <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (s *sink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits (bounded) until the output holds sub.
func (s *sink) waitFor(t *testing.T, sub string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !strings.Contains(s.String(), sub) {
		select {
		case <-s.ch:
		case <-deadline:
			t.Fatalf("never written: %q; got %q", sub, s.String())
		}
	}
}

// openPty opens a Terminal on a pty's tty, its bytes into a sink.
func openPty(t *testing.T, o Options) (*Terminal, *sink, *os.File) {
	t.Helper()
	ptm, tt, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ptm.Close(); tt.Close() })
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 40, Rows: 5}); err != nil {
		t.Fatal(err)
	}
	s := newSink()
	o.Out = s
	tm, err := Open(tt, tt, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tm.Close() })
	return tm, s, ptm
}

// echoes says whether the tty echoes input (cooked mode does, raw not).
func echoes(t *testing.T, f *os.File) bool {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), getTermios)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&unix.ECHO != 0
}

// Raw mode while open, the input's state back after Close; the screen
// taken and given back.
func TestTerminalRawModeAndBack(t *testing.T) {
	tm, s, _ := openPty(t, Options{})
	if !Active() {
		t.Fatal("no active terminal while open")
	}
	if cols, rows := tm.Size(); cols != 40 || rows != 5 {
		t.Fatalf("size %d×%d", cols, rows)
	}
	if echoes(t, tm.in) {
		t.Fatal("not in raw mode while open")
	}
	tm.Frame("hello", Modes{}, false)
	s.waitFor(t, "hello")
	if err := tm.Close(); err != nil {
		t.Fatal(err)
	}
	if Active() {
		t.Fatal("still active after Close")
	}
	if !echoes(t, tm.in) {
		t.Fatal("raw mode outlives Close")
	}
	if !strings.HasSuffix(s.String(), "\x1b[?1049l") {
		t.Fatalf("the main screen is not back at the end: %q", s.String())
	}
	if err := tm.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}

// Frames handed faster than the interval are coalesced: the first is
// written at once, the ones in between never, the last at the end.
func TestTerminalCoalescesFrames(t *testing.T) {
	tm, s, _ := openPty(t, Options{Interval: time.Hour})
	tm.Frame("first", Modes{}, false)
	s.waitFor(t, "first")
	for _, c := range []string{"second", "third", "last"} {
		tm.Frame(c, Modes{}, false)
	}
	tm.Close()
	out := s.String()
	if strings.Contains(out, "second") || strings.Contains(out, "third") || !strings.Contains(out, "last") {
		t.Fatalf("want first and last only: %q", out)
	}
}

// Handing the same frame again writes nothing.
func TestTerminalSameFrameWritesNothing(t *testing.T) {
	tm, s, _ := openPty(t, Options{Interval: time.Nanosecond})
	tm.Frame("one", Modes{}, false)
	s.waitFor(t, "one")
	s.mu.Lock()
	n := s.writes
	s.mu.Unlock()
	for i := 0; i < 100; i++ {
		tm.Frame("one", Modes{}, false)
	}
	tm.Frame("two", Modes{}, false) // written after any the repeats caused
	s.waitFor(t, "two")
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writes != n+1 {
		t.Fatalf("%d writes for one changed frame", s.writes-n)
	}
}

// A resize is told to OnResize and repaints the whole frame.
func TestTerminalResize(t *testing.T) {
	sizes := make(chan [2]int, 4)
	tm, s, ptm := openPty(t, Options{OnResize: func(c, r int) { sizes <- [2]int{c, r} }})
	tm.Frame("one\ntwo", Modes{}, false)
	s.waitFor(t, "two")
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 50, Rows: 7}); err != nil {
		t.Fatal(err)
	}
	// The test process gets SIGWINCH only for its controlling terminal;
	// checkSize is what the signal runs.
	tm.checkSize()
	select {
	case got := <-sizes:
		if got != [2]int{50, 7} {
			t.Fatalf("OnResize %v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("OnResize not called")
	}
	before := len(s.String())
	tm.Frame("one\ntwo\nthree", Modes{}, false)
	s.waitFor(t, "three")
	if after := s.String()[before:]; !strings.Contains(after, "\x1b[2J") || !strings.Contains(after, "one") {
		t.Fatalf("not repainted whole after the resize: %q", after)
	}
}

// A program run through Command gets the terminal as it was before Open
// (main screen, mouse off, cooked mode) and the app's frame is repainted
// after.
func TestCommandReleasesAndResumes(t *testing.T) {
	tm, s, _ := openPty(t, Options{})
	tm.Frame("app frame", Modes{Mouse: true}, false)
	s.waitFor(t, "app frame")
	before := len(s.String())
	// The program (stty) says whether the tty echoes as it runs.
	var sttyOut bytes.Buffer
	prog := exec.Command("stty", "-a")
	prog.Stdin, prog.Stdout = tm.in, &sttyOut
	if err := Command(prog).Run(); err != nil {
		t.Fatal(err)
	}
	during := s.String()[before:]
	if !strings.Contains(during, "\x1b[?1049l") || !strings.Contains(during, "\x1b[?1002l") {
		t.Fatalf("the terminal was not given back for the program: %q", during)
	}
	if !strings.Contains(" "+sttyOut.String(), " echo ") {
		t.Fatalf("the program ran in raw mode: %s", sttyOut.String())
	}
	if echoes(t, tm.in) {
		t.Fatal("not raw again after the program")
	}
	for {
		out := s.String()[before:]
		if i := strings.LastIndex(out, "\x1b[?1049h"); i >= 0 && strings.Contains(out[i:], "app frame") {
			break
		}
		select {
		case <-s.ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("the frame was not repainted after the program: %q", s.String()[before:])
		}
	}
}

// A frame that answers input is not held for the interval: it goes at
// once, with whatever frame was waiting folded into it.
func TestTerminalInputFrameGoesAtOnce(t *testing.T) {
	tm, s, _ := openPty(t, Options{Interval: time.Hour})
	tm.Frame("first", Modes{}, false)
	s.waitFor(t, "first")
	tm.Frame("streamed", Modes{}, false) // held: the interval is an hour
	tm.Frame("typed", Modes{}, true)
	s.waitFor(t, "typed")
	if strings.Contains(s.String(), "streamed") {
		t.Fatalf("the held frame was written on its own: %q", s.String())
	}
}

// A resize repaints the last frame even when the app's next frame is the
// same text.
func TestTerminalResizeRepaintsTheSameFrame(t *testing.T) {
	tm, s, ptm := openPty(t, Options{})
	tm.Frame("only line", Modes{}, false)
	s.waitFor(t, "only line")
	before := len(s.String())
	if err := pty.Setsize(ptm, &pty.Winsize{Cols: 30, Rows: 3}); err != nil {
		t.Fatal(err)
	}
	tm.checkSize()
	for !strings.Contains(s.String()[before:], "only line") {
		select {
		case <-s.ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("not repainted after the resize: %q", s.String()[before:])
		}
	}
}
