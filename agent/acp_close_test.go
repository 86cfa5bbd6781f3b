//go:build unix

package agent

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Close while the agent is being started (its initialize unanswered: the
// thread list's session listing, a first turn) stops that process too:
// the start fails at once and nothing of the agent outlives Close.
func TestACPCloseStopsAnAgentBeingStarted(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	a, err := NewACP("echo $$ > "+pidFile+"; exec sleep 60", ACPOptions{LogPath: "-"})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := a.ListSessions(context.Background(), dir)
		errc <- err
	}()
	var pid int
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(10 * time.Second)
	for pid == 0 {
		if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if time.Now().After(deadline) {
			t.Fatal("the agent never started")
		}
		<-tick.C // the agent is another process: look again
	}
	a.Close()
	select {
	case err := <-errc:
		if err == nil {
			t.Fatal("the listing of a closed backend succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close left the agent's initialize waiting")
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Fatalf("the agent (pid %d) outlived Close", pid)
	}
}
