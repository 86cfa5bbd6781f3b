package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
)

// ptyRun is the real binary on a pty of its own (no tmux between), with
// every read of its output timed.
type ptyRun struct {
	t    *testing.T
	pty  *os.File
	mu   sync.Mutex
	out  []byte
	ends []time.Time // when each read came
}

func startPty(t *testing.T, args ...string) *ptyRun {
	t.Helper()
	root := t.TempDir()
	proj, home := filepath.Join(root, "proj"), filepath.Join(root, "home")
	for _, d := range []string{proj, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(chipchatBinary(t), append([]string{"--data-dir", filepath.Join(root, "data")}, args...)...)
	cmd.Dir = proj
	cmd.Env = []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "TERM=xterm-256color", "PATH=" + os.Getenv("PATH")}
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{t: t, pty: f}
	done := make(chan struct{})
	go func() {
		defer close(done)
		b := make([]byte, 1<<16)
		for {
			n, err := f.Read(b)
			if n > 0 {
				r.mu.Lock()
				r.out = append(r.out, b[:n]...)
				r.ends = append(r.ends, time.Now())
				r.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = f.Close()
		<-done
	})
	return r
}

// waitText polls until the output, stripped of escapes, holds want.
func (r *ptyRun) waitText(want string) {
	r.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		r.mu.Lock()
		ok := strings.Contains(ansi.Strip(string(r.out)), want)
		r.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the output never showed %q", want)
		}
		time.Sleep(20 * time.Millisecond) // the polling pace
	}
}

// waitQuiet polls until nothing was written for quiet, and returns the
// number of reads so far.
func (r *ptyRun) waitQuiet(quiet time.Duration) int {
	r.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		r.mu.Lock()
		n := len(r.ends)
		last := time.Time{}
		if n > 0 {
			last = r.ends[n-1]
		}
		r.mu.Unlock()
		if time.Since(last) >= quiet {
			return n
		}
		if time.Now().After(deadline) {
			r.t.Fatal("the output never went quiet")
		}
		time.Sleep(quiet / 4) // the polling pace
	}
}

// frames counts the frames among reads from..to: a frame is one write of
// the renderer, so a run of reads closer than a few milliseconds together
// (a big write read in pieces) is one; frames are a frame interval
// (16.7 ms at 60 fps) apart at least.
func (r *ptyRun) frames(from, to int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for i := from; i < to; i++ {
		if i == from || r.ends[i].Sub(r.ends[i-1]) > 5*time.Millisecond {
			n++
		}
	}
	return n
}

// One key, one frame: 300 keys typed two frame intervals apart or more
// (40 ms) make at most 330 frames on the pty, and with nothing typed
// nothing is written.
func TestEndToEndOneFramePerKey(t *testing.T) {
	r := startPty(t)
	r.waitText("enter send")
	start := r.waitQuiet(500 * time.Millisecond)
	const keys = 300
	for i := range keys {
		c := byte('a' + i%26)
		if i%20 == 19 {
			c = ' '
		}
		if _, err := r.pty.Write([]byte{c}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(40 * time.Millisecond) // the typing pace, two frame intervals and more
	}
	end := r.waitQuiet(500 * time.Millisecond)
	n := r.frames(start, end)
	t.Logf("%d keys, %d frames written (%d reads)", keys, n, end-start)
	if n > keys*11/10 {
		t.Fatalf("%d frames for %d keys: more than 1.1 a key", n, keys)
	}
	if n < keys*8/10 {
		t.Fatalf("only %d frames for %d keys: the harness does not see the frames", n, keys)
	}
	time.Sleep(1500 * time.Millisecond) // idle: nothing moves, nothing is drawn
	if idle := r.waitQuiet(0) - end; idle != 0 {
		t.Fatalf("%d writes to the terminal in 1.5 s with nothing moving", idle)
	}
}
