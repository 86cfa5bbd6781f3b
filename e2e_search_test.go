package main

import (
	"fmt"
	"strings"
	"testing"
)

// / in the transcript searches the thread: enter goes to the first match,
// the hint bar counts them ("1 of 5"), n and N step (cycling), the matches
// are drawn in reverse video, esc clears the search.
func TestEndToEndSearchInTheThread(t *testing.T) {
	p := newExecProject(t, countTurns+`echo "reply $n has a Needle"`+"\n")
	a := p.start(t)
	for i, prompt := range []string{"first needle here", "nothing to see", "the last NEEDLE"} {
		a.text(prompt)
		a.keys("Enter")
		a.waitFor(fmt.Sprintf("reply %d has a Needle", i+1))
		a.waitUntil("the turn's end", func(scr string) bool { return strings.Contains(scr, "enter send") })
	}
	a.keys("Tab")
	a.waitFor("messages")
	a.text("/")
	a.waitFor("enter search")
	a.text("needle")
	a.keys("Enter")
	a.waitFor("1 of 5", "n next", "N previous")
	a.text("n")
	a.waitFor("2 of 5")
	a.text("N")
	a.text("N")
	a.waitFor("5 of 5")
	if raw := a.run("capture-pane", "-p", "-e", "-t", a.name); !strings.Contains(raw, "\x1b[7mNEEDLE") {
		t.Fatalf("the focused match is not in reverse video:\n%q", raw)
	}
	a.keys("Escape")
	a.waitUntil("the search cleared", func(scr string) bool {
		return !strings.Contains(scr, "of 5") && strings.Contains(scr, "messages")
	})
	if raw := a.run("capture-pane", "-p", "-e", "-t", a.name); strings.Contains(raw, "\x1b[7m") {
		t.Fatalf("a cleared search is still highlighted:\n%q", raw)
	}
}

// ctrl+f in the thread list searches every thread's messages (the store's
// full-text index): the row shows the thread and the matching line; enter
// opens that thread with the message focused in the transcript.
func TestEndToEndSearchEveryThread(t *testing.T) {
	p := newExecProject(t, countTurns+`echo "reply $n"`+"\n")
	a := p.start(t)
	a.text("how do parsers recover")
	a.keys("Enter")
	a.waitFor("reply 1")
	a.waitUntil("the turn's end", func(scr string) bool { return strings.Contains(scr, "enter send") })
	a.keys("C-n")
	a.waitFor("new thread")
	a.text("something else entirely")
	a.keys("Enter")
	a.waitFor("reply 2")
	a.waitUntil("the turn's end", func(scr string) bool { return strings.Contains(scr, "enter send") })
	a.keys("C-l")
	a.waitFor("ctrl+f search messages")
	a.keys("C-f")
	a.waitFor("Search the messages of this project's threads")
	a.text("parser")
	a.waitFor("how do parsers recover · ", "· how do parsers recover")
	if raw := a.run("capture-pane", "-p", "-e", "-t", a.name); !strings.Contains(raw, "\x1b[7mparsers") {
		t.Fatalf("the match is not marked:\n%q", raw)
	}
	a.keys("Enter")
	a.waitUntil("the thread opened at the message", func(scr string) bool {
		return strings.Contains(scr, "reply 1") && !strings.Contains(scr, "reply 2") && strings.Contains(scr, "↑↓ messages")
	})
}
