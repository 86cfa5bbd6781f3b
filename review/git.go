package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chipchat/chipchat/internal/safegit"
)

// CompareKind says what a diff compares.
type CompareKind int

// Comparisons.
const (
	// WorkingTree is the working tree (untracked files included) against
	// HEAD: what `git diff HEAD` shows, plus new files.
	WorkingTree CompareKind = iota
	// Staged is the index against HEAD (`git diff --cached`).
	Staged
	// AgainstRef is the working tree against a branch or commit, compared
	// from its merge base with HEAD as a pull request is (for a commit that
	// HEAD contains, the commit itself).
	AgainstRef
	// Agent is one tool-call diff of an agent.
	Agent
)

// Comparison names a diff: its kind and, for AgainstRef, the ref.
type Comparison struct {
	Kind CompareKind
	Ref  string
}

// Title names the comparison for people and for the record's sectionTitle.
func (c Comparison) Title() string {
	switch c.Kind {
	case Staged:
		return "Staged vs HEAD"
	case AgainstRef:
		return "Working tree vs " + c.Ref
	case Agent:
		return "Agent edit"
	}
	return "Working tree vs HEAD"
}

// key identifies the comparison in section ids.
func (c Comparison) key() string {
	switch c.Kind {
	case Staged:
		return "staged"
	case AgainstRef:
		return "ref:" + c.Ref
	case Agent:
		return "agent"
	}
	return "worktree"
}

// ParseArgs reads the arguments of `/review`: nothing → the working tree
// against HEAD; "staged", "--staged" or "--cached" → the index; one other
// word → that branch or commit.
func ParseArgs(args string) (Comparison, error) {
	f := strings.Fields(args)
	switch {
	case len(f) == 0:
		return Comparison{Kind: WorkingTree}, nil
	case len(f) > 1:
		return Comparison{}, errors.New("review: one branch or commit, or --staged")
	}
	switch f[0] {
	case "staged", "--staged", "--cached", "cached":
		return Comparison{Kind: Staged}, nil
	}
	if strings.HasPrefix(f[0], "-") {
		return Comparison{}, fmt.Errorf("review: unknown option %q", f[0])
	}
	return Comparison{Kind: AgainstRef, Ref: f[0]}, nil
}

// Diff is a loaded diff, ready for the pane.
type Diff struct {
	Comparison Comparison
	Files      []*File
	// Root is the repository root (for an agent diff, the project
	// directory); Prefix is the project directory relative to Root, with a
	// trailing slash ("" at the root): file paths in Files are relative to
	// Root, records' paths to the project directory.
	Root, Prefix string
	// Head is the commit HEAD pointed at when the diff was read ("" when
	// unknown: no repository, no commit yet).
	Head string
}

// Git runs git for the pane. The zero value runs "git" from PATH.
type Git struct {
	// Command is the git executable ("git" when empty).
	Command string
	// Timeout bounds each git call (30 s when zero).
	Timeout time.Duration
	// Exec runs git elsewhere (a remote project's) when set: argv from
	// "git" on, in dir there, with env added there (safegit's settings;
	// the repository's drivers are not known here). nil runs Command here
	// through internal/safegit. Untracked files are then read through it
	// too (head -c), as regular files.
	Exec func(ctx context.Context, dir string, argv, env []string) (*exec.Cmd, error)

	// env is the safe environment of one Load's commands here, made once
	// (pinned): nil makes it per command.
	env []string
}

// pinned is g with the environment of its commands here made once for
// dir's repository: one listing of its config's drivers for all the
// commands of a Load, not one before each (a git process each).
func (g Git) pinned(ctx context.Context, dir string) Git {
	if g.Exec == nil {
		g.env = append(safegit.Environ(ctx, g.Command, dir, os.Environ()), "LC_ALL=C")
	}
	return g
}

// command is git args in dir: here through safegit, or through Exec.
func (g Git) command(ctx context.Context, dir string, args ...string) (*exec.Cmd, error) {
	if g.Exec != nil {
		return g.Exec(ctx, dir, append([]string{"git"}, safegit.Args(args...)...), append(safegit.StaticEnv(), "LC_ALL=C"))
	}
	name := g.Command
	if name == "" {
		name = "git"
	}
	if g.env != nil {
		cmd := exec.CommandContext(ctx, name, safegit.Args(args...)...)
		cmd.Dir, cmd.Env = dir, g.env
		return cmd, nil
	}
	cmd := safegit.Command(ctx, name, dir, args...)
	cmd.Env = append(cmd.Env, "LC_ALL=C")
	return cmd, nil
}

