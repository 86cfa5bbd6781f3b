package remote

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// fileLister is what FileCache lists through (a *Conn).
type fileLister interface {
	ListFiles(ctx context.Context, limit int) ([]string, bool, error)
}

// FileCache is a remote project's `@` file list kept on this machine (in
// memory and in a file, so the next start has it at once): ListFiles
// answers from it without waiting for the network and refreshes it in the
// background (one refresh at a time); only the very first listing, with
// nothing cached, waits for the remote.
type FileCache struct {
	lister fileLister
	path   string // the cache file; "" keeps it in memory only

	mu         sync.Mutex
	paths      []string
	truncated  bool
	have       bool
	refreshing bool
	refreshed  chan struct{} // closed when the running refresh ends
}

// NewFileCache is the cache of c's file list in the file path (made with
// its directory when first written; "" for none).
func NewFileCache(c *Conn, path string) *FileCache { return newFileCache(c, path) }

func newFileCache(l fileLister, path string) *FileCache {
	f := &FileCache{lister: l, path: path}
	if paths, truncated, ok := readCacheFile(path); ok {
		f.paths, f.truncated, f.have = paths, truncated, true
	}
	return f
}

// cacheMagic heads the cache file; the paths follow NUL-terminated.
const cacheMagic = "chipchat-files 1 "

// ListFiles returns the cached list (at most limit; DefaultFileLimit when
// ≤ 0) and starts a refresh in the background; with nothing cached it
// lists the remote and waits.
func (f *FileCache) ListFiles(ctx context.Context, limit int) ([]string, bool, error) {
	if limit <= 0 {
		limit = DefaultFileLimit
	}
	f.mu.Lock()
	if !f.have {
		f.mu.Unlock()
		paths, truncated, err := f.lister.ListFiles(ctx, DefaultFileLimit)
		if err != nil {
			return nil, false, err
		}
		f.store(paths, truncated)
		return cut(paths, truncated, limit)
	}
	paths, truncated := f.paths, f.truncated
	f.refreshLocked()
	f.mu.Unlock()
	return cut(paths, truncated, limit)
}

// Refreshed is closed when the refresh running now (if any) has ended.
func (f *FileCache) Refreshed() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refreshed == nil {
		c := make(chan struct{})
		close(c)
		return c
	}
	return f.refreshed
}

func (f *FileCache) refreshLocked() {
	if f.refreshing {
		return
	}
	f.refreshing = true
	done := make(chan struct{})
	f.refreshed = done
	go func() {
		defer close(done)
		paths, truncated, err := f.lister.ListFiles(context.Background(), DefaultFileLimit)
		if err == nil {
			f.store(paths, truncated)
		}
		f.mu.Lock()
		f.refreshing = false
		f.mu.Unlock()
	}()
}

func (f *FileCache) store(paths []string, truncated bool) {
	f.mu.Lock()
	f.paths, f.truncated, f.have = paths, truncated, true
	f.mu.Unlock()
	_ = writeCacheFile(f.path, paths, truncated) // a cache: losing it costs one wait
}

func cut(paths []string, truncated bool, limit int) ([]string, bool, error) {
	if len(paths) > limit {
		return paths[:limit:limit], true, nil
	}
	return paths, truncated, nil
}

func readCacheFile(path string) ([]string, bool, bool) {
	if path == "" {
		return nil, false, false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false, false
	}
	head, rest, ok := bytes.Cut(b, []byte{0})
	if !ok || !strings.HasPrefix(string(head), cacheMagic) {
		return nil, false, false
	}
	truncated := strings.TrimPrefix(string(head), cacheMagic) == "truncated"
	var paths []string
	for _, p := range strings.Split(string(rest), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, truncated, true
}

func writeCacheFile(path string, paths []string, truncated bool) error {
	if path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(cacheMagic)
	if truncated {
		b.WriteString("truncated")
	} else {
		b.WriteString("complete")
	}
	b.WriteByte(0)
	for _, p := range paths {
		if strings.Contains(p, "\x00") {
			return errors.New("remote: a path holds NUL")
		}
		b.WriteString(p)
		b.WriteByte(0)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
