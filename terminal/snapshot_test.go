package terminal

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func TestSnapshot(t *testing.T) {
	term := NewTerminal("term-3", "Terminal 3", 40, 5, 100)
	var out strings.Builder
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&out, "line %d   \r\n", i)
	}
	out.WriteString("\x1b]2;build log\a$ \x1b[1mmake\x1b[m\x07")
	term.Do(func(s *Screen) { s.Write([]byte(out.String())) })

	snap := term.Snapshot(4)
	if snap.ID != "term-3" || snap.Label != "Terminal 3" || snap.Running || snap.Exited {
		t.Fatalf("snapshot header: %+v", snap)
	}
	if want := []string{"line 10", "line 11", "line 12", "$ make"}; !reflect.DeepEqual(snap.Lines, want) {
		t.Fatalf("lines %q, want %q", snap.Lines, want)
	}
	// line numbers: "line 1" is line 0, the prompt line 12
	if snap.First != 9 {
		t.Fatalf("first line %d, want 9", snap.First)
	}
	if snap.Title != "build log" {
		t.Fatalf("title %q", snap.Title)
	}

	// the rows below the cursor are left out: a short screen gives only
	// what was written
	fresh := NewTerminal("term-1", "Terminal 1", 40, 10, 100)
	fresh.Do(func(s *Screen) { s.Write([]byte("hello\r\n$ ")) })
	if got := fresh.Snapshot(0).Lines; !reflect.DeepEqual(got, []string{"hello", "$"}) {
		t.Fatalf("fresh screen: %q", got)
	}
	// more lines than held: all of them
	if got := term.Snapshot(1000); got.First != 0 || len(got.Lines) != 13 {
		t.Fatalf("all lines: first %d, %d lines", got.First, len(got.Lines))
	}
}

// Snapshot is safe beside the goroutine that feeds the screen (run with
// -race).
func TestSnapshotConcurrent(t *testing.T) {
	term := NewTerminal("term-1", "Terminal 1", 80, 24, 1000)
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 2000 {
			term.ingest([]byte(fmt.Sprintf("output %d\r\n", i)))
		}
	})
	for range 200 {
		snap := term.Snapshot(50)
		if len(snap.Lines) > 50 {
			t.Fatalf("%d lines, want at most 50", len(snap.Lines))
		}
	}
	wg.Wait()
	snap := term.Snapshot(1)
	if len(snap.Lines) != 1 || snap.Lines[0] != "output 1999" {
		t.Fatalf("last line %q", snap.Lines)
	}
}
