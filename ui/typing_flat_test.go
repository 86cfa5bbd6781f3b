//go:build !race

package ui

import (
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/store"
)

// cpuNow is the process's CPU time (every goroutine: the save commands'
// serializing and writing too); threadCPU the calling thread's.
func cpuNow(t *testing.T) time.Duration { return rusage(t, syscall.RUSAGE_SELF) }

func threadCPU(t *testing.T) time.Duration { return rusage(t, 1 /* RUSAGE_THREAD */) }

func rusage(t *testing.T, who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Typing is flat (issue 24): on the UI goroutine a key typed into a
// 10,000-line draft costs at most 1.5 times one typed into a 100-line
// draft (measured 1.2–1.35 on a loaded 2-core machine; the goal is
// 1.2: what is left is the snapshot's copy of the line pointers, once per
// save, and the garbage collector's larger heap) — the key, the frame and the autosave it brings, at 25 keys a
// second (the saves fire on the injected clock as they would, one per
// ceiling; their commands serialize and write the draft on other
// goroutines, as the program runs them). The test goroutine is locked to
// its thread, whose CPU time is the UI goroutine's. The whole process's
// CPU per key (the writes of the whole draft included) is logged. A ratio
// in one run, so not under -race.
func TestTypingCostFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("measures CPU time")
	}
	type pane struct {
		h  *harness
		ft *fakeTimers
	}
	open := func(lines int) pane {
		e := newTestEnv(t)
		th := e.newThread("flat")
		var b strings.Builder
		for i := range lines {
			fmt.Fprintf(&b, "line %d of the draft: the quick brown fox jumps over the lazy dog\n", i)
		}
		if err := e.st.SaveDraft(store.Draft{ThreadID: th.ID, Markdown: b.String()}); err != nil {
			t.Fatal(err)
		}
		h := e.open(th.ID)
		h.pumpUntil("the draft", func() bool { return h.app.ed.Draft().LineCount() == lines+1 })
		return pane{h, installFakeTimers(h)}
	}
	small, big := open(100), open(10000)
	const keys = 100
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	perKey := func(p pane) (ui, all time.Duration) {
		start, startAll := threadCPU(t), cpuNow(t)
		for range keys {
			p.h.typeText("x")
			_ = p.h.view()
			p.ft.advance(p.h, 40*time.Millisecond)
		}
		p.ft.advance(p.h, time.Second)
		return (threadCPU(t) - start) / keys, (cpuNow(t) - startAll) / keys
	}
	best, bestAll := map[*harness]time.Duration{}, map[*harness]time.Duration{}
	for range 5 {
		for _, p := range []pane{small, big} {
			c, all := perKey(p)
			if best[p.h] == 0 || c < best[p.h] {
				best[p.h] = c
			}
			if bestAll[p.h] == 0 || all < bestAll[p.h] {
				bestAll[p.h] = all
			}
		}
	}
	if d, _ := big.h.e.draft(big.h.app.thread.ID); !strings.HasPrefix(d.Markdown, strings.Repeat("x", 5*keys)) {
		t.Fatalf("the typing is not on disk: %.40q…", d.Markdown)
	}
	ratio := float64(best[big.h]) / float64(best[small.h])
	t.Logf("UI goroutine CPU per key: %v at 100 lines, %v at 10,000 lines (%.2f×)", best[small.h], best[big.h], ratio)
	t.Logf("process CPU per key (the saves' writes included): %v at 100 lines, %v at 10,000 lines (%.2f×)",
		bestAll[small.h], bestAll[big.h], float64(bestAll[big.h])/float64(bestAll[small.h]))
	if ratio > 1.5 {
		t.Fatalf("a key at 10,000 lines costs %.2f× one at 100 lines (%v vs %v), more than 1.5×", ratio, best[big.h], best[small.h])
	}
}
