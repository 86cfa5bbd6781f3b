package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/pkg/sftp"
)

// DefaultCacheBytes is the staging directory's budget when
// Options.CacheBytes is 0.
const DefaultCacheBytes = 1 << 30

// uploadRate is the slowest upload the staging timeout allows for: a
// file's upload gets the Conn's timeout plus its size at this rate.
const uploadRate = 256 << 10

// attDir is the staging directory under the remote HOME.
const attDir = ".cache/chipchat/att"

// binDir holds the programs staged under the remote HOME (chipchat's
// helper): outside attDir, so never evicted for attachments.
const binDir = ".cache/chipchat/bin"

// programUnused is how long a staged program may go unused before staging
// another removes it (each chipchat build stages one; another version of
// chipchat may still use its own meanwhile).
const programUnused = 30 * 24 * time.Hour

// stageKind is what is staged: an attachment (evicted least recently used
// first) or a program (made executable, its sha256 checked again each
// time it is found there, before it runs).
type stageKind struct {
	dir  string // under HOME
	exec bool
}

var (
	attachmentKind = stageKind{dir: attDir}
	programKind    = stageKind{dir: binDir, exec: true}
)

// Staged is one staged attachment.
type Staged struct {
	Path     string // absolute, on the remote: ~/.cache/chipchat/att/<sha256>/<name>
	SHA256   string // hex
	Uploaded int64  // bytes sent this time: 0 when it was there already
}

// sftpClient is the staging session: `ssh -s sftp` over the master.
type sftpClient struct {
	*sftp.Client
	cmd *exec.Cmd
}

func (s *sftpClient) Close() error {
	err := s.Client.Close()
	s.cmd.Process.Kill()
	s.cmd.Wait()
	return err
}

// Stage puts content (size bytes, named name) on the remote,
// content-addressed under ~/.cache/chipchat/att/<sha256>/<name>, through
// sftp over the master: uploaded to a part file, checked with sha256 on
// the remote, renamed into place. A file already there (same address,
// same name, same size) is not sent again, only marked used. Afterwards
// the least recently used entries are removed until the directory holds
// at most the budget (Options.CacheBytes); the one just staged stays.
//
// A staging session lost before or during the call (the master ended:
// a dropped network, ssh -O exit) is opened again once, over a new master.
func (c *Conn) Stage(ctx context.Context, name string, content io.ReaderAt, size int64) (Staged, error) {
	return c.stageAs(ctx, attachmentKind, name, content, size)
}

// StageProgram is Stage for a program (chipchat itself, to run its helper
// there): under ~/.cache/chipchat/bin/<sha256>/<name>, executable, never
// evicted; one found there already is used only once its sha256 is
// checked again on the remote.
func (c *Conn) StageProgram(ctx context.Context, name string, content io.ReaderAt, size int64) (Staged, error) {
	return c.stageAs(ctx, programKind, name, content, size)
}

func (c *Conn) stageAs(ctx context.Context, kind stageKind, name string, content io.ReaderAt, size int64) (Staged, error) {
	c.stageMu.Lock()
	defer c.stageMu.Unlock()
	st, err := c.stage(ctx, kind, name, content, size)
	if errors.Is(err, errSessionLost) && ctx.Err() == nil {
		st, err = c.stage(ctx, kind, name, content, size)
	}
	return st, err
}

// remoteSum is the sha256 of the remote file p, as sha256sum (or
// shasum) there says.
func (c *Conn) remoteSum(ctx context.Context, p string) (string, error) {
	out, err := c.runScript(ctx, 0, "", nil, `if command -v sha256sum >/dev/null 2>&1; then sha256sum; else shasum -a 256; fi < `+quote(p), nil)
	if err != nil {
		return "", err
	}
	got, _, _ := strings.Cut(strings.TrimSpace(lastLine(out)), " ")
	return got, nil
}

// errSessionLost marks an sftp failure that is not the server's answer:
// the session is gone (bounded dropped it).
var errSessionLost = errors.New("the staging session was lost")

type lostError struct{ err error }

func (e lostError) Error() string { return e.err.Error() }
func (e lostError) Unwrap() []error {
	return []error{e.err, errSessionLost}
}

