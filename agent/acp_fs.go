package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/message"
)

// The agent's fs/* requests go through an *os.Root per allowed root (see
// acpFS): the path the agent sends, absolute as ACP wants it, is mapped
// lexically onto a root (acpMapPath) and opened through that root, so no
// symlink, "..", or rename race can reach outside it. Only regular files
// are read or written; a read is text (UTF-8) and fits in one SDK line;
// a write never lands under .git or chipchat's own directories.

// acpMaxRead bounds the encoded content of one fs/read_text_file answer:
// the SDK reads lines of at most 10 MiB, and 64 KiB is left for the rest
// of the message.
const acpMaxRead = 10<<20 - 64<<10

// acpOldTextMax bounds the old content read for a write's diff item.
const acpOldTextMax = 16 << 20

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

// acpMapPath maps p, an absolute path the agent sent, lexically onto one
// of bases (absolute directories): the index of the first base holding
// the cleaned p and p relative to it ("." for the base itself). Nothing
// is resolved here; where the path leads is the Root's business.
func acpMapPath(bases []string, p string) (int, string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return -1, "", acpRefused("path %q holds a NUL byte", p)
	}
	if !filepath.IsAbs(p) {
		return -1, "", acpRefused("path %q is not absolute", p)
	}
	cp := filepath.Clean(p)
	for i, b := range bases {
		if b == "" || !filepath.IsAbs(b) {
			continue
		}
		if rel, err := filepath.Rel(filepath.Clean(b), cp); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return i, rel, nil
		}
	}
	return -1, "", acpRefused("%s is outside the project directory; chipchat lets the agent read and write only there", p)
}

// acpResolve is p cleaned, when it lies lexically inside one of roots.
// Requests do not open what it returns: they open through the root's
// os.Root (acpClient.target).
func acpResolve(roots []string, p string) (string, error) {
	bases := make([]string, len(roots))
	for i, r := range roots {
		if abs, err := filepath.Abs(r); err == nil && r != "" {
			bases[i] = abs
		}
	}
	i, rel, err := acpMapPath(bases, p)
	if err != nil {
		return "", err
	}
	return filepath.Join(bases[i], rel), nil
}

// acpTarget is a request's path mapped onto an opened root.
type acpTarget struct {
	r    *acpRoot
	rel  string // relative to r, OS separators; "." for the root itself
	name string // rel with slashes, for messages and titles
	path string // the path the agent sent
}

// target maps the agent's path onto one of roots (the session's). A root
// may be named by its path or, when that holds a symlink, by where it
// leads (agents often send resolved paths).
func (f *acpFS) target(roots []string, p string) (acpTarget, error) {
	var bases, owners []string
	for _, r := range roots {
		if r == "" {
			continue
		}
		abs, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		bases, owners = append(bases, abs), append(owners, abs)
		if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
			bases, owners = append(bases, real), append(owners, abs)
		}
	}
	i, rel, err := acpMapPath(bases, p)
	if err != nil {
		return acpTarget{}, err
	}
	r, err := f.root(owners[i])
	if errors.Is(err, errACPRootReplaced) {
		return acpTarget{}, acpRefused("%s was replaced by another directory or a symlink since the agent started; chipchat keeps the agent in the directory it opened", owners[i])
	}
	if err != nil {
		return acpTarget{}, acpRefused("%s: %v", owners[i], acpErrText(err))
	}
	return acpTarget{r: r, rel: rel, name: filepath.ToSlash(rel), path: p}, nil
}

// fail is the agent's error for a failed operation on t.
func (t acpTarget) fail(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return acpNotFound(t.path)
	case acpEscapes(err):
		return acpRefused("%s leads outside the project directory (through a symlink); chipchat lets the agent read and write only there", t.path)
	case acpIsLoopErr(err):
		return acpRefused("%s goes through symlinks that loop or changed while chipchat opened it; chipchat lets the agent read and write only inside the project directory", t.path)
	case acpIsSocketErr(err):
		return acpRefused("%s is a socket or a device, not a regular file; chipchat reads and writes regular files only", t.name)
	}
	return acpRefused("%s: %s", t.path, acpErrText(err))
}

// acpEscapes reports os.Root's refusal of a path leading out of the root
// (its error is not exported).
func acpEscapes(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// acpErrText is err's text without the path an *fs.PathError repeats.
func acpErrText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// acpKind names a mode that is not a regular file.
func acpKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "not a regular file"
}

// notRegular is the refusal of fi, unless it is a regular file.
func (t acpTarget) notRegular(fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	if fi.IsDir() {
		return acpRefused("%s is a directory, not a file", t.name)
	}
	return acpRefused("%s is %s, not a regular file; chipchat reads and writes regular files only", t.name, acpKind(fi.Mode()))
}

