package remote

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/sshtest"
)

// TestProcessCancelEndsTheRemoteProcess: a Process whose context ends
// (the user cancelled the turn) ends on the remote too, its children with
// it (the FIFO they hold open ends), though it neither reads nor writes
// meanwhile. Without
// the signal sshd would only close its pipes and it would run on.
func TestProcessCancelEndsTheRemoteProcess(t *testing.T) {
	s, c := newConn(t, Options{})
	seen := termFIFO(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd, _ := startTrapped(t, c, ctx)
	cancel()
	_ = cmd.Wait()
	select {
	case got := <-seen:
		if got != "ended<nil>" {
			t.Fatalf("the FIFO: %q", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the remote process was not signalled after the cancel\n%s", s.Log())
	}
	// Its note is gone.
	if ents, _ := os.ReadDir(filepath.Join(s.Home, runDir)); len(ents) != 0 {
		t.Errorf("notes left in %s: %v", runDir, ents)
	}
}

// startTrapped starts a Process that holds $HOME/term-seen (a FIFO) open
// for writing, says "started", then neither reads nor writes.
func startTrapped(t *testing.T, c *Conn, ctx context.Context) (*exec.Cmd, io.ReadCloser) {
	t.Helper()
	cmd, err := c.Process(ctx, Command{Argv: []string{"sh", "-c", `exec 3>"$HOME/term-seen"; echo started; while :; do sleep 1; done`}})
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
	return cmd, out
}

// termFIFO makes term-seen in s.Home a FIFO and delivers "ended" once every
// process that held it open for writing ended (its end of file).
func termFIFO(t *testing.T, s *sshtest.Server) <-chan string {
	t.Helper()
	fifo := filepath.Join(s.Home, "term-seen")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	s.HandOver(t) // the remote user's, in sshtest's second-user mode
	seen := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the trap opens it to write
		if err != nil {
			seen <- err.Error()
			return
		}
		defer f.Close()
		_, err = io.Copy(io.Discard, f)
		seen <- fmt.Sprint("ended", err)
	}()
	return seen
}