func (c *Conn) stage(ctx context.Context, kind stageKind, name string, content io.ReaderAt, size int64) (Staged, error) {
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(content, 0, size)); err != nil {
		return Staged{}, fmt.Errorf("remote: stage %s: read: %w", clip(name), err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	home, err := c.Home(ctx)
	if err != nil {
		return Staged{}, err
	}
	root := path.Join(home, kind.dir)
	dir := path.Join(root, sum)
	st := Staged{Path: path.Join(dir, safeName(name)), SHA256: sum}
	cl, err := c.stager(ctx)
	if err != nil {
		return Staged{}, err
	}
	now := c.now()
	err = c.bounded(ctx, c.o.Timeout, func() error {
		if fi, err := cl.Stat(st.Path); err == nil && fi.Mode().IsRegular() && fi.Size() == size {
			st.Uploaded = -1
			return cl.Chtimes(dir, now, now)
		}
		return cl.MkdirAll(dir)
	})
	if err != nil {
		return Staged{}, c.stageError(name, err)
	}
	if st.Uploaded == -1 {
		st.Uploaded = 0
		if !kind.exec {
			return st, c.evict(ctx, cl, root, sum)
		}
		if got, err := c.remoteSum(ctx, st.Path); err != nil {
			return Staged{}, err
		} else if got == sum {
			return st, nil
		}
		// Changed there since: staged again.
	}
	part := path.Join(dir, "."+safeName(name)+".part")
	err = c.bounded(ctx, c.o.Timeout+time.Duration(size/uploadRate)*time.Second, func() error {
		f, err := cl.OpenFile(part, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
		if err != nil {
			return err
		}
		n, err := f.ReadFrom(io.NewSectionReader(content, 0, size))
		st.Uploaded = n
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
	if err != nil {
		return Staged{}, c.stageError(name, err)
	}
	got, err := c.remoteSum(ctx, part)
	if err != nil {
		return Staged{}, err
	}
	if got != sum {
		c.bounded(ctx, c.o.Timeout, func() error { return cl.Remove(part) })
		return Staged{}, fmt.Errorf("remote: stage %s: the remote copy's sha256 is %q, not %s", clip(name), clip(got), sum)
	}
	err = c.bounded(ctx, c.o.Timeout, func() error {
		if kind.exec {
			if err := cl.Chmod(part, 0o755); err != nil {
				return err
			}
		}
		if err := cl.PosixRename(part, st.Path); err != nil {
			return err
		}
		return cl.Chtimes(dir, now, now)
	})
	if err != nil {
		return Staged{}, c.stageError(name, err)
	}
	if kind.exec {
		return st, c.pruneUnused(ctx, cl, root, sum)
	}
	return st, c.evict(ctx, cl, root, sum)
}

// evict removes the least recently used entries of root (by their
// directory's time, which staging sets) until the rest fit the budget;
// keep is never removed.
func (c *Conn) evict(ctx context.Context, cl *sftpClient, root, keep string) error {
	budget := c.o.CacheBytes
	if budget <= 0 {
		budget = DefaultCacheBytes
	}
	type entry struct {
		name  string
		used  time.Time
		bytes int64
	}
	return c.stageError("(eviction)", c.bounded(ctx, c.o.Timeout, func() error {
		dirs, err := cl.ReadDir(root)
		if err != nil {
			return err
		}
		var entries []entry
		var total int64
		for _, d := range dirs {
			if !d.IsDir() || !isSum(d.Name()) {
				continue
			}
			e := entry{name: d.Name(), used: d.ModTime()}
			files, err := cl.ReadDir(path.Join(root, d.Name()))
			if err != nil {
				continue
			}
			for _, f := range files {
				e.bytes += f.Size()
			}
			total += e.bytes
			entries = append(entries, e)
		}
		slices.SortFunc(entries, func(a, b entry) int { return a.used.Compare(b.used) })
		for _, e := range entries {
			if total <= budget {
				break
			}
			if e.name == keep {
				continue
			}
			if err := cl.RemoveAll(path.Join(root, e.name)); err != nil {
				return err
			}
			total -= e.bytes
		}
		return nil
	}))
}

// pruneUnused removes the entries of root unused (by their directory's
// time, which staging sets on each use) for programUnused; keep stays.
func (c *Conn) pruneUnused(ctx context.Context, cl *sftpClient, root, keep string) error {
	cut := c.now().Add(-programUnused)
	return c.stageError("(pruning)", c.bounded(ctx, c.o.Timeout, func() error {
		dirs, err := cl.ReadDir(root)
		if err != nil {
			return err
		}
		for _, d := range dirs {
			if d.IsDir() && isSum(d.Name()) && d.Name() != keep && d.ModTime().Before(cut) {
				if err := cl.RemoveAll(path.Join(root, d.Name())); err != nil {
					return err
				}
			}
		}
		return nil
	}))
}

// stager returns the staging session, opening it when needed.
func (c *Conn) stager(ctx context.Context) (*sftpClient, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errors.New("remote: closed")
	}
	if c.sftp != nil {
		return c.sftp, nil
	}
	if err := c.Connect(ctx); err != nil {
		return nil, err
	}
	cmd := c.command(context.Background(), append(c.sshArgs(true), "-s"), "sftp")
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, &Error{Host: c.t.Host, Kind: ErrSSH, Line: err.Error()}
	}
	type result struct {
		cl  *sftp.Client
		err error
	}
	done := make(chan result, 1)
	go func() {
		cl, err := sftp.NewClientPipe(r, w, sftp.UseConcurrentWrites(true))
		done <- result{cl, err}
	}()
	tctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	select {
	case res := <-done:
		if res.err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, &Error{Host: c.t.Host, Kind: ErrSSH, Line: "sftp: " + res.err.Error()}
		}
		c.sftp = &sftpClient{Client: res.cl, cmd: cmd}
		return c.sftp, nil
	case <-tctx.Done():
		cmd.Process.Kill()
		cmd.Wait()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &Error{Host: c.t.Host, Kind: ErrTimeout, Line: "sftp: no answer within " + c.o.Timeout.String()}
	}
}

// bounded runs f (sftp calls, which take no context) within d and ctx:
// past either, the staging session is closed (so f returns) and dropped.
func (c *Conn) bounded(ctx context.Context, d time.Duration, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case err := <-done:
		var se *sftp.StatusError
		if err != nil && !errors.As(err, &se) && !errors.Is(err, os.ErrNotExist) && !errors.Is(err, os.ErrPermission) {
			// Not the server's answer: the session is gone (a lost
			// master); the next Stage opens another.
			c.dropStager()
			return lostError{err}
		}
		return err
	case <-t.C:
		c.dropStager()
		<-done
		return &Error{Host: c.t.Host, Kind: ErrTimeout, Line: "sftp: no answer within " + d.String()}
	case <-ctx.Done():
		c.dropStager()
		<-done
		return ctx.Err()
	}
}

