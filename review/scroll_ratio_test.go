//go:build !race

package review

import "testing"

// TestScrollStepCheap checks a ratio (so not under -race, which changes costs unevenly): a scroll step
// costs at least 50 times less than rendering the whole diff.
func TestScrollStepCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks")
	}
	whole := testing.Benchmark(BenchmarkReviewWholeRender)
	step := testing.Benchmark(BenchmarkReviewScroll)
	ratio := float64(whole.NsPerOp()) / float64(max(step.NsPerOp(), 1))
	t.Logf("whole render %v/op, scroll step %v/op: %.0f×", whole.NsPerOp(), step.NsPerOp(), ratio)
	if ratio < 50 {
		t.Fatalf("a scroll step is only %.1f× cheaper than the whole render", ratio)
	}
}
