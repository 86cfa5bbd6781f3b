package main

import (
	"context"
	"testing"
	"time"
)

// DroppedSince asked while the master runs (a command ended as ssh does
// when it drops, and another command already started a new master) and
// before Watch saw the loss waits for Watch: the loss it then records
// counts. A loss before t does not.
func TestRemoteDroppedSinceWaitsForTheWatch(t *testing.T) {
	_, rp := newTestRemote(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := rp.conn.Connect(ctx); err != nil || !rp.conn.Alive(ctx) {
		t.Fatalf("no master: %v", err)
	}
	h := remoteHost{rp}
	start := time.Now()
	got := make(chan bool, 1)
	go func() { got <- h.DroppedSince(ctx, start) }()
	// Once DroppedSince waits on the next loss, Watch sees one.
	for waiting := false; !waiting; time.Sleep(time.Millisecond) {
		rp.lostMu.Lock()
		waiting = rp.lost != nil
		rp.lostMu.Unlock()
		if ctx.Err() != nil {
			t.Fatal("DroppedSince never waited for Watch")
		}
	}
	rp.noteLost()
	select {
	case g := <-got:
		if !g {
			t.Error("a loss Watch saw after the command started does not count")
		}
	case <-ctx.Done():
		t.Fatal("DroppedSince never answered")
	}
	if h.DroppedSince(ctx, time.Now()) {
		t.Error("an earlier loss counts, with the master running")
	}
}
