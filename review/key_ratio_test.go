//go:build !race

package review

import "testing"

// TestKeyCheap checks what a j costs (not under -race, which changes
// costs unevenly). Its allocations, exact whatever the machine's load:
// over rows drawn before (the 200-line diff's walk: every row cached) at
// most 4, on the 20,000-line diff (a row or two never drawn a key) at
// most 12. When View made a string a line, joined them and drew the help
// line again each frame they were 61 and about 80; now 2 and 4–7 (the
// frame, and the new rows). And its CPU on the 20,000-line diff at most
// 2.5× the CPU on the 200-line diff (now 1.1–1.8×): a j costs the rows it
// draws, not the diff. Each side the best of three runs taken in turn.
func TestKeyCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks")
	}
	best := func(cur *testing.BenchmarkResult, m func(testing.TB) *Model) {
		r := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			benchScroll(b, m(b), "j")
		})
		if cur.N == 0 || r.NsPerOp() < cur.NsPerOp() {
			*cur = r
		}
	}
	var small, big testing.BenchmarkResult
	for range 3 {
		best(&small, smallPane)
		best(&big, bigPane)
	}
	ratio := float64(big.NsPerOp()) / float64(max(small.NsPerOp(), 1))
	t.Logf("j, 200 lines: %v ns, %d allocs; j, 20,000 lines: %v ns, %d allocs: %.2f×",
		small.NsPerOp(), small.AllocsPerOp(), big.NsPerOp(), big.AllocsPerOp(), ratio)
	if n := small.AllocsPerOp(); n > 4 {
		t.Errorf("a j over drawn rows allocates %d times", n)
	}
	if n := big.AllocsPerOp(); n > 12 {
		t.Errorf("a j on the 20,000-line diff allocates %d times", n)
	}
	if ratio > 2.5 {
		t.Errorf("a j on the 20,000-line diff costs %.2f× one on the 200-line diff", ratio)
	}
}
