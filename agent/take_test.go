package agent

import (
	"strings"
	"testing"
	"time"
)

func TestRunnerTakeKeepsUndeliveredText(t *testing.T) {
	r := NewRunner(Echo{ChunkDelay: -1})
	turn := Prepare("hi", nil, nil)
	_ = r.Start("t1", turn) // the backend runs; nobody waits for chunks
	want := EchoReply(turn)
	deadline := time.Now().Add(2 * time.Second)
	var got strings.Builder
	for got.Len() < len(want) && time.Now().Before(deadline) {
		got.WriteString(r.Take("t1"))
		time.Sleep(time.Millisecond)
	}
	if got.String() != want {
		t.Fatalf("Take gathered %q, want the whole reply", got.String())
	}
	if r.Take("nope") != "" {
		t.Fatal("an unknown turn has nothing to take")
	}
}