// refused tells the user, in the session's running turn, what was refused
// and why (the agent gets err itself).
func (c *acpClient) refused(sid acp.SessionId, what string, err error) error {
	var re *acp.RequestError
	if !errors.As(err, &re) {
		return err
	}
	if t := c.turn(sid); t != nil {
		t.mu.Lock()
		t.push(Notice{"chipchat refused the agent's " + what + ": " + re.Message})
		t.mu.Unlock()
	}
	return err
}

// inTurn is the session's running turn, or, when it has none (an unknown
// session, a turn that ended or was cancelled), the agent's error for
// method; the user is told of the refusal of what either way (tell).
func (c *acpClient) inTurn(sid acp.SessionId, what, method string) (*acpTurn, error) {
	t := c.turn(sid)
	if t != nil && t.ctx.Err() == nil {
		return t, nil
	}
	why := "has no running turn"
	if t != nil {
		why = "had its turn cancelled"
	}
	err := acpRefused("session %q %s; chipchat accepts %s only while a turn of that session runs", string(sid), why, method)
	c.a.tell("chipchat refused the agent's " + what + ": " + err.(*acp.RequestError).Message)
	return nil, err
}

// tell shows text to the user in every running turn of the agent, else
// at the start of its next turn (at most acpHeldMax lines, the rest
// counted).
func (a *ACP) tell(text string) {
	a.mu.Lock()
	var turns []*acpTurn
	for _, t := range a.turns {
		turns = append(turns, t)
	}
	if len(turns) == 0 {
		if len(a.held) < acpHeldMax {
			a.held = append(a.held, text)
		} else {
			a.heldMore++
		}
	}
	a.mu.Unlock()
	for _, t := range turns {
		t.mu.Lock()
		t.push(Notice{text})
		t.mu.Unlock()
	}
}

// acpFiles serves the agent's fs/* requests inside roots: acpFS here, the
// helper on a Host (chipchat remote-helper, which runs acpFS there). A
// refusal is an *acp.RequestError; tell says the user is told of it too.
type acpFiles interface {
	readText(roots []string, p string, line, limit *int) (text string, tell bool, err error)
	// writeText writes content to p and returns what it replaced.
	writeText(roots []string, p, content string) (w acpWritten, tell bool, err error)
}

// acpWritten is what a write replaced: the old content, for the diff (nil:
// no file, or too big to show), and the file's name in its root.
type acpWritten struct {
	Old  *string `json:"old,omitempty"`
	Name string  `json:"name"`
}

// ReadTextFile serves fs/read_text_file inside the session's roots.
func (c *acpClient) ReadTextFile(_ context.Context, r acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	files, err := c.files("read of "+r.Path, "fs/read_text_file")
	if err != nil {
		return acp.ReadTextFileResponse{}, err
	}
	text, tell, err := files.readText(c.roots(r.SessionId), r.Path, r.Line, r.Limit)
	if err != nil {
		if tell {
			err = c.refused(r.SessionId, "read", err)
		}
		return acp.ReadTextFileResponse{}, err
	}
	return acp.ReadTextFileResponse{Content: text}, nil
}

// readText reads p inside roots: a regular file, UTF-8, at most acpMaxRead
// once encoded.
func (f *acpFS) readText(roots []string, p string, line, limit *int) (string, bool, error) {
	t, err := f.target(roots, p)
	if err != nil {
		return "", false, err
	}
	fh, err := t.r.root.OpenFile(t.rel, os.O_RDONLY|acpNonBlock, 0)
	if err != nil {
		tell := !errors.Is(err, fs.ErrNotExist) && !acpEscapes(err)
		return "", tell, t.fail(err)
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return "", false, t.fail(err)
	}
	if err := t.notRegular(fi); err != nil {
		return "", true, err
	}
	whole := line == nil && limit == nil
	if whole && fi.Size()+2 > acpMaxRead {
		return "", true, acpTooLargeErr(t.name, fi.Size(), 0, true)
	}
	var hint int64
	if whole {
		hint = fi.Size()
	}
	text, err := acpReadText(fh, line, limit, acpMaxRead, hint)
	var big *acpTooLarge
	switch {
	case errors.Is(err, errACPBinary):
		return "", true, acpRefused("%s is not UTF-8 text; chipchat reads text files only", t.name)
	case errors.As(err, &big):
		return "", true, acpTooLargeErr(t.name, fi.Size(), big.line, whole)
	case err != nil:
		return "", false, t.fail(err)
	}
	return text, false, nil
}

