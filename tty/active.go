package tty

import (
	"io"
	"os/exec"
	"sync/atomic"
)

// active is the Terminal open in this process, if any: the app's
// components reach it through Command and WriteRaw without holding it.
var active atomic.Pointer[Terminal]

// Active says whether a Terminal is open (false under Bubble Tea's own
// renderer, as in the tests that run the app in an emulator).
func Active() bool { return active.Load() != nil }

// WriteRaw writes s to the open Terminal between frames (Terminal.Raw);
// false when none is open.
func WriteRaw(s string) bool {
	t := active.Load()
	if t == nil {
		return false
	}
	_ = t.Raw(s)
	return true
}

// Cmd runs a program that takes the terminal (an editor, a pager): the
// open Terminal is released for its run and resumed after. It has the
// methods of Bubble Tea's ExecCommand, so tea.Exec runs it.
type Cmd struct{ c *exec.Cmd }

// Command wraps c.
func Command(c *exec.Cmd) *Cmd { return &Cmd{c} }

// Run releases the open Terminal (if any), runs the program and takes the
// terminal back, whatever the program did.
func (c *Cmd) Run() error {
	t := active.Load()
	if t != nil {
		if err := t.Release(); err != nil {
			_ = t.Resume()
			return err
		}
		defer t.Resume()
	}
	return c.c.Run()
}

// SetStdin, SetStdout and SetStderr set what the program has not set.
func (c *Cmd) SetStdin(r io.Reader) {
	if c.c.Stdin == nil {
		c.c.Stdin = r
	}
}

func (c *Cmd) SetStdout(w io.Writer) {
	if c.c.Stdout == nil {
		c.c.Stdout = w
	}
}

func (c *Cmd) SetStderr(w io.Writer) {
	if c.c.Stderr == nil {
		c.c.Stderr = w
	}
}
