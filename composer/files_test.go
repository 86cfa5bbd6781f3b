// Tests of file discovery: the git listing, the .gitignore-honouring walk
// and its matcher, limits and truncation.
package composer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/internal/safegit/safegittest"
	"github.com/chipchat/chipchat/internal/testenv"
)

// filesTestWrite creates root/rel (with its directories) holding content.
func filesTestWrite(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// filesTestGit runs git in dir with a clean, deterministic environment.
func filesTestGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// filesTestNoRepoAbove keeps git from finding a repository above root, so a
// tree without .git is listed by the walk even when the temp dir sits inside
// some work tree.
func filesTestNoRepoAbove(t *testing.T, root string) {
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(root))
}

func filesTestList(t *testing.T, root string, limit int) ([]string, bool) {
	t.Helper()
	paths, truncated, err := ListFiles(context.Background(), root, limit)
	if err != nil {
		t.Fatalf("ListFiles(%s): %v", root, err)
	}
	return paths, truncated
}

func filesTestSame(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("paths\n got: %q\nwant: %q", got, want)
	}
}

func TestListFilesGit(t *testing.T) {
	testenv.NeedCommands(t, "apt-get install git", "git")
	root := t.TempDir()
	filesTestNoRepoAbove(t, root)
	filesTestGit(t, root, "init", "-q")
	filesTestWrite(t, root, ".gitignore", "*.log\nbuild/\n")
	filesTestWrite(t, root, "a.go", "package a\n")
	filesTestWrite(t, root, "sub/b.go", "package sub\n")
	filesTestWrite(t, root, "gone.txt", "x")
	filesTestWrite(t, root, "tracked.log", "tracked although ignored\n")
	filesTestGit(t, root, "add", ".gitignore", "a.go", "sub/b.go", "gone.txt")
	filesTestGit(t, root, "add", "-f", "tracked.log")
	filesTestGit(t, root, "commit", "-q", "-m", "init")
	// Untracked: one listed, two ignored; one tracked file deleted.
	filesTestWrite(t, root, "c.txt", "untracked\n")
	filesTestWrite(t, root, "debug.log", "ignored\n")
	filesTestWrite(t, root, "build/out.bin", "ignored\n")
	filesTestWrite(t, root, "sub/new file ü.md", "untracked, odd name\n")
	if err := os.Remove(filepath.Join(root, "gone.txt")); err != nil {
		t.Fatal(err)
	}

	got, truncated := filesTestList(t, root, 0)
	filesTestSame(t, got, []string{".gitignore", "a.go", "c.txt", "sub/b.go", "sub/new file ü.md", "tracked.log"})
	if truncated {
		t.Error("truncated with the default limit")
	}

	// A root below the top of the work tree lists relative to itself.
	got, _ = filesTestList(t, filepath.Join(root, "sub"), 0)
	filesTestSame(t, got, []string{"b.go", "new file ü.md"})

	got, truncated = filesTestList(t, root, 2)
	filesTestSame(t, got, []string{".gitignore", "a.go"})
	if !truncated {
		t.Error("limit 2 of 6: not reported as truncated")
	}
}

// The walk (no git repository) honours root and nested .gitignore files.
func TestListFilesWalkGitignore(t *testing.T) {
	root := t.TempDir()
	filesTestNoRepoAbove(t, root)
	filesTestWrite(t, root, ".gitignore", strings.Join([]string{
		"# a comment",
		"",
		"*.log",
		"!keep.log",
		"build/",
		"/top.txt",
		"docs/**/*.tmp",
		"cache/**",
		"**/gen/out",
		`\#hash.txt`,
		`\!bang.txt`,
		"trailing.txt   ",
		"x?.c",
		"[!a]z.c",
		"vendor",
		"!vendor/keep.go", // cannot re-include below an ignored directory
	}, "\n"))
	keep := []string{
		".gitignore",
		"a.go",
		"keep.log",
		"src/build",   // a file: build/ only matches directories
		"src/top.txt", // /top.txt is anchored to the root
		"docs/readme.md",
		"docs/x/y/b.txt",
		"cache.go",
		"gen/out.go",
		"hash.txt",
		"xab.c",
		"az.c",
		"a.gen", // nested/.gitignore does not apply at the root
		"nested/.gitignore",
		"nested/important.gen",
		"nested/deeper/.gitignore",
		"nested/deeper/local.txt", // /local.txt is anchored to nested/
		"nested/deeper/x.log",     // re-included by the deeper file
		"node_modules/pkg/index.js",
		"spaced name.txt",
		"中文/文件.md",
	}
	drop := []string{
		"debug.log",
		"src/deep/trace.log",
		"build/x.go",
		"lib/build/y.go",
		"top.txt",
		"docs/a.tmp",
		"docs/x/y/b.tmp",
		"cache/a",
		"cache/b/c",
		"gen/out",
		"src/gen/out",
		"#hash.txt",
		"!bang.txt",
		"trailing.txt",
		"xa.c",
		"bz.c",
		"vendor/keep.go",
		"vendor/lib.go",
		"nested/a.gen",
		"nested/local.txt",
		"sub/.git/config", // .git is never listed
		".git/HEAD",
	}
	for _, p := range append(slices.Clone(keep), drop...) {
		if p == ".gitignore" {
			continue
		}
		switch p {
		case "nested/.gitignore":
			filesTestWrite(t, root, p, "*.gen\n!important.gen\n/local.txt\n")
		case "nested/deeper/.gitignore":
			filesTestWrite(t, root, p, "!*.log\n")
		default:
			filesTestWrite(t, root, p, "x")
		}
	}
	// A symlinked directory is listed as an entry and not followed.
	if err := os.Symlink("src", filepath.Join(root, "linkdir")); err == nil {
		keep = append(keep, "linkdir")
	}
	got, truncated := filesTestList(t, root, 0)
	want := slices.Clone(keep)
	slices.Sort(want)
	filesTestSame(t, got, want)
	if truncated {
		t.Error("truncated")
	}
}

