package terminal

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chipchat/chipchat/chips"
)

// The pager (the app's `o` on a transcript item): the text goes to a
// private temporary file, then the pager runs on it in the user's terminal
// and the file is removed when it exits.

// PagerFilePrefix starts the name of the pager's temporary files, which go
// on with the pid of the chipchat that wrote them (package main removes
// those of a chipchat no longer running).
const PagerFilePrefix = "chipchat-pager-"

// PagerCommand is $PAGER, else less, else more.
func PagerCommand() []string {
	if f := strings.Fields(os.Getenv("PAGER")); len(f) > 0 {
		return f
	}
	if _, err := exec.LookPath("less"); err == nil {
		return []string{"less"}
	}
	return []string{"more"}
}

// WritePagerFile writes text for the pager to a private temporary file and
// returns its path; register is told the path before anything is written
// (a signal then removes it). Escape sequences are stripped: the pager
// shows text, never controls the terminal. On an error after the file was
// made it is removed, and its path comes with the error.
func WritePagerFile(text string, register func(path string)) (string, error) {
	f, err := os.CreateTemp("", PagerFilePrefix+strconv.Itoa(os.Getpid())+"-*.txt")
	if err != nil {
		return "", err
	}
	register(f.Name())
	_, err = f.WriteString(chips.Sanitize(text))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return f.Name(), err
	}
	return f.Name(), nil
}

// PagerCmd is the pager (PagerCommand) on path, on the process's own
// terminal; the error names a pager not found ("set $PAGER (less not
// found)").
func PagerCmd(path string) (*exec.Cmd, error) {
	args := PagerCommand()
	bin, err := exec.LookPath(args[0])
	if err != nil {
		return nil, errors.New("set $PAGER (" + filepath.Base(args[0]) + " not found)")
	}
	c := exec.Command(bin, append(args[1:], path)...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	return c, nil
}
