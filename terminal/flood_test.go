package terminal

import (
	"testing"
	"time"
)

// A flood (yes) is coalesced into at most 60 updates a second, the screen
// keeps at most its scrollback, and the terminal stays responsive: a key
// written in the middle of the flood reaches the program (it stops).
func TestFloodIsCoalescedAndBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a flood for a second")
	}
	const scrollback = 500
	term := NewTerminal("t", "T", 120, 40, scrollback)
	if err := term.Start(t.TempDir(), "/bin/sh", "-c", "yes flood"); err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	updates := 0
	start := time.Now()
	for time.Since(start) < time.Second {
		switch term.Wait()().(type) {
		case UpdatedMsg:
			updates++
		case ExitedMsg:
			t.Fatal("yes exited")
		}
	}
	elapsed := time.Since(start)
	if max := int(elapsed/FrameInterval) + 3; updates > max {
		t.Fatalf("%d updates in %v: more than 60 a second", updates, elapsed)
	}
	if updates < 5 {
		t.Fatalf("only %d updates in %v: the flood is not shown", updates, elapsed)
	}
	var first, last int64
	term.Do(func(s *Screen) { first, last = s.FirstLine(), s.LastLine() })
	if last-first+1 > scrollback+40 {
		t.Fatalf("the screen holds %d lines, more than scrollback+rows", last-first+1)
	}
	if last < 10000 {
		t.Fatalf("only %d lines ingested in a second of yes", last)
	}
	// ctrl+c reaches yes through the flood and it stops.
	if err := term.Write([]byte{3}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if msg, ok := term.Wait()().(ExitedMsg); ok {
			if msg.Code == 0 {
				t.Fatalf("yes ended with code 0 after ctrl+c")
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("ctrl+c did not stop the flood within 5 s")
		}
	}
}