func TestListFilesWalkLimit(t *testing.T) {
	root := t.TempDir()
	filesTestNoRepoAbove(t, root)
	for i := range 50 {
		filesTestWrite(t, root, fmt.Sprintf("d%d/f%02d.txt", i%3, i), "x")
	}
	got, truncated := filesTestList(t, root, 10)
	if len(got) != 10 || !truncated {
		t.Errorf("limit 10: %d paths, truncated=%v", len(got), truncated)
	}
	if !slices.IsSorted(got) {
		t.Errorf("not sorted: %q", got)
	}
	got, truncated = filesTestList(t, root, 50)
	if len(got) != 50 || truncated {
		t.Errorf("limit 50 of 50: %d paths, truncated=%v", len(got), truncated)
	}
	got, truncated = filesTestList(t, root, -1)
	if len(got) != 50 || truncated {
		t.Errorf("default limit: %d paths, truncated=%v", len(got), truncated)
	}
}

func TestListFilesErrors(t *testing.T) {
	if _, _, err := ListFiles(context.Background(), filepath.Join(t.TempDir(), "missing"), 0); err == nil {
		t.Error("missing root: no error")
	}
	root := t.TempDir()
	filesTestNoRepoAbove(t, root)
	filesTestWrite(t, root, "f", "x")
	if _, _, err := ListFiles(context.Background(), filepath.Join(root, "f"), 0); err == nil {
		t.Error("root is a file: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := ListFiles(ctx, root, 0); err == nil {
		t.Error("cancelled context: no error")
	}
}

func TestLoadFilesMsg(t *testing.T) {
	root := t.TempDir()
	filesTestNoRepoAbove(t, root)
	filesTestWrite(t, root, "one.go", "x")
	msg, ok := LoadFiles(root, 0)().(FilesLoadedMsg)
	if !ok {
		t.Fatal("LoadFiles did not produce a FilesLoadedMsg")
	}
	if msg.Root != root || msg.Err != nil || msg.Truncated || !slices.Equal(msg.Paths, []string{"one.go"}) {
		t.Errorf("got %+v", msg)
	}
}

func TestFilesGitignoreMatcher(t *testing.T) {
	cases := []struct {
		rules string
		path  string
		dir   bool
		want  bool
	}{
		{"*.o", "a/b/c.o", false, true},
		{"/a.o", "b/a.o", false, false},
		{"a/*.o", "a/b/c.o", false, false},
		{"a/**/c.o", "a/c.o", false, true},
		{"a/**/c.o", "a/x/y/c.o", false, true},
		{"**/c.o", "x/y/c.o", false, true},
		{"a/**", "a", true, false},
		{"a/**", "a/b", true, true},
		{"out/", "x/out", false, false},
		{"out/", "x/out", true, true},
		{"*.o\n!keep.o", "keep.o", false, false},
		{"!keep.o\n*.o", "keep.o", false, true}, // the last match wins
		{"f?o", "foo", false, true},
		{"f?o", "f/o", false, false},
		{"[!x]y", "ay", false, true},
		{"[!x]y", "xy", false, false},
		{"a\\ ", "a ", false, true},
		{"doc/frotz/", "doc/frotz", true, true},
		{"doc/frotz/", "a/doc/frotz", true, false},
		{"[[:alpha:]]", "a", false, false}, // unsupported class: no match, no panic
	}
	for _, c := range cases {
		f := parseGitignore("", []byte(c.rules))
		if got := filesIgnored([]*filesIgnoreFile{f}, c.path, c.dir); got != c.want {
			t.Errorf("rules %q, path %q (dir=%v): ignored=%v, want %v", c.rules, c.path, c.dir, got, c.want)
		}
	}
	// A nested file applies relative to its directory only.
	nested := parseGitignore("sub", []byte("/x\n"))
	if !filesIgnored([]*filesIgnoreFile{nested}, "sub/x", false) || filesIgnored([]*filesIgnoreFile{nested}, "x", false) ||
		filesIgnored([]*filesIgnoreFile{nested}, "sub/y/x", false) || filesIgnored([]*filesIgnoreFile{nested}, "subx/x", false) {
		t.Error("nested anchored rule applied outside its directory")
	}
}

// TestListFilesRunsNoRepositoryProgram: in a repository whose config,
// hooks and attributes name a marker-writing program for everything that
// can run one, the `@` list runs none of them (plain git there does:
// Arm).
func TestListFilesRunsNoRepositoryProgram(t *testing.T) {
	r := safegittest.New(t)
	r.Arm(t)
	paths, _ := filesTestList(t, r.Dir, 0)
	for _, want := range []string{"main.go", "clean.txt", "untracked.txt", ".gitattributes"} {
		if !slices.Contains(paths, want) {
			t.Errorf("%s not listed: %q", want, paths)
		}
	}
	if ran := r.Ran(); len(ran) > 0 {
		t.Errorf("listing the files ran %q", ran)
	}
}
