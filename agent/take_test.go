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

func TestNewACPSpec(t *testing.T) {
	b, err := New("acp: gemini --experimental-acp")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.(*ACP); !ok || b.Name() != "acp:gemini" {
		t.Fatalf("got %T %q", b, b.Name())
	}
	if _, err := New("acp:  "); err == nil {
		t.Fatal("acp: without a command must fail")
	}
}
