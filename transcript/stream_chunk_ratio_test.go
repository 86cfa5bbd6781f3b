//go:build !race

package transcript

import (
	"fmt"
	"testing"

	"github.com/chipchat/chipchat/message"
)

// Issue 24's streaming claims, each side measured in the same run (CPU
// time, cheapest of several interleaved runs: see stream_ratio_test.go).

// TestStreamChunkFlat: a 2 KB chunk and its frame late in a 16 MB reply
// (past the shown bound: the head, the elision, the tail) costs at most
// twice one early in it, at 64 KB.
func TestStreamChunkFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("measures CPU time for seconds")
	}
	const step, chunks = 2 << 10, 24
	early, late := 64<<10, 16<<20-chunks*step
	full := benchReply(16 << 20)
	side := func(n int) func() func() {
		return func() func() {
			a := newStreamingApp(t)
			a.fillsScreen(a.chunk(full[:n]), fmt.Sprintf("%d KB reply", n>>10))
			return func() { streamChunks(a, full, n, n+chunks*step, step) }
		}
	}
	best := cheapest(t, 5, side(early), side(late))
	ce, cl := best[0]/chunks, best[1]/chunks
	ratio := float64(cl) / float64(ce)
	t.Logf("2 KB chunk + frame at %d×%d: at 64 KB %v, at 16 MB %v: ratio %.2f (bound 2)", ratioW, ratioH, ce, cl, ratio)
	if ratio > 2 {
		t.Errorf("a chunk late in a 16 MB reply costs %.2f× one early in it (%v vs %v), more than 2×", ratio, cl, ce)
	}
}

// TestStreamOpenBlockCheap: while a reply streams, a chunk and its frame
// cost at most a third of drawing the same growing text through glamour
// each frame, as a reply that is not streaming is drawn (its open block
// and every completed block it reaches rendered in full).
func TestStreamOpenBlockCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("measures CPU time for seconds")
	}
	const step, chunks = 2 << 10, 48
	base := 400 << 10
	full := benchReply(base + chunks*step)
	side := func(status message.Status) func() func() {
		return func() func() {
			a := newStreamingApp(t)
			a.m.SetStatus("r", status)
			a.fillsScreen(a.chunk(full[:base]), string(status))
			return func() { streamChunks(a, full, base, base+chunks*step, step) }
		}
	}
	best := cheapest(t, 5, side(message.StatusStreaming), side(message.StatusDone))
	cs, cf := best[0]/chunks, best[1]/chunks
	ratio := float64(cs) / float64(cf)
	t.Logf("2 KB chunk + frame at 400 KB: streaming (cheap open block) %v, drawn in full %v: ratio %.2f (bound 0.33)", cs, cf, ratio)
	if ratio > 0.33 {
		t.Errorf("a streaming chunk costs %.2f× one drawn in full (%v vs %v), more than a third", ratio, cs, cf)
	}
}
