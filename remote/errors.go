package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// The kinds of an *Error, for errors.Is.
var (
	ErrTimeout        = errors.New("timed out")
	ErrHostUnknown    = errors.New("host unknown")
	ErrUnreachable    = errors.New("unreachable")
	ErrAuthRefused    = errors.New("authentication refused")
	ErrHostKeyChanged = errors.New("host key changed")
	ErrHostKeyUnknown = errors.New("host key not known yet (connect interactively to check and accept it)")
	ErrSSH            = errors.New("ssh failed")
)

// Error is an ssh failure, or a remote command that ran out of time: one
// line naming the host, the kind and ssh's own last line.
type Error struct {
	Host string
	Kind error  // one of the Err values above
	Line string // ssh's last line of standard error, or what timed out
}

func (e *Error) Error() string {
	if e.Line == "" {
		return fmt.Sprintf("remote: %s: %v", e.Host, e.Kind)
	}
	return fmt.Sprintf("remote: %s: %v (%s)", e.Host, e.Kind, e.Line)
}

func (e *Error) Unwrap() error { return e.Kind }

// ExitError is a remote command that ran and exited non-zero.
type ExitError struct {
	Code   int
	Stderr []byte // all of it
}

func (e *ExitError) Error() string {
	if l := lastLine(e.Stderr); l != "" {
		return fmt.Sprintf("remote: exit status %d: %s", e.Code, l)
	}
	return fmt.Sprintf("remote: exit status %d", e.Code)
}

// sshError makes err of an ssh run (with its stderr) an *Error or an
// *ExitError.
func (c *Conn) sshError(ctx context.Context, what string, timeout time.Duration, stderr []byte, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &Error{Host: c.t.Host, Kind: ErrTimeout, Line: fmt.Sprintf("%s: no answer within %s", clip(strings.TrimPrefix(firstLine(what), "exec ")), timeout)}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return &Error{Host: c.t.Host, Kind: ErrSSH, Line: err.Error()}
	}
	code := ee.ExitCode()
	line := lastLine(stderr)
	kind := classify(stderr)
	if code == 255 && (kind != nil || strings.HasPrefix(line, "ssh:") || line == "") {
		if kind == nil {
			kind = ErrSSH
		}
		return &Error{Host: c.t.Host, Kind: kind, Line: line}
	}
	return &ExitError{Code: code, Stderr: stderr}
}

// classify reads ssh's stderr for the known failures.
func classify(stderr []byte) error {
	s := string(stderr)
	switch {
	case strings.Contains(s, "REMOTE HOST IDENTIFICATION HAS CHANGED"):
		return ErrHostKeyChanged
	case strings.Contains(s, "Could not resolve hostname"):
		return ErrHostUnknown
	case strings.Contains(s, "Permission denied ("), strings.Contains(s, "Too many authentication failures"):
		return ErrAuthRefused
	case strings.Contains(s, "Host key verification failed"), strings.Contains(s, "No ED25519 host key is known"),
		strings.Contains(s, "host key is known"):
		return ErrHostKeyUnknown
	case strings.Contains(s, "Connection refused"), strings.Contains(s, "Connection timed out"),
		strings.Contains(s, "No route to host"), strings.Contains(s, "Network is unreachable"),
		strings.Contains(s, "Connection closed by"), strings.Contains(s, "Connection reset"):
		return ErrUnreachable
	}
	return nil
}

// lastLine is the last non-empty line of b, stripped of control
// characters.
func lastLine(b []byte) string {
	b = bytes.TrimRight(b, "\r\n\t ")
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	return clean(string(bytes.TrimSpace(b)))
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// clean drops control characters (text from the remote is drawn).
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, s)
}
