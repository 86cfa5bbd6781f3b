package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Cause is why the store could not write, in words a user can act on.
type Cause int

// The causes an IOError names.
const (
	CauseUnknown  Cause = iota
	CauseReadOnly       // the file or its directory is on a read-only file system
	CauseNoAccess       // the user may not write there
	CauseDiskFull       // no space (or quota) left
	CauseIO             // the disk reported an I/O error
)

func (c Cause) String() string {
	switch c {
	case CauseReadOnly:
		return "it is on a read-only file system"
	case CauseNoAccess:
		return "permission denied (chipchat may not write there)"
	case CauseDiskFull:
		return "the disk is full"
	case CauseIO:
		return "the disk reported an I/O error"
	}
	return "it cannot be written"
}

// IOError is a store failure that names the file and the cause in words
// (read-only, no permission, disk full); Err is the underlying error.
type IOError struct {
	Path  string
	Cause Cause
	Err   error
}

func (e *IOError) Error() string {
	hint := ""
	switch e.Cause {
	case CauseReadOnly, CauseNoAccess:
		hint = "; use another --data-dir or fix the permissions"
	case CauseDiskFull:
		hint = "; free some space"
	}
	return fmt.Sprintf("%s: %s (%s)%s", e.Path, e.Cause, detail(e.Err), hint)
}

// detail is the innermost error's text: SQLite's message or the OS's.
func detail(err error) string {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Error()
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return err.Error()
}

func (e *IOError) Unwrap() error { return e.Err }

// causeOf classifies an OS or SQLite error; CauseUnknown when it is neither
// of the known kinds.
func causeOf(err error) Cause {
	switch {
	case errors.Is(err, syscall.EROFS):
		return CauseReadOnly
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return CauseNoAccess
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return CauseDiskFull
	case errors.Is(err, syscall.EIO):
		return CauseIO
	}
	switch code(err) {
	case sqlite3.SQLITE_FULL:
		return CauseDiskFull
	case sqlite3.SQLITE_READONLY:
		return CauseReadOnly
	case sqlite3.SQLITE_PERM:
		return CauseNoAccess
	case sqlite3.SQLITE_IOERR:
		return CauseIO
	}
	return CauseUnknown
}

// probeWrite finds out why a file in dir cannot be written: it opens path
// for writing and creates (and removes) a small file beside it, as SQLite
// does with its -wal and -shm files.
func probeWrite(dir, path string) Cause {
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err != nil {
		if c := causeOf(err); c != CauseUnknown {
			return c
		}
	} else {
		f.Close()
	}
	f, err := os.CreateTemp(dir, ".write-probe-*")
	if err != nil {
		return causeOf(err)
	}
	name := f.Name()
	_, err = f.Write(make([]byte, 4096))
	if err == nil {
		err = f.Sync()
	}
	f.Close()
	os.Remove(name)
	if err != nil {
		return causeOf(err)
	}
	return CauseUnknown
}

// explain turns an error met while opening or writing the database into an
// *IOError naming the file and the cause when it is a write failure
// (read-only, no permission, disk full, can't open); other errors are
// returned as they are.
func explain(dir, path string, err error) error {
	if err == nil {
		return nil
	}
	var ioe *IOError
	if errors.As(err, &ioe) {
		return err
	}
	c := causeOf(err)
	if c == CauseUnknown || c == CauseReadOnly || c == CauseIO {
		switch code(err) {
		case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL:
			// SQLite's codes say little (CANTOPEN is also a read-only
			// directory, READONLY also a read-only -shm): ask the OS.
			if p := probeWrite(dir, path); p != CauseUnknown {
				c = p
			}
		}
	}
	if c == CauseUnknown {
		return err
	}
	return &IOError{Path: path, Cause: c, Err: err}
}

// dirError is the error for a data directory that cannot be made.
func dirError(dir string, err error) error {
	if c := causeOf(err); c != CauseUnknown {
		return fmt.Errorf("store: data directory: %w", &IOError{Path: dir, Cause: c, Err: err})
	}
	return fmt.Errorf("store: data directory %s: %w", filepath.Clean(dir), err)
}
