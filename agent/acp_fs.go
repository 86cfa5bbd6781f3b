package agent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/message"
)

// acpMaxReadFile bounds what fs/read_text_file reads.
const acpMaxReadFile = 64 << 20

// roots are the directories the session's fs/* requests may touch: its
// directory and ACPOptions.Roots.
func (c *acpClient) roots(sid acp.SessionId) []string {
	a := c.a
	a.mu.Lock()
	var out []string
	if s := a.state[string(sid)]; s != nil && s.cwd != "" {
		out = append(out, s.cwd)
	} else if a.proc != nil {
		out = append(out, a.proc.dir)
	}
	a.mu.Unlock()
	return append(out, a.opts.Roots...)
}

func acpNotFound(p string) error {
	return &acp.RequestError{Code: -32002, Message: "Resource not found: " + p}
}

func acpRefused(format string, args ...any) error {
	return &acp.RequestError{Code: -32602, Message: fmt.Sprintf(format, args...)}
}

// acpResolve is p with symlinks resolved (those of its nearest existing
// ancestor when p does not exist), if it lies inside one of roots.
func acpResolve(roots []string, p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", acpRefused("path %q is not absolute", p)
	}
	p = filepath.Clean(p)
	real := p
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(real); err == nil {
			real = filepath.Join(r, rest)
			break
		}
		parent := filepath.Dir(real)
		if parent == real {
			break
		}
		rest = filepath.Join(filepath.Base(real), rest)
		real = parent
	}
	for _, root := range roots {
		if root == "" {
			continue
		}
		r, err := filepath.EvalSymlinks(root)
		if err != nil {
			r = filepath.Clean(root)
		}
		if rel, err := filepath.Rel(r, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return real, nil
		}
	}
	return "", acpRefused("%s is outside the project directory; chipchat lets the agent read and write only there", p)
}

// ReadTextFile serves fs/read_text_file inside the session's roots.
func (c *acpClient) ReadTextFile(_ context.Context, r acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	real, err := acpResolve(c.roots(r.SessionId), r.Path)
	if err != nil {
		return acp.ReadTextFileResponse{}, err
	}
	fi, err := os.Stat(real)
	if errors.Is(err, fs.ErrNotExist) {
		return acp.ReadTextFileResponse{}, acpNotFound(r.Path)
	}
	if err != nil {
		return acp.ReadTextFileResponse{}, acpRefused("%s: %v", r.Path, err)
	}
	if fi.IsDir() {
		return acp.ReadTextFileResponse{}, acpRefused("%s is a directory", r.Path)
	}
	if fi.Size() > acpMaxReadFile {
		return acp.ReadTextFileResponse{}, acpRefused("%s is %s, more than chipchat reads for an agent (%s)", r.Path, humanSize(fi.Size()), humanSize(acpMaxReadFile))
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return acp.ReadTextFileResponse{}, acpRefused("%s: %v", r.Path, err)
	}
	return acp.ReadTextFileResponse{Content: acpLines(string(data), r.Line, r.Limit)}, nil
}

// acpLines is the part of s from line (1-based; nil: the first) on, at most
// limit lines (nil: all).
func acpLines(s string, line, limit *int) string {
	if line == nil && limit == nil {
		return s
	}
	start := 1
	if line != nil && *line > 1 {
		start = *line
	}
	i := 0
	for n := 1; n < start; n++ {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return ""
		}
		i += j + 1
	}
	if limit == nil {
		return s[i:]
	}
	end := i
	for n := 0; n < *limit; n++ {
		j := strings.IndexByte(s[end:], '\n')
		if j < 0 {
			return s[i:]
		}
		end += j + 1
	}
	return s[i:end]
}

// WriteTextFile serves fs/write_text_file inside the session's roots and
// reports the write as a completed edit tool item with its diff.
func (c *acpClient) WriteTextFile(_ context.Context, r acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	roots := c.roots(r.SessionId)
	real, err := acpResolve(roots, r.Path)
	if err != nil {
		return acp.WriteTextFileResponse{}, err
	}
	var old *string
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(real); err == nil {
		if !fi.Mode().IsRegular() {
			return acp.WriteTextFileResponse{}, acpRefused("%s is not a regular file", r.Path)
		}
		mode = fi.Mode().Perm()
		b, err := os.ReadFile(real)
		if err != nil {
			return acp.WriteTextFileResponse{}, acpRefused("%s: %v", r.Path, err)
		}
		s := string(b)
		old = &s
	}
	dir := filepath.Dir(real)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return acp.WriteTextFileResponse{}, acpRefused("%s: %v", r.Path, err)
	}
	tmp, err := os.CreateTemp(dir, ".chipchat-write-*")
	if err != nil {
		return acp.WriteTextFileResponse{}, acpRefused("%s: %v", r.Path, err)
	}
	_, werr := tmp.WriteString(r.Content)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), mode)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), real)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return acp.WriteTextFileResponse{}, acpRefused("%s: %v", r.Path, werr)
	}
	if t := c.turn(r.SessionId); t != nil {
		title := r.Path
		for _, root := range roots {
			if rel, err := filepath.Rel(root, r.Path); err == nil && !strings.HasPrefix(rel, "..") {
				title = rel
				break
			}
		}
		c.a.mu.Lock()
		c.a.writes++
		id := fmt.Sprintf("chipchat-write-%d", c.a.writes)
		c.a.mu.Unlock()
		t.mu.Lock()
		t.startTool(message.Tool{
			CallID: id, Kind: "edit", Title: "Write " + title, Status: message.ToolCompleted,
			Locations: []message.Location{{Path: r.Path}},
			Content:   []message.ToolContent{{Type: message.ContentDiff, Path: r.Path, OldText: old, NewText: r.Content}},
		})
		t.mu.Unlock()
	}
	return acp.WriteTextFileResponse{}, nil
}
