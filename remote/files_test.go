package remote

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/testenv"
)

func writeTree(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestListFilesGit(t *testing.T) {
	testenv.NeedCommands(t, "apt-get install git", "git")
	s, c := newConn(t, Options{})
	root := c.Target().Path
	writeTree(t, root, "tracked.go", "dir/sub/deep.txt", "gone.txt", "ignored.log", ".gitignore", "untracked.md", "with space.txt")
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "tracked.go", "gone.txt", "dir", ".gitignore"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	os.Remove(filepath.Join(root, "gone.txt"))
	s.HandOver(t) // git refuses a repository of another user's
	paths, truncated, err := c.ListFiles(context.Background(), 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, s.Log())
	}
	want := []string{".gitignore", "dir/sub/deep.txt", "tracked.go", "untracked.md", "with space.txt"}
	if !slices.Equal(paths, want) || truncated {
		t.Fatalf("ListFiles = %q (truncated %v), want %q", paths, truncated, want)
	}
	paths, truncated, err = c.ListFiles(context.Background(), 2)
	if err != nil || len(paths) != 2 || !truncated {
		t.Fatalf("limit 2: %q, %v, %v", paths, truncated, err)
	}
}

func TestListFilesFind(t *testing.T) {
	_, c := newConn(t, Options{})
	root := c.Target().Path
	writeTree(t, root, "a.txt", "x/b.txt", "node_modules/m/index.js", ".git/config", "x/y/z/c.txt")
	paths, truncated, err := c.ListFiles(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.txt", "x/b.txt", "x/y/z/c.txt"}
	if !slices.Equal(paths, want) || truncated {
		t.Fatalf("ListFiles = %q (truncated %v), want %q", paths, truncated, want)
	}
}

func TestReadFileList(t *testing.T) {
	paths, truncated := readFileList(strings.NewReader("b\x00./a\x00dir/\x00gone\x00b\x00\x00gone\x00"), 10)
	if want := []string{"a", "b", "dir"}; !slices.Equal(paths, want) || truncated {
		t.Fatalf("readFileList = %q, %v; want %q", paths, truncated, want)
	}
	paths, truncated = readFileList(strings.NewReader("c\x00b\x00a\x00d\x00"), 2)
	if len(paths) != 2 || !truncated {
		t.Fatalf("limit 2: %q, %v", paths, truncated)
	}
}

func FuzzReadFileList(f *testing.F) {
	f.Add([]byte("b\x00./a\x00dir/\x00\x00gone\x00"), 3)
	f.Add([]byte("x"), 1)
	f.Add([]byte("././a\x00"), 2)
	f.Fuzz(func(t *testing.T, b []byte, limit int) {
		if limit <= 0 || limit > 1000 {
			limit = 1000
		}
		paths, _ := readFileList(bytes.NewReader(b), limit)
		if len(paths) > limit || !slices.IsSorted(paths) {
			t.Fatalf("%d paths (limit %d), sorted %v", len(paths), limit, slices.IsSorted(paths))
		}
		for i, p := range paths {
			if p == "" || strings.Contains(p, "\x00") || strings.HasPrefix(p, "./") || (i > 0 && paths[i-1] == p) {
				t.Fatalf("path %q in %q", p, paths)
			}
		}
	})
}