func (c *Conn) dropStager() {
	c.mu.Lock()
	s := c.sftp
	c.sftp = nil
	c.mu.Unlock()
	if s != nil {
		s.Close()
	}
}

func (c *Conn) stageError(name string, err error) error {
	if err == nil {
		return nil
	}
	var re *Error
	if errors.As(err, &re) || errors.Is(err, context.Canceled) {
		return err
	}
	return fmt.Errorf("remote: stage %s: %w", clip(name), err)
}

// Home is the remote user's HOME (asked once, through the login shell).
func (c *Conn) Home(ctx context.Context) (string, error) {
	c.mu.Lock()
	home := c.home
	c.mu.Unlock()
	if home != "" {
		return home, nil
	}
	const mark = "chipchat-home:"
	out, err := c.runScript(ctx, 0, "", nil, `printf '`+mark+`%s\n' "$HOME"`, nil)
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(string(out), "\n") {
		if h, ok := strings.CutPrefix(l, mark); ok {
			home = h
		}
	}
	if !path.IsAbs(home) {
		return "", fmt.Errorf("remote: %s: the remote HOME %q is not an absolute path", c.t.Host, clip(home))
	}
	c.mu.Lock()
	c.home = home
	c.mu.Unlock()
	return home, nil
}

func (c *Conn) now() time.Time {
	if c.o.Now != nil {
		return c.o.Now()
	}
	return time.Now()
}

// safeName is name as one path element: no directory, no control
// characters, not hidden (part files are), "file" when nothing is left.
func safeName(name string) string {
	name = clean(path.Base(strings.ReplaceAll(name, "\\", "/")))
	name = strings.TrimLeft(name, ".")
	if name == "" || name == "/" {
		return "file"
	}
	if len(name) > 200 {
		name = name[len(name)-200:]
	}
	return name
}

func isSum(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}
