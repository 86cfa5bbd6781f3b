package main

import (
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/chipchat/chipchat/mcpserver"
	"github.com/chipchat/chipchat/terminal"
)

// Files chipchat leaves only while it runs: the panes socket
// (panes-<pid>.sock, package mcpserver) and the pager's temporary files
// (chipchat-pager-<pid>-*.txt, terminal.PagerFilePrefix). A quit removes them
// (App.Close and the pager's end); catchSignals removes them the moment
// SIGHUP, SIGTERM or SIGINT arrives, before the app winds down;
// removeStaleFiles and openPanes remove those of a chipchat that died
// without either (SIGKILL, a crash): the pid in the name is no running
// process.

// exitFileSet is the files to remove when a signal ends chipchat (the
// app's ui.ExitFiles). Its methods may be called from any goroutine.
type exitFileSet struct {
	mu    sync.Mutex
	paths map[string]bool
}

// exitFiles is the process's set.
var exitFiles = &exitFileSet{paths: map[string]bool{}}

// Add registers path for catchSignals.
func (s *exitFileSet) Add(path string) {
	s.mu.Lock()
	s.paths[path] = true
	s.mu.Unlock()
}

// Forget drops path (its owner removed it).
func (s *exitFileSet) Forget(path string) {
	s.mu.Lock()
	delete(s.paths, path)
	s.mu.Unlock()
}

// removeAll removes every registered file.
func (s *exitFileSet) removeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p := range s.paths {
		_ = os.Remove(p)
		delete(s.paths, p)
	}
}

// catchSignals removes the panes socket and the pager's files when
// SIGHUP, SIGTERM or SIGINT arrives, then calls quit (the program's Quit:
// App.Close then ends turns, terminals and the agent). It catches one
// signal: a second has its usual effect. stop ends the catching.
func catchSignals(quit func()) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	done := make(chan struct{})
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
		})
	}
	go func() {
		select {
		case <-ch:
			stop()
			exitFiles.removeAll()
			quit()
		case <-done:
		}
	}()
	return stop
}

// openPanes starts chipchat mcp's panes socket, first removing the
// sockets of chipchats killed before they removed theirs, and registers it
// for catchSignals.
func openPanes() (*mcpserver.Panes, error) {
	if path, err := mcpserver.SocketPath(); err == nil {
		removeStale(filepath.Dir(path), "panes-", ".sock")
	}
	p, err := mcpserver.OpenPanes()
	if err != nil {
		return nil, err
	}
	exitFiles.Add(p.Path())
	return p, nil
}

// removeStaleFiles removes the pager files in the temporary directory
// that a chipchat no longer running left behind (call it at start).
func removeStaleFiles() {
	removeStale(os.TempDir(), terminal.PagerFilePrefix, "")
}

// removeStale removes the files in dir named prefix<pid>… (then suffix)
// whose pid is no running process.
func removeStale(dir, prefix, suffix string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || !strings.HasSuffix(name, suffix) {
			continue
		}
		rest = strings.TrimSuffix(rest, suffix)
		if i := strings.IndexAny(rest, "-."); i >= 0 {
			rest = rest[:i]
		}
		pid, err := strconv.Atoi(rest)
		if err != nil || pid <= 0 || processAlive(pid) {
			continue
		}
		_ = os.Remove(filepath.Join(dir, name))
	}
}

// processAlive reports whether pid is a running process (one of another
// user counts: kill says EPERM).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
