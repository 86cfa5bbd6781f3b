package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// deadPID is the pid of a process that ran and ended.
func deadPID(t *testing.T) int {
	t.Helper()
	c := exec.Command(os.Args[0], "-test.run=^$")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return c.ProcessState.Pid()
}

// leftSocket makes a unix socket file at path that nobody listens on, as a
// killed chipchat leaves its panes socket.
func leftSocket(t *testing.T, path string) {
	t.Helper()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// At start the panes sockets of chipchats no longer running go; those of
// running ones stay.
func TestListenPanesRemovesStaleSockets(t *testing.T) {
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	dir := filepath.Join(run, "chipchat")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(dir, "panes-"+strconv.Itoa(deadPID(t))+".sock")
	live := filepath.Join(dir, "panes-"+strconv.Itoa(os.Getppid())+".sock")
	other := filepath.Join(dir, "notes.txt")
	leftSocket(t, dead)
	leftSocket(t, live)
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	panes, err := openPanes()
	if err != nil {
		t.Fatal(err)
	}
	defer panes.Close()
	if exists(dead) || !exists(live) || !exists(other) || !exists(panes.Path()) {
		t.Fatalf("after start: dead %v (want gone), live %v, other %v, own %v", exists(dead), exists(live), exists(other), exists(panes.Path()))
	}
}

// At start the pager files of chipchats no longer running go; those of
// running ones and other files stay.
func TestRemoveStalePagerFiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := filepath.Join(tmp, "chipchat-pager-"+strconv.Itoa(deadPID(t))+"-123.txt")
	live := filepath.Join(tmp, "chipchat-pager-"+strconv.Itoa(os.Getppid())+"-456.txt")
	other := filepath.Join(tmp, "chipchat-pager-x-1.txt")
	for _, p := range []string{dead, live, other} {
		if err := os.WriteFile(p, []byte("text"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	removeStaleFiles()
	if exists(dead) || !exists(live) || !exists(other) {
		t.Fatalf("dead %v (want gone), live %v, other %v", exists(dead), exists(live), exists(other))
	}
}

// SIGHUP removes the panes socket and the pager's file at once, then asks
// the program to quit; a file forgotten (its owner removed it) is not
// tracked.
func TestSignalRemovesSocketAndPagerFiles(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
			tmp := t.TempDir()
			panes, err := openPanes()
			if err != nil {
				t.Fatal(err)
			}
			defer panes.Close()
			pager := filepath.Join(tmp, "chipchat-pager-"+strconv.Itoa(os.Getpid())+"-1.txt")
			forgotten := filepath.Join(tmp, "chipchat-pager-"+strconv.Itoa(os.Getpid())+"-2.txt")
			for _, p := range []string{pager, forgotten} {
				if err := os.WriteFile(p, []byte("the reply"), 0o600); err != nil {
					t.Fatal(err)
				}
				exitFiles.Add(p)
			}
			exitFiles.Forget(forgotten)
			quit := make(chan struct{})
			stop := catchSignals(func() { close(quit) })
			defer stop()
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			<-quit
			if exists(pager) || exists(panes.Path()) || !exists(forgotten) {
				t.Fatalf("after %v: pager file %v, socket %v, forgotten file %v (want kept)", sig, exists(pager), exists(panes.Path()), exists(forgotten))
			}
		})
	}
}
