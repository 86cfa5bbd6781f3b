package ui

import (
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Files chipchat leaves only while it runs: the panes socket
// (panes-<pid>.sock, mcp.go) and the pager's temporary files
// (chipchat-pager-<pid>-*.txt, pager.go). A quit removes them (App.Close
// and the pager's end); CatchSignals removes them the moment SIGHUP,
// SIGTERM or SIGINT arrives, before the app winds down; RemoveStaleFiles
// removes those of a chipchat that died without either (SIGKILL, a
// crash): the pid in the name is no running process.

// exitFiles are the files to remove when a signal ends chipchat.
var exitFiles = struct {
	sync.Mutex
	paths map[string]bool
}{paths: map[string]bool{}}

// removeOnExit registers path for CatchSignals; forgetOnExit drops it
// (its owner removed it).
func removeOnExit(path string) {
	exitFiles.Lock()
	exitFiles.paths[path] = true
	exitFiles.Unlock()
}

func forgetOnExit(path string) {
	exitFiles.Lock()
	delete(exitFiles.paths, path)
	exitFiles.Unlock()
}

// removeExitFiles removes every registered file.
func removeExitFiles() {
	exitFiles.Lock()
	defer exitFiles.Unlock()
	for p := range exitFiles.paths {
		_ = os.Remove(p)
		delete(exitFiles.paths, p)
	}
}

// CatchSignals removes the panes socket and the pager's files when
// SIGHUP, SIGTERM or SIGINT arrives, then calls quit (the program's Quit:
// App.Close then ends turns, terminals and the agent). It catches one
// signal: a second has its usual effect. stop ends the catching.
func CatchSignals(quit func()) (stop func()) {
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
			removeExitFiles()
			quit()
		case <-done:
		}
	}()
	return stop
}

// pagerPrefix starts the name of the pager's temporary files, which go on
// with the pid of the chipchat that wrote them.
const pagerPrefix = "chipchat-pager-"

// RemoveStaleFiles removes the pager files in the temporary directory
// that a chipchat no longer running left behind (call it at start).
func RemoveStaleFiles() {
	removeStale(os.TempDir(), pagerPrefix, "")
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