func acpTooLargeErr(name string, size int64, line int, whole bool) error {
	if whole {
		return acpRefused("%s is %s; chipchat sends the agent at most %s of text per read (the protocol's message limit, JSON escaping counted): read it in parts with line and limit",
			name, humanSize(size), humanSize(acpMaxRead))
	}
	return acpRefused("the lines asked for of %s come to more than %s once encoded (at line %d); chipchat sends the agent at most that per read: ask for fewer lines",
		name, humanSize(acpMaxRead), line)
}

// errACPBinary: the file is not valid UTF-8.
var errACPBinary = errors.New("not UTF-8 text")

// acpTooLarge: the lines asked for encode to more than the limit; line is
// where the limit was passed.
type acpTooLarge struct{ line int }

func (e *acpTooLarge) Error() string { return fmt.Sprintf("too large at line %d", e.line) }

// acpReadText reads what acpLines would keep of r's text, streaming: from
// line (1-based; nil: the first) on, at most limit lines (nil: all). What
// it reads must be valid UTF-8 (errACPBinary), and what it keeps must
// encode as a JSON string of at most maxJSON bytes (*acpTooLarge, found
// before more than that is held). hint, when positive, is the
// expected size of what is kept (the file's, for a whole read): it is
// allocated at once.
func acpReadText(r io.Reader, line, limit *int, maxJSON, hint int64) (string, error) {
	start := 1
	if line != nil && *line > 1 {
		start = *line
	}
	if limit != nil && *limit <= 0 {
		return "", nil
	}
	// out grows by doubling up to maxJSON, never past it: what is allocated
	// stays under twice the limit however large the file.
	out := make([]byte, 0, min(max(hint, 64<<10), maxJSON))
	size := int64(2) // the quotes
	cur, taken := 1, 0
	take := func(b []byte) error {
		size += acpJSONSize(b)
		if size > maxJSON {
			return &acpTooLarge{line: cur + taken}
		}
		if need := len(out) + len(b); need > cap(out) {
			grown := make([]byte, len(out), min(max(2*int64(cap(out)), int64(need)), maxJSON))
			copy(grown, out)
			out = grown
		}
		out = append(out, b...)
		return nil
	}
	buf := make([]byte, 64<<10)
	carry := 0 // buf[:carry] is an incomplete character held from the last read
	for {
		n, err := r.Read(buf[carry:])
		n += carry
		eof := errors.Is(err, io.EOF)
		if err != nil && !eof {
			return "", err
		}
		data := buf[:n]
		cut := n
		if !eof {
			cut = acpRuneCut(data)
		}
		seg := data[:cut]
		if !utf8.Valid(seg) {
			return "", errACPBinary
		}
		for len(seg) > 0 {
			if cur < start {
				j := bytes.IndexByte(seg, '\n')
				if j < 0 {
					break
				}
				seg = seg[j+1:]
				cur++
				continue
			}
			j := bytes.IndexByte(seg, '\n')
			if limit == nil || j < 0 {
				if err := take(seg); err != nil {
					return "", err
				}
				break
			}
			if err := take(seg[:j+1]); err != nil {
				return "", err
			}
			seg = seg[j+1:]
			taken++
			if taken >= *limit {
				return string(out), nil
			}
		}
		if eof {
			return string(out), nil
		}
		carry = copy(buf, data[cut:])
	}
}

