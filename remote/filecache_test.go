package remote

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fakeLister answers with what list holds and counts the calls; block,
// when not nil, holds each call until it is closed.
type fakeLister struct {
	mu    sync.Mutex
	list  []string
	err   error
	calls int
	block chan struct{}
}

func (l *fakeLister) ListFiles(context.Context, int) ([]string, bool, error) {
	l.mu.Lock()
	l.calls++
	b := l.block
	l.mu.Unlock()
	if b != nil {
		<-b
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.list), false, l.err
}

func (l *fakeLister) set(list ...string) { l.mu.Lock(); l.list = list; l.mu.Unlock() }

// The first listing asks the remote; later ones answer from the cache at
// once, while the remote is slow, and the background refresh brings the
// change for the next; a new cache on the same file (the next start)
// answers without the remote.
func TestFileCacheAnswersAtOnceAndRefreshes(t *testing.T) {
	ctx := context.Background()
	l := &fakeLister{list: []string{"a.go"}}
	path := filepath.Join(t.TempDir(), "files", "cache")
	c := newFileCache(l, path)
	got, _, err := c.ListFiles(ctx, 0)
	if err != nil || !slices.Equal(got, []string{"a.go"}) {
		t.Fatalf("first = %q, %v", got, err)
	}
	l.set("a.go", "b.go")
	block := make(chan struct{})
	l.mu.Lock()
	l.block = block
	l.mu.Unlock()
	got, _, _ = c.ListFiles(ctx, 0) // the refresh is held: the cache answers
	if !slices.Equal(got, []string{"a.go"}) {
		t.Fatalf("cached = %q", got)
	}
	close(block)
	<-c.Refreshed()
	got, _, _ = c.ListFiles(ctx, 0)
	if !slices.Equal(got, []string{"a.go", "b.go"}) {
		t.Fatalf("after the refresh = %q", got)
	}
	<-c.Refreshed()

	l2 := &fakeLister{err: errors.New("offline")}
	c2 := newFileCache(l2, path)
	got, _, err = c2.ListFiles(ctx, 1)
	if err != nil || !slices.Equal(got, []string{"a.go"}) {
		t.Fatalf("next start, limit 1 = %q, %v", got, err)
	}
	<-c2.Refreshed()
	got, _, _ = c2.ListFiles(ctx, 0) // a failed refresh keeps the list
	if !slices.Equal(got, []string{"a.go", "b.go"}) {
		t.Fatalf("after a failed refresh = %q", got)
	}
	<-c2.Refreshed()
}

// With nothing cached, a failure is the listing's error.
func TestFileCacheFirstFailureIsAnError(t *testing.T) {
	c := newFileCache(&fakeLister{err: errors.New("remote: h: unreachable")}, "")
	if _, _, err := c.ListFiles(context.Background(), 0); err == nil {
		t.Fatal("no error")
	}
}

// FuzzReadCacheFile reads any file as a cache without a panic, gives
// paths without NUL, and reads back what it wrote.
func FuzzReadCacheFile(f *testing.F) {
	f.Add([]byte(cacheMagic + "complete\x00a\x00b/c\x00"))
	f.Add([]byte(cacheMagic + "truncated\x00"))
	f.Add([]byte("junk"))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "cache")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		paths, truncated, ok := readCacheFile(path)
		if !ok {
			return
		}
		for _, p := range paths {
			if p == "" || strings.Contains(p, "\x00") {
				t.Fatalf("path %q", p)
			}
		}
		if err := writeCacheFile(path, paths, truncated); err != nil {
			t.Fatal(err)
		}
		again, tr2, ok := readCacheFile(path)
		if !ok || tr2 != truncated || !slices.Equal(again, paths) {
			t.Fatalf("round trip: %q %v, want %q %v", again, tr2, paths, truncated)
		}
	})
}