// emptyTree is git's well-known empty tree: the base of a repository with
// no commit yet.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// maxDiffBytes bounds the diff text read from git.
const maxDiffBytes = 64 << 20

// untrackedListBytes bounds the list of untracked names read from git
// (a variable for tests).
var untrackedListBytes int64 = 1 << 20

// maxUntracked bounds the untracked files shown and the bytes read of each.
const (
	maxUntracked      = 500
	maxUntrackedBytes = 1 << 20
)

// errTooMuch is run's error for output past its limit; the data read so
// far comes with it.
var errTooMuch = errors.New("output too large")

func (g Git) run(ctx context.Context, dir string, limit int64, args ...string) ([]byte, error) {
	timeout := g.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Settings that would change the output's shape are pinned; those
	// that would run a program the repository names are off
	// (safegit.Command; the list is in doc.go).
	full := append([]string{"-c", "core.quotepath=off", "-c", "color.ui=false", "-c", "diff.noprefix=false",
		"-c", "diff.mnemonicPrefix=false", "-c", "diff.relative=false", "-c", "core.safecrlf=false"}, args...)
	cmd, err := g.command(ctx, dir, full...)
	if err != nil {
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	data, rerr := io.ReadAll(io.LimitReader(out, limit+1))
	if int64(len(data)) > limit {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return data[:limit], fmt.Errorf("git %s: %w (over %d MiB)", args[0], errTooMuch, limit>>20)
	}
	err = cmd.Wait()
	if rerr != nil && err == nil {
		err = rerr
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg != "" {
			return nil, fmt.Errorf("git %s: %s", args[0], msg)
		}
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return data, nil
}

func (g Git) line(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := g.run(ctx, dir, 1<<20, args...)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(out), "\r\n"), nil
}

// Head is the commit HEAD points at in dir ("" without a commit or a
// repository).
func (g Git) Head(ctx context.Context, dir string) string {
	h, err := g.line(ctx, dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return ""
	}
	return h
}

// Load reads the diff of the comparison for the project in projectDir.
func (g Git) Load(ctx context.Context, projectDir string, cmp Comparison) (*Diff, error) {
	if cmp.Kind == Agent {
		return nil, errors.New("review: an agent diff is not read from git")
	}
	g = g.pinned(ctx, projectDir)
	// The root and the prefix in one git: a line each (the prefix's empty
	// at the root).
	both, err := g.run(ctx, projectDir, 1<<20, "rev-parse", "--show-toplevel", "--show-prefix")
	if err != nil {
		return nil, fmt.Errorf("review: not a git repository: %w", err)
	}
	root, prefix, _ := strings.Cut(strings.TrimRight(string(both), "\r\n"), "\n")
	root, prefix = strings.TrimRight(root, "\r"), strings.TrimRight(prefix, "\r")
	d := &Diff{Comparison: cmp, Root: root, Prefix: prefix, Head: g.Head(ctx, root)}
	base := d.Head
	if base == "" {
		base = emptyTree
	}
	args := []string{"diff", "--no-color", "-U3", "-M",
		"--src-prefix=a/", "--dst-prefix=b/"}
	switch cmp.Kind {
	case Staged:
		args = append(args, "--cached", base)
	case AgainstRef:
		if cmp.Ref == "" || strings.HasPrefix(cmp.Ref, "-") {
			return nil, fmt.Errorf("review: bad ref %q", cmp.Ref)
		}
		commit, err := g.line(ctx, root, "rev-parse", "--verify", "--quiet", cmp.Ref+"^{commit}")
		if err != nil || commit == "" {
			return nil, fmt.Errorf("review: no branch or commit named %q", cmp.Ref)
		}
		from := commit
		if d.Head != "" {
			if mb, err := g.line(ctx, root, "merge-base", commit, d.Head); err == nil && mb != "" {
				from = mb
			}
		}
		args = append(args, from)
	default:
		args = append(args, base)
	}
	args = append(args, "--")
	// The untracked files are listed and read while git diffs.
	type listed struct {
		files []*File
		err   error
	}
	var untracked chan listed
	if cmp.Kind != Staged {
		untracked = make(chan listed, 1)
		go func() {
			files, err := g.untracked(ctx, root)
			untracked <- listed{files, err}
		}()
	}
	out, err := g.run(ctx, root, maxDiffBytes, args...)
	var u listed
	if untracked != nil {
		u = <-untracked
	}
	if err != nil {
		return nil, err
	}
	files, err := ParseUnified(out)
	if err != nil {
		return nil, fmt.Errorf("review: reading git's diff: %w", err)
	}
	d.Files = files
	if u.err != nil {
		return nil, u.err
	}
	d.Files = append(d.Files, u.files...)
	return d, nil
}

// untracked makes a new-file diff of each untracked, not ignored file.
func (g Git) untracked(ctx context.Context, root string) ([]*File, error) {
	// The first maxUntracked names are enough: a huge untracked tree is cut,
	// not an error.
	out, err := g.run(ctx, root, untrackedListBytes, "ls-files", "--others", "--exclude-standard", "-z", "--full-name")
	if err != nil && !errors.Is(err, errTooMuch) {
		return nil, err
	}
	if errors.Is(err, errTooMuch) {
		if i := strings.LastIndexByte(string(out), 0); i >= 0 {
			out = out[:i+1]
		}
	}
	var files []*File
	for _, name := range strings.Split(string(out), "\x00") {
		if name == "" {
			continue
		}
		if len(files) == maxUntracked {
			break
		}
		if g.Exec != nil {
			files = append(files, g.untrackedThere(ctx, root, name))
			continue
		}
		files = append(files, untrackedFile(root, name))
	}
	return files, nil
}

func untrackedFile(root, name string) *File {
	f := &File{NewPath: name, Status: Added, Untracked: true, NewMode: "100644"}
	full := filepath.Join(root, filepath.FromSlash(name))
	fi, err := os.Lstat(full)
	if err != nil {
		f.Note = "cannot be read"
		return f
	}
	var text string
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		f.NewMode = "120000"
		target, err := os.Readlink(full)
		if err != nil {
			f.Note = "cannot be read"
			return f
		}
		text = target // git shows the target with no newline at the end
	case !fi.Mode().IsRegular():
		f.Note = "not a regular file"
		return f
	case fi.Size() > maxUntrackedBytes:
		f.Note = fmt.Sprintf("too large to show (%d bytes)", fi.Size())
		return f
	default:
		if fi.Mode()&0o111 != 0 {
			f.NewMode = "100755"
		}
		data, err := os.ReadFile(full)
		if err != nil {
			f.Note = "cannot be read"
			return f
		}
		text = string(data)
	}
	d := DiffText(name, nil, text, DefaultContext)
	f.Binary, f.Hunks = d.Binary, d.Hunks
	return f
}

