package transcript

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/message"
)

// Streaming per chunk, at the sizes users reach (issue 24): a reply
// streamed in 2 KB and in 16 KB chunks, a frame per chunk (the app draws
// at most one per frame interval, so this is the most frames a stream
// costs), to 1.6 MB and to 16 MB. cpu-ns/B is the process's CPU time (the
// collector's included) per byte streamed; profile with
// go test -run '^$' -bench StreamChunks -cpuprofile cpu.prof ./transcript/.

// rusageCPU is the process's CPU time, user and system.
func rusageCPU(tb testing.TB) time.Duration {
	tb.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// streamChunks streams full[from:to] into a in chunks of step bytes, a
// frame each.
func streamChunks(a *streamingApp, full string, from, to, step int) {
	for n := from + step; n <= to; n += step {
		a.chunk(full[:n])
	}
}

func BenchmarkStreamChunks(b *testing.B) {
	texts := map[int]string{}
	for _, sz := range []struct {
		name string
		n    int
	}{{"1.6MB", 1600 << 10}, {"16MB", 16 << 20}} {
		for _, step := range []int{2 << 10, 16 << 10} {
			b.Run(fmt.Sprintf("%s/%dKB", sz.name, step>>10), func(b *testing.B) {
				full, ok := texts[sz.n]
				if !ok {
					full = benchReply(sz.n)
					texts[sz.n] = full
				}
				b.ReportAllocs()
				var cpu time.Duration
				for b.Loop() {
					b.StopTimer()
					a := newStreamingApp(b)
					c0 := rusageCPU(b)
					b.StartTimer()
					streamChunks(a, full, 0, len(full), step)
					b.StopTimer()
					cpu += rusageCPU(b) - c0
					b.StartTimer()
				}
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(len(full)), "cpu-ns/B")
				b.ReportMetric(float64(cpu.Microseconds())/float64(b.N)/float64(len(full)/step), "cpu-µs/chunk")
			})
		}
	}
}

// BenchmarkStreamOpenBlock: one op is one 2 KB chunk and its frame, late
// in a 1.6 MB reply; "full" draws the open block through glamour every
// frame, as a reply no longer streaming does (the path before issue 24).
func BenchmarkStreamOpenBlock(b *testing.B) {
	const step = 2 << 10
	base := 1600 << 10
	full := benchReply(base + 2000*step)
	for _, mode := range []struct {
		name   string
		status message.Status
	}{{"cheap", message.StatusStreaming}, {"full", message.StatusDone}} {
		b.Run(mode.name, func(b *testing.B) {
			a := newStreamingApp(b)
			a.m.SetStatus("r", mode.status)
			a.chunk(full[:base])
			n := base
			b.ReportAllocs()
			for b.Loop() {
				if n+step > len(full) {
					b.StopTimer()
					a = newStreamingApp(b)
					a.m.SetStatus("r", mode.status)
					a.chunk(full[:base])
					n = base
					b.StartTimer()
				}
				n += step
				a.chunk(full[:n])
			}
		})
	}
}
