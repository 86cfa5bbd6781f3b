package agent

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// The ACP connection's diagnostics (the SDK's logger and the line
// reader's) go to a log file, never to the terminal (it would corrupt the
// TUI): ACPLogPath, mode 0600, at most acpLogMax bytes, then renamed to
// <path>.1 (replacing the one before) and started anew. Each record names
// the agent's process. A string value over acpLogValueMax bytes (the SDK
// logs a whole unparsable line) is cut. The last record of each process
// (the last error or warning, when there was one) is kept for the error a
// closed connection gives.

const (
	acpLogMax      = 10 << 20
	acpLogValueMax = 2 << 10
)

// ACPLogPath is where the ACP connection's diagnostics go:
// $XDG_STATE_HOME/chipchat/chipchat.log, ~/.local/state/chipchat/chipchat.log
// when XDG_STATE_HOME is unset; "" when neither is known.
func ACPLogPath() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "chipchat", "chipchat.log")
}

// acpLogFile is a size-bounded, once-rotated log file, opened on the first
// write. A file that cannot be opened drops the records (the error is
// still in memory for the connection's error).
type acpLogFile struct {
	path string
	max  int64

	mu     sync.Mutex
	f      *os.File
	size   int64
	failed bool
}

var (
	acpLogsMu sync.Mutex
	acpLogs   = map[string]*acpLogFile{}
)

// acpLogAt is the shared log file at path (nil for "").
func acpLogAt(path string) *acpLogFile {
	if path == "" {
		return nil
	}
	acpLogsMu.Lock()
	defer acpLogsMu.Unlock()
	l := acpLogs[path]
	if l == nil {
		l = &acpLogFile{path: path, max: acpLogMax}
		acpLogs[path] = l
	}
	return l
}

func (l *acpLogFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failed {
		return len(p), nil
	}
	if l.f == nil && !l.open(os.O_APPEND) {
		return len(p), nil
	}
	if l.size > 0 && l.size+int64(len(p)) > l.max {
		l.f.Close()
		l.f = nil
		_ = os.Rename(l.path, l.path+".1")
		if !l.open(os.O_TRUNC) {
			return len(p), nil
		}
	}
	n, err := l.f.Write(p)
	l.size += int64(n)
	return len(p), err
}

// open opens the file (0600, its directory 0700); l.mu is held.
func (l *acpLogFile) open(flag int) bool {
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		l.failed = true
		return false
	}
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|flag, 0o600)
	if err != nil {
		l.failed = true
		return false
	}
	_ = f.Chmod(0o600)
	l.f, l.size = f, 0
	if st, err := f.Stat(); err == nil {
		l.size = st.Size()
	}
	return true
}

// acpLogTail keeps a process's last log records, for its errors.
type acpLogTail struct {
	mu      sync.Mutex
	last    string
	lastBad string // the last warning or error
	// ended: the process was stopped by chipchat (kill); its records
	// after that are kept here only, never written to the file (the
	// SDK logs "connection closed" after its Done, which would write the
	// file after Close returned — a test's temporary directory, or a
	// state directory the user is removing).
	ended bool
}

// end stops the file records of the process (see ended).
func (t *acpLogTail) end() {
	t.mu.Lock()
	t.ended = true
	t.mu.Unlock()
}

// line is the last error or warning, else the last record ("" if none).
func (t *acpLogTail) line() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.lastBad != "" {
		return t.lastBad
	}
	return t.last
}

// acpLogHandler writes records to the file and keeps the last one.
type acpLogHandler struct {
	file slog.Handler // nil: no file
	tail *acpLogTail
}

// acpLogCut cuts a string or error value to acpLogValueMax bytes.
func acpLogCut(_ []string, a slog.Attr) slog.Attr {
	var s string
	switch a.Value.Kind() {
	case slog.KindString:
		s = a.Value.String()
	case slog.KindAny:
		if err, ok := a.Value.Any().(error); ok {
			s = err.Error()
		}
	}
	if len(s) > acpLogValueMax {
		a.Value = slog.StringValue(fmt.Sprintf("%s… (%d bytes)", s[:acpLogValueMax], len(s)))
	}
	return a
}

// newACPLogger is the logger of one agent process: records to the file at
// path (none for "") with the given attributes, the last kept in tail.
func newACPLogger(path string, tail *acpLogTail, attrs ...any) *slog.Logger {
	h := &acpLogHandler{tail: tail}
	if f := acpLogAt(path); f != nil {
		h.file = slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: acpLogCut})
	}
	return slog.New(h).With(attrs...)
}

func (h *acpLogHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *acpLogHandler) Handle(ctx context.Context, r slog.Record) error {
	// The kept line: level, message and the record's own attributes
	// (not the process's), without the time.
	var b bytes.Buffer
	th := slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: func(g []string, a slog.Attr) slog.Attr {
		if len(g) == 0 && a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return acpLogCut(g, a)
	}})
	_ = th.Handle(ctx, r)
	line := strings.TrimSpace(b.String())
	h.tail.mu.Lock()
	h.tail.last = line
	if r.Level >= slog.LevelWarn {
		h.tail.lastBad = line
	}
	defer h.tail.mu.Unlock()
	if h.file == nil || h.tail.ended {
		return nil
	}
	// Under the tail's lock, so that once end returns no record of the
	// process reaches the file.
	return h.file.Handle(ctx, r)
}

// WithAttrs and WithGroup apply to the file's records (the kept line
// holds the record's own attributes only).
func (h *acpLogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	if c.file != nil {
		c.file = c.file.WithAttrs(attrs)
	}
	return &c
}

func (h *acpLogHandler) WithGroup(name string) slog.Handler {
	c := *h
	if c.file != nil {
		c.file = c.file.WithGroup(name)
	}
	return &c
}