// untrackedThere is untrackedFile for a git that runs elsewhere (Exec):
// the file read there through head -c, as a regular file.
func (g Git) untrackedThere(ctx context.Context, root, name string) *File {
	f := &File{NewPath: name, Status: Added, Untracked: true, NewMode: "100644"}
	ctx, cancel := context.WithTimeout(ctx, g.timeout())
	defer cancel()
	cmd, err := g.Exec(ctx, root, []string{"head", "-c", strconv.Itoa(maxUntrackedBytes + 1), "--", name}, nil)
	if err != nil {
		f.Note = "cannot be read"
		return f
	}
	data, err := cmd.Output()
	switch {
	case err != nil:
		f.Note = "cannot be read"
		return f
	case len(data) > maxUntrackedBytes:
		f.Note = fmt.Sprintf("too large to show (over %d bytes)", maxUntrackedBytes)
		return f
	}
	d := DiffText(name, nil, string(data), DefaultContext)
	f.Binary, f.Hunks = d.Binary, d.Hunks
	return f
}

func (g Git) timeout() time.Duration {
	if g.Timeout == 0 {
		return 30 * time.Second
	}
	return g.Timeout
}

// RelPath is a repository path (relative to root) made relative to the
// project directory, whose path in the repository is prefix ("sub/dir/").
func RelPath(prefix, repoPath string) string {
	prefix = strings.Trim(prefix, "/")
	if prefix == "" {
		return repoPath
	}
	pre := strings.Split(prefix, "/")
	p := strings.Split(repoPath, "/")
	i := 0
	for i < len(pre) && i < len(p)-1 && pre[i] == p[i] {
		i++
	}
	return path.Join(append(slices.Repeat([]string{".."}, len(pre)-i), p[i:]...)...)
}
