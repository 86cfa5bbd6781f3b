// File discovery for the `@` mention picker.
//
// ListFiles lists the project's files relative to a root: through
// `git ls-files` when the root is inside a git work tree (tracked files plus
// untracked files that are not ignored, minus tracked files deleted from the
// work tree), otherwise through a bounded directory walk that honours the
// .gitignore files of the root and of every directory below it. LoadFiles
// wraps it in a tea.Cmd so that the listing never runs on the UI goroutine
// (and never in View).
//
// Decisions: paths use forward slashes and are sorted and deduplicated; the
// walk lists regular files and symlinks (a symlinked directory is listed as an
// entry but never followed), skips every `.git` entry, and does not skip
// node_modules-like directories unless an ignore rule does. Git runs through
// internal/safegit: no program the repository's config or attributes name
// (fsmonitor, hooks, filters, ...) runs, without optional locks, and with the
// GIT_DIR-style variables of our own environment removed so that the root
// alone chooses the repository.

package composer

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/internal/safegit"
)

// DefaultFileLimit is the number of paths ListFiles returns at most when the
// caller passes a limit ≤ 0.
const DefaultFileLimit = 20000

// filesLoadTimeout bounds one LoadFiles run (a hung git must not leave the
// picker loading forever).
const filesLoadTimeout = 30 * time.Second

// FilesLoadedMsg reports the result of LoadFiles. Root is the root that was
// listed, so that a result arriving for a stale root can be ignored.
type FilesLoadedMsg struct {
	Root      string
	Paths     []string
	Truncated bool
	Err       error
}

// LoadFiles returns a command that lists the files under root (see
// ListFiles) off the UI goroutine and reports a FilesLoadedMsg whose Paths
// are the files and the directories holding them, a directory with a
// trailing "/" (WithDirs): a directory mentioned is sent as its listing.
func LoadFiles(root string, limit int) tea.Cmd { return LoadFilesWith(nil, root, limit) }

// LoadFilesWith is LoadFiles through list (Options.Files; nil: ListFiles
// of root).
func LoadFilesWith(list func(ctx context.Context, limit int) ([]string, bool, error), root string, limit int) tea.Cmd {
	if list == nil {
		list = func(ctx context.Context, limit int) ([]string, bool, error) { return ListFiles(ctx, root, limit) }
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), filesLoadTimeout)
		defer cancel()
		paths, truncated, err := list(ctx, limit)
		return FilesLoadedMsg{Root: root, Paths: WithDirs(paths), Truncated: truncated, Err: err}
	}
}

