//go:build !race

package transcript

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/message"
)

// The streaming cost claims of the package documentation ("a frame costs
// the open block, not the reply"), each measured on both sides in the same
// run, in CPU time. Each side is measured several times, interleaved with
// the other, and its cheapest run is kept: on a shared machine the
// neighbours only ever add to a run. The bounds leave room for that noise;
// what they catch is a cost that grows with the reply.

// processCPU is the process's CPU time, user and system, every thread:
// the garbage collector's work on the measured code's behalf counts too.
func processCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuOf is the CPU time run takes, the garbage of what came before
// collected first so that it is not charged to run.
func cpuOf(t *testing.T, run func()) time.Duration {
	t.Helper()
	runtime.GC()
	t0 := processCPU(t)
	run()
	return processCPU(t) - t0
}

// cheapest measures each side reps times, interleaved, and returns the
// cheapest run of each. A side is a setup (not measured) returning the run
// to measure.
func cheapest(t *testing.T, reps int, sides ...func() func()) []time.Duration {
	t.Helper()
	best := make([]time.Duration, len(sides))
	for r := 0; r < reps; r++ {
		for k, side := range sides {
			d := cpuOf(t, side())
			if r == 0 || d < best[k] {
				best[k] = d
			}
		}
	}
	return best
}

// TestStreamFrameRatio: a frame (one streamed chunk appended, then View)
// of a 1.6 MB reply costs at most twice a frame of a 64 KB reply.
func TestStreamFrameRatio(t *testing.T) {
	if testing.Short() {
		t.Skip("measures CPU time for seconds")
	}
	const chunk, frames = 64, 256
	small, big := 64<<10, 1600<<10
	full := benchReply(big + chunk*frames)
	side := func(n int) func() func() {
		return func() func() {
			a := newStreamingApp(t)
			a.fillsScreen(a.chunk(full[:n]), fmt.Sprintf("%d KB reply", n>>10))
			return func() {
				for k := 1; k <= frames; k++ {
					a.chunk(full[:n+k*chunk])
				}
			}
		}
	}
	best := cheapest(t, 7, side(small), side(big))
	fs, fb := best[0]/frames, best[1]/frames
	ratio := float64(fb) / float64(fs)
	t.Logf("frame (%d-byte chunk + View at %d×%d): 64 KB reply %v, 1.6 MB reply %v: ratio %.2f (bound 2)",
		chunk, ratioW, ratioH, fs, fb, ratio)
	if ratio > 2 {
		t.Errorf("a frame of a 1.6 MB reply costs %.2f× one of a 64 KB reply (%v vs %v), more than 2×", ratio, fb, fs)
	}
}

// TestStreamFenceRatio: a code fence growing to 200 KB in 2 KB steps: a
// frame at its end costs at most twice a frame at its start.
func TestStreamFenceRatio(t *testing.T) {
	if testing.Short() {
		t.Skip("measures CPU time for seconds")
	}
	const step, frames = 2 << 10, 8
	const size = 200 << 10
	full, code := fenceReply(size)
	side := func(from int) func() func() {
		return func() func() {
			a := newStreamingApp(t)
			f := a.chunk(full[:code+from])
			a.fillsScreen(f, fmt.Sprintf("fence at %d KB", from>>10))
			if !strings.Contains(ansi.Strip(f), "lookup(ctx") {
				t.Fatalf("the fence is not on screen:\n%s", ansi.Strip(f))
			}
			return func() {
				for k := 1; k <= frames; k++ {
					a.chunk(full[:code+from+k*step])
				}
			}
		}
	}
	// The start: the first steps once the fence fills the screen; the
	// end: the last steps to 200 KB.
	start, end := 2*step, size-frames*step
	best := cheapest(t, 7, side(start), side(end))
	fs, fe := best[0]/frames, best[1]/frames
	ratio := float64(fe) / float64(fs)
	t.Logf("fence frame (2 KB step + View at %d×%d): start (%d–%d KB) %v, end (%d–%d KB) %v: ratio %.2f (bound 2)",
		ratioW, ratioH, start>>10, (start+frames*step)>>10, fs, end>>10, size>>10, fe, ratio)
	if ratio > 2 {
		t.Errorf("a frame at the end of a 200 KB fence costs %.2f× one at its start (%v vs %v), more than 2×", ratio, fe, fs)
	}
}

// TestStreamTotalRatio: streaming a 1.6 MB reply in 2 KB chunks, a frame
// each, costs at most 5× streaming 400 KB (4× the bytes).
func TestStreamTotalRatio(t *testing.T) {
	if testing.Short() {
		t.Skip("measures CPU time for seconds")
	}
	const step = 2 << 10
	small, big := 400<<10, 1600<<10
	full := benchReply(big)
	side := func(n int) func() func() {
		return func() func() {
			a := newStreamingApp(t)
			return func() {
				for k := step; k <= n; k += step {
					a.chunk(full[:k])
				}
				a.m.SetStatus("r", message.StatusDone)
				a.fillsScreen(a.m.View(), fmt.Sprintf("%d KB reply", n>>10))
			}
		}
	}
	best := cheapest(t, 4, side(small), side(big))
	ratio := float64(best[1]) / float64(best[0])
	t.Logf("stream in 2 KB chunks, a View each: 400 KB %v, 1.6 MB %v: ratio %.2f (4× the bytes; bound 5)", best[0], best[1], ratio)
	if ratio > 5 {
		t.Errorf("streaming 1.6 MB costs %.2f× streaming 400 KB (%v vs %v), more than 5×", ratio, best[1], best[0])
	}
}
