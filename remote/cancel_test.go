package remote

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestProcessCancelEndsTheRemoteProcess: a Process whose context ends
// (the user cancelled the turn) ends on the remote too, its children with
// it: the remote shell's TERM trap runs (it writes to a FIFO the test
// reads), though the process neither reads nor writes meanwhile. Without
// the signal sshd would only close its pipes and it would run on.
func TestProcessCancelEndsTheRemoteProcess(t *testing.T) {
	s, c := newConn(t, Options{})
	fifo := filepath.Join(s.Home, "term-seen")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd, err := c.Process(ctx, Command{Argv: []string{"sh", "-c", `trap 'echo "term $$" > "$HOME/term-seen"; exit 0' TERM; echo started; while :; do sleep 1; done`}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "started\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	seen := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the trap opens it to write
		if err != nil {
			seen <- err.Error()
			return
		}
		defer f.Close()
		b, _ := bufio.NewReader(f).ReadString('\n')
		seen <- b
	}()
	cancel()
	_ = cmd.Wait()
	select {
	case got := <-seen:
		if !strings.HasPrefix(got, "term ") {
			t.Fatalf("the trap wrote %q", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the remote process was not signalled after the cancel\n%s", s.Log())
	}
	// Its note is gone.
	if ents, _ := os.ReadDir(filepath.Join(s.Home, runDir)); len(ents) != 0 {
		t.Errorf("notes left in %s: %v", runDir, ents)
	}
}