// WithDirs returns the sorted paths with every directory that holds one of
// them added, written with a trailing "/" ("src/" before "src/main.go").
// A directory with no listed file in it (empty, or all of it ignored) is
// not offered.
func WithDirs(paths []string) []string {
	out := make([]string, 0, len(paths)+len(paths)/4)
	seen := map[string]bool{}
	for _, p := range paths {
		for i := 0; i < len(p); i++ {
			if p[i] != '/' {
				continue
			}
			if d := p[:i+1]; !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
		out = append(out, p)
	}
	return filesSortUnique(out)
}

// ListFiles lists the files under root as sorted, deduplicated paths relative
// to root with forward slashes. Inside a git work tree it asks git
// (`ls-files --cached --others --exclude-standard`); elsewhere, or when git
// is missing or fails, it walks the tree honouring .gitignore files. At most
// limit paths are returned (DefaultFileLimit when limit ≤ 0); truncated
// reports that more existed. An error is returned only when root itself
// cannot be listed or ctx ends.
func ListFiles(ctx context.Context, root string, limit int) ([]string, bool, error) {
	if limit <= 0 {
		limit = DefaultFileLimit
	}
	if root == "" {
		root = "."
	}
	info, err := os.Stat(root)
	if err != nil {
		return nil, false, err
	}
	if !info.IsDir() {
		return nil, false, &os.PathError{Op: "list files", Path: root, Err: errors.New("not a directory")}
	}
	if paths, ok, err := filesFromGit(ctx, root); err != nil {
		return nil, false, err
	} else if ok {
		paths = filesSortUnique(paths)
		if len(paths) > limit {
			return paths[:limit:limit], true, nil
		}
		return paths, false, nil
	}
	w := &filesWalker{ctx: ctx, root: root, limit: limit, maxVisit: max(limit*20, 100000)}
	if err := w.walk("", nil); err != nil {
		return nil, false, err
	}
	return filesSortUnique(w.out), w.truncated, nil
}

// filesSortUnique sorts paths in place and removes duplicates.
func filesSortUnique(paths []string) []string {
	slices.Sort(paths)
	return slices.Compact(paths)
}

// ---- git ----

// filesGit runs git with args in dir and returns its standard output.
func filesGit(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := safegit.Command(ctx, "", dir, append([]string{"-c", "core.quotepath=off"}, args...)...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	return stdout.Bytes(), err
}

// filesFromGit lists root through git. ok is false when root is not inside a
// work tree or git is unavailable or fails (the caller walks instead); err is
// set only when ctx ended.
func filesFromGit(ctx context.Context, root string) (paths []string, ok bool, err error) {
	out, gerr := filesGit(ctx, root, "rev-parse", "--is-inside-work-tree")
	if ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	if gerr != nil || strings.TrimSpace(string(out)) != "true" {
		return nil, false, nil
	}
	out, gerr = filesGit(ctx, root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	if gerr != nil {
		return nil, false, nil
	}
	deleted := map[string]bool{}
	if del, derr := filesGit(ctx, root, "ls-files", "-z", "--deleted"); derr == nil {
		for _, p := range filesSplitZ(del) {
			deleted[p] = true
		}
	}
	if ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	all := filesSplitZ(out)
	paths = all[:0]
	for _, p := range all {
		// An untracked nested repository shows as "dir/".
		p = strings.TrimSuffix(p, "/")
		if p == "" || deleted[p] {
			continue
		}
		paths = append(paths, p)
	}
	return paths, true, nil
}

// filesSplitZ splits NUL-terminated git output.
func filesSplitZ(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			i = len(b)
		}
		if i > 0 {
			out = append(out, string(b[:i]))
		}
		if i == len(b) {
			break
		}
		b = b[i+1:]
	}
	return out
}

// ---- walk ----

// filesWalker is one bounded walk of a tree without git.
type filesWalker struct {
	ctx       context.Context
	root      string
	limit     int
	maxVisit  int // entries examined at most, ignored ones included
	visited   int
	out       []string
	truncated bool
}

// walk lists the directory dirRel (relative to the root, "" for the root)
// with the ignore files of its ancestors in stack (outermost first).
func (w *filesWalker) walk(dirRel string, stack []*filesIgnoreFile) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	abs := filepath.Join(w.root, filepath.FromSlash(dirRel))
	entries, err := os.ReadDir(abs)
	if err != nil {
		if dirRel == "" {
			return err
		}
		return nil // an unreadable subdirectory is skipped
	}
	if f := filesReadIgnore(abs, dirRel); f != nil {
		stack = append(stack[:len(stack):len(stack)], f)
	}
	for _, e := range entries {
		if w.truncated {
			return nil
		}
		if w.visited++; w.visited > w.maxVisit {
			w.truncated = true
			return nil
		}
		if w.visited%1024 == 0 {
			if err := w.ctx.Err(); err != nil {
				return err
			}
		}
		name := e.Name()
		if name == ".git" {
			continue
		}
		rel := name
		if dirRel != "" {
			rel = dirRel + "/" + name
		}
		typ := e.Type()
		isDir := typ.IsDir() // a symlink is never a directory here: not followed
		if !isDir && !typ.IsRegular() && typ&os.ModeSymlink == 0 {
			continue // sockets, pipes, devices
		}
		if filesIgnored(stack, rel, isDir) {
			continue
		}
		if isDir {
			if err := w.walk(rel, stack); err != nil {
				return err
			}
			continue
		}
		if len(w.out) >= w.limit {
			w.truncated = true
			return nil
		}
		w.out = append(w.out, rel)
	}
	return nil
}

// filesMaxIgnoreSize bounds the .gitignore files read by the walk.
const filesMaxIgnoreSize = 1 << 20

