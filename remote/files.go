package remote

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/chipchat/chipchat/internal/safegit"
)

// DefaultFileLimit is the number of paths ListFiles returns at most when
// the caller passes a limit ≤ 0.
const DefaultFileLimit = 20000

// findDepth bounds the walk outside a git work tree.
const findDepth = 12

// filesScript lists the project's files NUL-terminated: in a git work
// tree `git ls-files -co --exclude-standard -z`, then an empty record,
// then the tracked files deleted from the work tree; elsewhere a find
// bounded in depth that skips .git and node_modules.
var filesScript = `if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then ` +
	`git ls-files -z -co --exclude-standard && printf '\0' && exec git ls-files -z -d; fi; ` +
	`exec find . -maxdepth ` + strconv.Itoa(findDepth) + ` \( -name .git -o -name node_modules \) -prune -o \( -type f -o -type l \) -print0`

// ListFiles lists the files of the project directory for the `@` picker:
// sorted, deduplicated paths relative to it with forward slashes, at most
// limit (DefaultFileLimit when ≤ 0; truncated says more existed). Git runs
// with safegit's settings (no program the repository configures runs).
func (c *Conn) ListFiles(ctx context.Context, limit int) (paths []string, truncated bool, err error) {
	if limit <= 0 {
		limit = DefaultFileLimit
	}
	line, err := loginShell(c.t.Path, gitEnv(), filesScript)
	if err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	cmd := c.command(ctx, append(c.sshArgs(true), "-T"), line)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, false, err
	}
	if err := cmd.Start(); err != nil {
		return nil, false, &Error{Host: c.t.Host, Kind: ErrSSH, Line: err.Error()}
	}
	paths, truncated = readFileList(out, limit)
	if truncated {
		cancel()
	}
	werr := cmd.Wait()
	if !truncated && werr != nil {
		return nil, false, c.sshError(ctx, "file list", c.o.Timeout, stderr.Bytes(), werr)
	}
	return paths, truncated, nil
}

// readFileList decodes filesScript's output: NUL-terminated paths, then
// (from git) an empty record and the deleted paths, which are dropped. It
// returns the paths sorted, deduplicated, relative ("./" and a trailing
// "/" removed), at most limit, and stops reading once more than limit
// came (truncated).
func readFileList(rd io.Reader, limit int) (paths []string, truncated bool) {
	r := bufio.NewReaderSize(rd, 64<<10)
	deleted := map[string]bool{}
	inDeleted := false
	for {
		rec, err := r.ReadString(0)
		if err != nil && (!errors.Is(err, io.EOF) || rec == "") {
			break
		}
		rec = strings.TrimSuffix(rec, "\x00")
		switch {
		case rec == "" && !inDeleted:
			inDeleted = true
		case rec == "":
		case inDeleted:
			deleted[rec] = true
		default:
			for strings.HasPrefix(rec, "./") {
				rec = rec[2:]
			}
			rec = strings.TrimSuffix(rec, "/")
			if rec != "" && rec != "." {
				paths = append(paths, rec)
			}
		}
		if !inDeleted && len(paths) > limit {
			truncated = true
			break
		}
		if err != nil {
			break
		}
	}
	paths = slices.DeleteFunc(paths, func(p string) bool { return deleted[p] })
	slices.Sort(paths)
	paths = slices.Compact(paths)
	if len(paths) > limit {
		paths, truncated = paths[:limit:limit], true
	}
	return paths, truncated
}

// gitEnv is safegit's environment for the remote git: its variables and
// settings (GIT_CONFIG_COUNT).
func gitEnv() []string {
	env := slices.Clone(safegit.Env)
	env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(len(safegit.Settings)))
	for i, s := range safegit.Settings {
		k, v, _ := strings.Cut(s, "=")
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+k, "GIT_CONFIG_VALUE_"+n+"="+v)
	}
	return env
}
