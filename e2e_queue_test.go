package main

import (
	"strings"
	"syscall"
	"testing"
)

// chipchat killed with SIGKILL mid-turn, a message queued: reopened, the
// queue shows paused, and enter on the empty composer sends the queued
// message (not the interrupted one again: that is alt+r).
func TestEndToEndKillThenEnterSendsQueued(t *testing.T) {
	// The agent echoes the turn's last line of input, so the reply says
	// which message it answered.
	p := newExecProject(t, countTurns+`last=$(tail -n 1)
case $n in
1) echo "partial answer from turn one"; sleep 60 ;;
*) echo "turn $n answers: $last" ;;
esac
`)
	a := p.start(t)
	a.text("first question")
	a.keys("Enter")
	a.waitFor("partial answer from turn one", "replying")
	a.text("second question")
	a.keys("Enter")
	a.waitFor("queued (1)", "second question")
	waitStored(t, p.data, "partial answer from turn one")
	if err := syscall.Kill(a.pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	a.waitFor("EXITED=137")

	b := p.start(t)
	b.waitFor("partial answer from turn one", "interrupted", "queued (1), paused", "enter on an empty composer sends the next")
	b.keys("Enter")
	scr := b.waitFor("turn 2 answers: second question")
	if strings.Contains(scr, "queued (") || strings.Contains(scr, "answers: first question") {
		t.Errorf("enter sent the queued message, and only it:\n%s", scr)
	}
}
