//go:build !race

package review

import "testing"

// TestNewRowsCheap checks ratios (so not under -race, which changes costs
// unevenly) of a PageDown over rows never drawn (the 20,000-line diff's
// walk: its rows outnumber the cache) to a PageDown over rows drawn before
// (the 2,000-line diff's, all cached after the first pass): painting a
// screen of new rows costs a bounded multiple of the frame around them.
// The allocations (exact, whatever the machine's load) at most 8×: with a
// string and a boxed colour per token they were 20×, then 5× (350 and
// 68), now 46 and 7 (a string a row; the frame written in one string).
// The CPU at most 24×, a guard against gross regressions: it was 18× on a
// quiet machine when a row cost a string per token, then 6×; the frame
// around the rows then got cheaper faster than the rows (a PageDown over
// drawn rows 38 → 13 µs, over new rows 220 → 145 µs), so now 11–15×.
// Each side the best of three runs taken in turn.
func TestNewRowsCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks")
	}
	bench := func(n int) testing.BenchmarkResult {
		return testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			benchScroll(b, sizedPane(b, n), "pgdown")
		})
	}
	var drawn, fresh testing.BenchmarkResult
	for range 3 {
		if d := bench(2); drawn.N == 0 || d.NsPerOp() < drawn.NsPerOp() {
			drawn = d
		}
		if f := bench(20); fresh.N == 0 || f.NsPerOp() < fresh.NsPerOp() {
			fresh = f
		}
	}
	cpu := float64(fresh.NsPerOp()) / float64(max(drawn.NsPerOp(), 1))
	allocs := float64(fresh.AllocsPerOp()) / float64(max(drawn.AllocsPerOp(), 1))
	t.Logf("PageDown over drawn rows %v ns, %d allocs; over new rows %v ns, %d allocs: %.2f× CPU, %.2f× allocations",
		drawn.NsPerOp(), drawn.AllocsPerOp(), fresh.NsPerOp(), fresh.AllocsPerOp(), cpu, allocs)
	if allocs > 8 {
		t.Errorf("a PageDown over new rows allocates %.2f× what one over drawn rows does", allocs)
	}
	if cpu > 24 {
		t.Errorf("a PageDown over new rows costs %.2f× the CPU of one over drawn rows", cpu)
	}
}
