package agent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// acpFS is the fs boundary of one ACP: an *os.Root per allowed root
// directory, opened on first use and kept until ACP.Close (a Root holds
// the directory, not its name, so renaming or swapping the path afterwards
// does not move what the agent reaches), and the directories no write may
// touch.
type acpFS struct {
	protected []string // absolute, cleaned; symlink-resolved forms too; set once

	mu     sync.Mutex
	closed bool
	roots  map[string]*acpRoot // by cleaned absolute path
}

// acpRoot is one opened root directory.
type acpRoot struct {
	path string      // as configured, cleaned and absolute
	real string      // path with symlinks resolved when it was opened
	root *os.Root    // the directory
	id   os.FileInfo // its identity when opened
}

// newACPFS is the boundary protecting chipchat's default data, state,
// config and cache directories ($CHIPCHAT_HOME or $XDG_DATA_HOME/chipchat,
// $XDG_STATE_HOME/chipchat, $XDG_CONFIG_HOME/chipchat,
// $XDG_CACHE_HOME/chipchat and their ~/.local, ~/.config, ~/.cache
// defaults; ~/.cache/chipchat always, where a remote project's
// attachments and chipchat's helper are staged) and protect
// (ACPOptions.Protect: the app's --data-dir).
func newACPFS(protect []string) *acpFS {
	f := &acpFS{roots: map[string]*acpRoot{}, protected: acpDefaultProtected()}
	for _, d := range protect {
		f.protected = acpAddProtected(f.protected, d)
	}
	return f
}

// close closes the roots; a later request finds none (errACPClosed).
func (f *acpFS) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	for k, r := range f.roots {
		_ = r.root.Close()
		delete(f.roots, k)
	}
}

// acpDefaultProtected is chipchat's own directories, as store, clipboard
// and ui find them.
func acpDefaultProtected() []string {
	var out []string
	home, _ := os.UserHomeDir()
	xdg := func(env string, def ...string) string {
		if d := os.Getenv(env); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "chipchat")
		}
		if home == "" {
			return ""
		}
		return filepath.Join(append(append([]string{home}, def...), "chipchat")...)
	}
	if d := os.Getenv("CHIPCHAT_HOME"); d != "" {
		out = acpAddProtected(out, d)
	}
	out = acpAddProtected(out, xdg("XDG_DATA_HOME", ".local", "share"))
	out = acpAddProtected(out, xdg("XDG_STATE_HOME", ".local", "state"))
	out = acpAddProtected(out, xdg("XDG_CONFIG_HOME", ".config"))
	out = acpAddProtected(out, xdg("XDG_CACHE_HOME", ".cache"))
	if home != "" {
		// remote.Stage's directory, whatever XDG_CACHE_HOME says.
		out = acpAddProtected(out, filepath.Join(home, ".cache", "chipchat"))
	}
	return out
}

// acpAddProtected adds d, absolute and cleaned, and its symlink-resolved
// form.
func acpAddProtected(list []string, d string) []string {
	if d == "" {
		return list
	}
	abs, err := filepath.Abs(d)
	if err != nil {
		return list
	}
	list = append(list, abs)
	if r, err := filepath.EvalSymlinks(abs); err == nil && r != abs {
		list = append(list, r)
	}
	return list
}

// errACPRootReplaced: the root's path names another directory than the
// one opened.
var errACPRootReplaced = errors.New("replaced")

// errACPClosed: the ACP was closed.
var errACPClosed = errors.New("the agent connection is closed")

// root is the opened root for path (cleaned, absolute), opening it on
// first use. When the path has come to name another directory since (the
// user re-created the project), it is opened again only if the path is
// now a real directory, not a symlink, and is still that directory once
// opened; otherwise errACPRootReplaced.
func (f *acpFS) root(path string) (*acpRoot, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, errACPClosed
	}
	if r := f.roots[path]; r != nil {
		if fi, err := os.Stat(path); err == nil && os.SameFile(fi, r.id) {
			return r, nil
		}
		lfi, err := os.Lstat(path)
		if err != nil {
			return nil, err
		}
		if !lfi.IsDir() {
			return nil, errACPRootReplaced
		}
		nr, err := acpOpenRoot(path)
		if err != nil {
			return nil, err
		}
		if !os.SameFile(lfi, nr.id) {
			_ = nr.root.Close()
			return nil, errACPRootReplaced
		}
		_ = r.root.Close()
		f.roots[path] = nr
		return nr, nil
	}
	r, err := acpOpenRoot(path)
	if err != nil {
		return nil, err
	}
	f.roots[path] = r
	return r, nil
}

func acpOpenRoot(path string) (*acpRoot, error) {
	rt, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	id, err := rt.Stat(".")
	if err != nil {
		_ = rt.Close()
		return nil, err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	return &acpRoot{path: path, real: real, root: rt, id: id}, nil
}

// acpHasGit reports whether a component of the relative path rel is named
// .git, in any case (case-insensitive file systems open .GIT as .git).
func acpHasGit(rel string) bool {
	for _, c := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
}

// acpWithin reports whether p is dir or below it (both absolute, cleaned).
func acpWithin(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}