// filesReadIgnore reads dir/.gitignore when it is a regular file (never a
// pipe that would block) and returns its rules, or nil.
func filesReadIgnore(dirAbs, dirRel string) *filesIgnoreFile {
	p := filepath.Join(dirAbs, ".gitignore")
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() || info.Size() > filesMaxIgnoreSize {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	f := parseGitignore(dirRel, data)
	if len(f.rules) == 0 {
		return nil
	}
	return f
}

// ---- .gitignore matcher ----

// filesIgnoreFile is the parsed content of one .gitignore file.
type filesIgnoreFile struct {
	base  string // its directory relative to the root, "" for the root
	rules []filesIgnoreRule
}

// filesIgnoreRule is one pattern line.
type filesIgnoreRule struct {
	segs     []string // anchored: the pattern split on "/"; else one segment matched against the base name
	negate   bool
	dirOnly  bool
	anchored bool
}

// parseGitignore parses a .gitignore located in the directory base (relative
// to the walk root). Supported: blank lines, # comments, \# and \! escapes,
// trailing spaces (unless escaped), ! negation, trailing / (directories
// only), a leading or middle / (anchored to base), *, ?, [...] classes and **
// (leading, trailing and middle).
func parseGitignore(base string, data []byte) *filesIgnoreFile {
	f := &filesIgnoreFile{base: base}
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		line = filesTrimTrailingSpaces(line)
		if line == "" || line[0] == '#' {
			continue
		}
		var r filesIgnoreRule
		if line[0] == '!' {
			r.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		if strings.Contains(line, "/") {
			r.anchored = true
			line = strings.TrimPrefix(line, "/")
		}
		line = filesFixClasses(line)
		if r.anchored {
			for s := range strings.SplitSeq(line, "/") {
				if s == "" {
					continue // "a//b" behaves as "a/b"
				}
				if s == "**" && len(r.segs) > 0 && r.segs[len(r.segs)-1] == "**" {
					continue
				}
				r.segs = append(r.segs, s)
			}
			if len(r.segs) == 0 {
				continue
			}
		} else {
			r.segs = []string{line}
		}
		f.rules = append(f.rules, r)
	}
	return f
}

// filesTrimTrailingSpaces removes trailing spaces that are not escaped with a
// backslash (an escaped one is kept, with its backslash, for path.Match).
func filesTrimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		if strings.HasSuffix(s, `\ `) {
			return s
		}
		s = s[:len(s)-1]
	}
	return s
}

// filesFixClasses turns git's negated class "[!" into path.Match's "[^".
func filesFixClasses(p string) string {
	if !strings.Contains(p, "[!") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\\' && i+1 < len(p) {
			b.WriteByte(c)
			b.WriteByte(p[i+1])
			i++
			continue
		}
		b.WriteByte(c)
		if c == '[' && i+1 < len(p) && p[i+1] == '!' {
			b.WriteByte('^')
			i++
		}
	}
	return b.String()
}

// filesIgnored reports whether rel (relative to the root) is ignored by the
// stack of ignore files, outermost first: the last matching rule wins, and a
// deeper file comes after its ancestors.
func filesIgnored(stack []*filesIgnoreFile, rel string, isDir bool) bool {
	ignored := false
	for _, f := range stack {
		sub := rel
		if f.base != "" {
			if !strings.HasPrefix(rel, f.base+"/") {
				continue
			}
			sub = rel[len(f.base)+1:]
		}
		var parts []string
		base := path.Base(sub)
		for i := range f.rules {
			r := &f.rules[i]
			if r.dirOnly && !isDir {
				continue
			}
			var hit bool
			if r.anchored {
				if parts == nil {
					parts = strings.Split(sub, "/")
				}
				hit = filesMatchSegs(r.segs, parts)
			} else {
				hit = filesMatchSeg(r.segs[0], base)
			}
			if hit {
				ignored = !r.negate
			}
		}
	}
	return ignored
}

// filesMatchSeg matches one path segment; a malformed pattern matches nothing.
func filesMatchSeg(pattern, name string) bool {
	ok, err := path.Match(pattern, name)
	return err == nil && ok
}

// filesMatchSegs matches pattern segments against path segments: "**" spans
// zero or more segments, except at the end where it spans one or more (so
// "dir/**" matches what is inside dir but not dir itself).
func filesMatchSegs(pat, parts []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			rest := pat[1:]
			if len(rest) == 0 {
				return len(parts) >= 1
			}
			for i := 0; i <= len(parts); i++ {
				if filesMatchSegs(rest, parts[i:]) {
					return true
				}
			}
			return false
		}
		if len(parts) == 0 || !filesMatchSeg(pat[0], parts[0]) {
			return false
		}
		pat, parts = pat[1:], parts[1:]
	}
	return len(parts) == 0
}
