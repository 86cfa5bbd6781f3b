package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// threadsCPU is the CPU time every thread of pid has run, to the
// nanosecond (the first field of each thread's schedstat; /proc/PID/stat
// counts in 10 ms ticks, too coarse for an idle program).
func threadsCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		t.Fatalf("no threads of %d: %v", pid, err)
	}
	var sum time.Duration
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // a thread that ended
		}
		ns, _ := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
		sum += time.Duration(ns)
	}
	return sum
}

// No work when nothing moves (issue 24 item 2): idle, with the composer
// and then the transcript focused, chipchat wakes for nothing: package tty
// draws its frames only when the view changed, and Bubble Tea's own ticker
// runs once a second. A bare Bubble Tea v2 program with a static screen
// (internal/bareui), whose renderer ticks at 60 fps, runs beside it over
// the same seconds as the yardstick: chipchat must stay under a fifth of
// it. Measured 0.02–0.05× (0.2–0.5 ms/s against 9–10); a timer of
// chipchat's own left running (a spinner, a toast, a poll) costs a View
// and a frame each tick and fails this.
func TestEndToEndIdleWakesNothing(t *testing.T) {
	bare := filepath.Join(t.TempDir(), "bareui")
	if out, err := exec.Command("go", "build", "-o", bare, "./internal/bareui").CombinedOutput(); err != nil {
		t.Fatalf("go build ./internal/bareui: %v\n%s", err, out)
	}
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	a := startChipchat(t, proj, home, data, "agent = \"exec:printf 'idle %s\\\\n' reply\"\n")
	a.text("hello")
	a.keys("Enter")
	a.waitFor("idle reply")
	pid := a.pid()
	b := startTmux(t, bare)
	b.waitFor("a view that never changes")
	bpid := findProcess(func(args []string, _ int) bool { return len(args) > 0 && args[0] == bare })
	if bpid == 0 {
		t.Fatal("bareui is not running")
	}
	// What moved at the start (the turn's spinner, a toast) has stopped
	// once the screen no longer changes.
	settled := func(s *tmuxSession) {
		prev := ""
		s.waitUntil("the screen to stay the same for 1 s", func(scr string) bool {
			same := scr == prev
			prev = scr
			if !same {
				return false
			}
			time.Sleep(time.Second) // the screen must hold still this long
			return s.screen() == scr
		})
	}
	const window = 4 * time.Second
	measure := func(what string) {
		settled(a.tmuxSession)
		c0, b0 := threadsCPU(t, pid), threadsCPU(t, bpid)
		time.Sleep(window) // idle is what is measured: both run untouched
		c, bc := threadsCPU(t, pid)-c0, threadsCPU(t, bpid)-b0
		perSec := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / window.Seconds() }
		t.Logf("%s: chipchat %.2f ms/s, bare Bubble Tea %.2f ms/s (%.2f×)", what, perSec(c), perSec(bc), float64(c)/float64(max(bc, 1)))
		if perSec(c) > 0.2*perSec(bc) {
			t.Errorf("%s: idle chipchat used %.2f ms/s of CPU, over a fifth of the bare 60 fps renderer's %.2f ms/s: chipchat does work while nothing moves", what, perSec(c), perSec(bc))
		}
	}
	measure("composer focused")
	a.keys("Tab")
	a.waitFor("tab next pane")
	measure("transcript focused")
}