// acpRuneCut is where the last complete UTF-8 sequence of b ends: len(b),
// or the start of a character cut off by the end of the buffer.
func acpRuneCut(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if b[i]&0xC0 != 0x80 { // a character's first byte
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

// acpJSONSize is the length of b, UTF-8, in a JSON string as encoding/json
// writes it (HTML characters escaped, as json.Marshal, which the SDK uses,
// does), quotes not counted.
func acpJSONSize(b []byte) int64 {
	var n int64
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
				n += 2
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, w := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && w == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += int64(w)
		}
		i += w
	}
	return n
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

// checkWritable refuses, by the path alone, a write under .git or under a
// protected directory.
func (f *acpFS) checkWritable(t acpTarget) error {
	if acpHasGit(t.rel) {
		return acpRefused("%s is inside .git; chipchat does not let the agent write there (hooks and config there run programs)", t.name)
	}
	for _, p := range f.protected {
		for _, abs := range []string{filepath.Join(t.r.path, t.rel), filepath.Join(t.r.real, t.rel), filepath.Clean(t.path)} {
			if acpWithin(p, abs) {
				return acpRefused("%s is inside chipchat's own directory %s; the agent may not write there", t.name, p)
			}
		}
	}
	return nil
}

// checkReal refuses a write into the open file or directory o, named rel
// in t's root, when o really lies under .git or a protected directory
// (through a symlink the path does not show). Where the system cannot
// name an open file, a symlink anywhere on rel is refused instead.
func (f *acpFS) checkReal(t acpTarget, o *os.File, rel string) error {
	real, err := acpFdPath(o)
	if err != nil {
		return t.linkFree(rel)
	}
	rf, err := t.r.root.Open(".")
	if err != nil {
		return t.fail(err)
	}
	rootReal, err := acpFdPath(rf)
	rf.Close()
	if err != nil {
		return t.linkFree(rel)
	}
	inRoot, err := filepath.Rel(rootReal, real)
	if err != nil || !(inRoot == "." || filepath.IsLocal(inRoot)) {
		return acpRefused("%s leads outside the project directory; chipchat lets the agent read and write only there", t.path)
	}
	if acpHasGit(inRoot) {
		return acpRefused("%s leads into .git (through a symlink); chipchat does not let the agent write there (hooks and config there run programs)", t.name)
	}
	for _, p := range f.protected {
		if acpWithin(p, real) {
			return acpRefused("%s leads into chipchat's own directory %s; the agent may not write there", t.name, p)
		}
	}
	return nil
}

// linkFree refuses rel when one of its components is a symlink.
func (t acpTarget) linkFree(rel string) error {
	p := ""
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		if c == "." || c == "" {
			continue
		}
		p = filepath.Join(p, c)
		fi, err := t.r.root.Lstat(p)
		if err != nil {
			return t.fail(err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return acpRefused("%s goes through a symlink, which chipchat cannot follow safely for a write on this system", t.name)
		}
	}
	return nil
}

// openDir opens t's parent directory as a Root, creating it (and its
// parents) when missing, after checking where its nearest existing
// ancestor really is.
func (f *acpFS) openDir(t acpTarget, dir string) (*os.Root, error) {
	check := func(d *os.Root, rel string) error {
		o, err := d.Open(".")
		if err != nil {
			return t.fail(err)
		}
		defer o.Close()
		return f.checkReal(t, o, rel)
	}
	anc := dir
	for {
		d, err := t.r.root.OpenRoot(anc)
		if err == nil {
			if err := check(d, anc); err != nil {
				d.Close()
				return nil, err
			}
			if anc == dir {
				return d, nil
			}
			d.Close()
			break
		}
		if !errors.Is(err, fs.ErrNotExist) || anc == "." {
			return nil, t.fail(err)
		}
		anc = filepath.Dir(anc)
	}
	if err := t.r.root.MkdirAll(dir, 0o755); err != nil {
		return nil, t.fail(err)
	}
	d, err := t.r.root.OpenRoot(dir)
	if err != nil {
		return nil, t.fail(err)
	}
	if err := check(d, dir); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

var acpTmpSeq atomic.Uint64

// WriteTextFile serves fs/write_text_file inside the session's roots,
// only while a turn of the session runs, and shows the write's diff in
// the running tool call naming that file, else as a completed edit tool
// item of its own.
func (c *acpClient) WriteTextFile(_ context.Context, r acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	files, err := c.files("write of "+r.Path, "fs/write_text_file")
	if err != nil {
		return acp.WriteTextFileResponse{}, err
	}
	tr, err := c.inTurn(r.SessionId, "write of "+r.Path, "fs/write_text_file")
	if err != nil {
		return acp.WriteTextFileResponse{}, err
	}
	w, tell, err := files.writeText(c.roots(r.SessionId), r.Path, r.Content)
	if err != nil {
		if tell {
			err = c.refused(r.SessionId, "write", err)
		}
		return acp.WriteTextFileResponse{}, err
	}
	diff := message.ToolContent{Type: message.ContentDiff, Path: r.Path, OldText: w.Old, NewText: r.Content}
	tr.mu.Lock()
	folded := tr.write(r.Path, diff)
	tr.mu.Unlock()
	if folded {
		return acp.WriteTextFileResponse{}, nil
	}
	c.a.mu.Lock() // not under tr.mu: a.mu is taken first
	c.a.writes++
	id := fmt.Sprintf("chipchat-write-%d", c.a.writes)
	c.a.mu.Unlock()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.startTool(message.Tool{
		CallID: id, Kind: "edit", Title: "Write " + w.Name, Status: message.ToolCompleted,
		Locations: []message.Location{{Path: r.Path}},
		Content:   []message.ToolContent{diff},
	})
	return acp.WriteTextFileResponse{}, nil
}

// writeText writes content to p inside roots, never under .git or a
// protected directory, only into a regular file with one link (or a new
// one), and returns the old content for the diff. Every refusal is told.
func (f *acpFS) writeText(roots []string, p, content string) (acpWritten, bool, error) {
	t, err := f.target(roots, p)
	if err != nil {
		return acpWritten{}, true, err
	}
	if err := f.checkWritable(t); err != nil {
		return acpWritten{}, true, err
	}
	if t.rel == "." {
		return acpWritten{}, false, acpRefused("%s is a directory, not a file", t.path)
	}
	dirRel, base := filepath.Dir(t.rel), filepath.Base(t.rel)
	dr, err := f.openDir(t, dirRel)
	if err != nil {
		return acpWritten{}, true, err
	}
	defer dr.Close()
	old, oldFI, err := acpOldText(t, dr, base)
	if err != nil {
		return acpWritten{}, true, err
	}
	if oldFI != nil && acpLinks(oldFI) > 1 {
		// os.Root cannot tell where a hard link's other names are (one
		// may be outside the project): writing in place could change a
		// file outside it, replacing would silently split the link.
		return acpWritten{}, true, acpRefused("%s has %d hard links (other names share the file, perhaps outside the project); chipchat does not write a file with several links", t.name, acpLinks(oldFI))
	}
	inPlace := false
	if oldFI != nil {
		if lfi, err := dr.Lstat(base); err == nil && lfi.Mode()&fs.ModeSymlink != 0 {
			// A symlink inside the project: the file it leads to is
			// written, as an editor would.
			inPlace = true
		}
	}
	if inPlace {
		err = f.writeInPlace(t, dr, base, oldFI, content)
	} else {
		mode := fs.FileMode(0o644)
		if oldFI != nil {
			mode = oldFI.Mode().Perm()
		}
		err = acpReplace(dr, base, content, mode)
	}
	if err != nil {
		var re *acp.RequestError
		if !errors.As(err, &re) {
			err = t.fail(err)
		}
		return acpWritten{}, true, err
	}
	return acpWritten{Old: old, Name: t.name}, false, nil
}

// acpOldText is the file a write replaces, for its diff (nil: none, or too
// big to show), and its FileInfo (nil: none). Anything but a regular file
// is refused.
func acpOldText(t acpTarget, dr *os.Root, base string) (*string, fs.FileInfo, error) {
	f, err := dr.OpenFile(base, os.O_RDONLY|acpNonBlock, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, t.fail(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, t.fail(err)
	}
	if err := t.notRegular(fi); err != nil {
		return nil, nil, err
	}
	if fi.Size() > acpOldTextMax {
		return nil, fi, nil
	}
	b, err := io.ReadAll(io.LimitReader(f, acpOldTextMax+1))
	if err != nil {
		return nil, nil, t.fail(err)
	}
	if len(b) > acpOldTextMax {
		return nil, fi, nil
	}
	s := string(b)
	return &s, fi, nil
}

// acpReplace writes content to a new file in dr and renames it over base:
// the file is replaced whole or not at all, and a hard link elsewhere
// keeps the old content.
func acpReplace(dr *os.Root, base, content string, mode fs.FileMode) error {
	var f *os.File
	var tmp string
	for i := 0; ; i++ {
		tmp = fmt.Sprintf(".chipchat-write-%d-%d", os.Getpid(), acpTmpSeq.Add(1))
		var err error
		f, err = dr.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || i == 100 {
			return err
		}
	}
	_, err := f.WriteString(content)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = dr.Rename(tmp, base)
	}
	if err != nil {
		_ = dr.Remove(tmp)
	}
	return err
}

// writeInPlace writes content into the file base leads to (a symlink
// inside the root), once that file is checked to be the one read for the
// diff, a regular file with one link, not under .git or a protected
// directory.
func (f *acpFS) writeInPlace(t acpTarget, dr *os.Root, base string, old fs.FileInfo, content string) error {
	w, err := dr.OpenFile(base, os.O_WRONLY|acpNonBlock, 0)
	if err != nil {
		return err
	}
	defer w.Close()
	fi, err := w.Stat()
	if err != nil {
		return err
	}
	if err := t.notRegular(fi); err != nil {
		return err
	}
	if !os.SameFile(fi, old) {
		return acpRefused("%s changed while chipchat was writing it; try again", t.name)
	}
	if acpLinks(fi) > 1 {
		return acpRefused("%s is a symlink to a file with several hard links; chipchat does not write such a file in place", t.name)
	}
	if err := f.checkReal(t, w, t.rel); err != nil {
		return err
	}
	if err := w.Truncate(0); err != nil {
		return err
	}
	if _, err := w.WriteString(content); err != nil {
		return err
	}
	return w.Close()
}
