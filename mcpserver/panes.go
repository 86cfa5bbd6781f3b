package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// PanesSocketEnv is the environment variable that carries the socket's
// path to chipchat mcp.
const PanesSocketEnv = "CHIPCHAT_PANES_SOCKET"

// Line limits of terminal_read and the socket.
const (
	DefaultLines = 100  // lines per pane when the caller gives none
	MaxLines     = 2000 // most lines per pane
)

const (
	maxRequestBytes  = 4 << 10  // one request line
	maxResponseBytes = 16 << 20 // one answer line
	connTimeout      = 5 * time.Second
	maxSocketPath    = 103 // sun_path holds 104 bytes on the BSDs, 108 on Linux, with its NUL
)

// PaneText is the recent text of one terminal pane, as the socket carries
// it and terminal_read returns it.
type PaneText struct {
	ID         string   `json:"id" jsonschema:"the terminal's id, e.g. term-1"`
	Label      string   `json:"label" jsonschema:"the name the user sees, e.g. Terminal 1"`
	Title      string   `json:"title,omitempty" jsonschema:"the title the running program set"`
	Cwd        string   `json:"cwd,omitempty" jsonschema:"the shell's working directory, when the shell reports it"`
	Running    bool     `json:"running" jsonschema:"whether the shell (or program) is still running"`
	ExitCode   *int     `json:"exitCode,omitempty" jsonschema:"the exit code, once the program ended"`
	FullScreen bool     `json:"fullScreen,omitempty" jsonschema:"a full-screen program (editor, pager) shows its own screen: lines are that screen"`
	FirstLine  int64    `json:"firstLine" jsonschema:"the line number of the first line in lines"`
	Lines      []string `json:"lines" jsonschema:"the lines, oldest first, control sequences removed"`
	Truncated  bool     `json:"truncated,omitempty" jsonschema:"older lines were left out to keep the answer small"`
}

// PaneFunc answers a request: the panes named name ("" means all of them;
// else a pane's id, label or number), each with at most lines recent lines.
// Its error text is shown to the agent. It is called on the server's own
// goroutines and must not wait for the UI goroutine.
type PaneFunc func(name string, lines int) ([]PaneText, error)

// paneRequest is a request on the socket: panes, or with Thread set
// whether that thread may be read (scope.go).
type paneRequest struct {
	Terminal string `json:"terminal,omitempty"`
	Lines    int    `json:"lines"`
	Thread   string `json:"thread,omitempty"`
}

type paneResponse struct {
	Panes    []PaneText `json:"panes"`
	Readable *bool      `json:"readable,omitempty"`
	Error    string     `json:"error,omitempty"`
}

// ErrNoApp is wrapped by ReadPanes' error when no chipchat app answers:
// no socket path, no socket, or nobody listening.
var ErrNoApp = errors.New("no running chipchat app")

// SocketPath returns the path of this process's panes socket:
// panes-<pid>.sock in $XDG_RUNTIME_DIR/chipchat, else in the state
// directory ($XDG_STATE_HOME/chipchat, else ~/.local/state/chipchat). The
// directory is created mode 0700.
func SocketPath() (string, error) {
	var dir string
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		dir = filepath.Join(d, "chipchat")
	} else if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		dir = filepath.Join(d, "chipchat")
	} else {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("mcpserver: no place for the panes socket: set XDG_RUNTIME_DIR (%v)", err)
		}
		dir = filepath.Join(home, ".local", "state", "chipchat")
	}
	path := filepath.Join(dir, "panes-"+strconv.Itoa(os.Getpid())+".sock")
	if len(path) > maxSocketPath {
		return "", fmt.Errorf("mcpserver: the panes socket path %s is longer than a unix socket allows (%d bytes); set XDG_RUNTIME_DIR to a shorter directory", path, maxSocketPath)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("mcpserver: panes socket directory: %w", err)
	}
	return path, nil
}

// PaneServer is the app's end of the panes socket.
type PaneServer struct {
	ln   *net.UnixListener
	path string
	read PaneFunc

	mu     sync.Mutex
	scope  ScopeFunc // SetScope
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// ListenPanes listens on the unix socket path (mode 0600; a stale socket
// file left there is replaced) and answers each connection with read's
// snapshot. Close it on quit.
func ListenPanes(path string, read PaneFunc) (*PaneServer, error) {
	if read == nil {
		return nil, errors.New("mcpserver: ListenPanes: no PaneFunc")
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("mcpserver: %s exists and is not a socket", path)
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("mcpserver: %s is in use by another process", path)
		}
		os.Remove(path)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("mcpserver: panes socket: %w", err)
	}
	// The directory is 0700, so nobody else can reach the socket in the
	// moment before this.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("mcpserver: panes socket: %w", err)
	}
	s := &PaneServer{ln: ln, path: path, read: read, conns: map[net.Conn]struct{}{}}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Path returns the socket's path (the value of CHIPCHAT_PANES_SOCKET).
func (s *PaneServer) Path() string { return s.path }

// Close stops listening, ends open connections, waits for their handlers
// and removes the socket file.
func (s *PaneServer) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	err := s.ln.Close()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	if rerr := os.Remove(s.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
		err = rerr
	}
	return err
}

func (s *PaneServer) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return
			}
			time.Sleep(10 * time.Millisecond) // e.g. out of file descriptors
			continue
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serve(c)
	}
}

func (s *PaneServer) serve(c net.Conn) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		c.Close()
	}()
	c.SetDeadline(time.Now().Add(connTimeout))
	c.Write(s.answer(bufio.NewReader(c)))
}

// answer reads one request from r and returns the answer line.
func (s *PaneServer) answer(r *bufio.Reader) []byte {
	var resp paneResponse
	line, err := readLine(r, maxRequestBytes)
	var req paneRequest
	if err == nil {
		err = json.Unmarshal(line, &req)
	}
	switch {
	case err != nil:
		resp.Error = "bad request: " + err.Error()
	case req.Thread != "":
		resp = s.answerScope(req.Thread)
	case req.Lines < 0:
		resp.Error = "lines must not be negative"
	default:
		n := req.Lines
		if n == 0 {
			n = DefaultLines
		}
		panes, err := s.read(req.Terminal, min(n, MaxLines))
		if err != nil {
			resp.Error = err.Error()
		} else {
			resp.Panes = panes
			if resp.Panes == nil {
				resp.Panes = []PaneText{}
			}
		}
	}
	out, err := json.Marshal(resp)
	if err != nil {
		out, _ = json.Marshal(paneResponse{Error: "cannot encode the panes: " + err.Error()})
	}
	return append(out, '\n')
}

// readLine reads one line (without its newline) of at most limit bytes; a
// last line without a newline counts.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit {
			return nil, fmt.Errorf("line longer than %d bytes", limit)
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}

// ReadPanes asks the app listening on path for its panes (see PaneFunc).
// When no app answers, the error wraps ErrNoApp.
func ReadPanes(ctx context.Context, path, name string, lines int) ([]PaneText, error) {
	resp, err := ask(ctx, path, paneRequest{Terminal: name, Lines: lines})
	if err != nil {
		return nil, err
	}
	return resp.Panes, nil
}

// ask sends one request to the app listening on path and returns its
// answer; the app's error comes back as an appError, and when no app
// answers the error wraps ErrNoApp.
func ask(ctx context.Context, path string, req paneRequest) (paneResponse, error) {
	if path == "" {
		return paneResponse{}, fmt.Errorf("%w: %s is not set", ErrNoApp, PanesSocketEnv)
	}
	d := net.Dialer{Timeout: connTimeout}
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) {
			return paneResponse{}, fmt.Errorf("%w: nothing listens on %s", ErrNoApp, path)
		}
		return paneResponse{}, fmt.Errorf("mcpserver: panes socket %s: %w", path, err)
	}
	defer c.Close()
	deadline := time.Now().Add(connTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	c.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	b, _ := json.Marshal(req)
	if _, err := c.Write(append(b, '\n')); err != nil {
		return paneResponse{}, fmt.Errorf("mcpserver: panes socket %s: %w", path, err)
	}
	line, err := readLine(bufio.NewReader(c), maxResponseBytes)
	if err != nil {
		if ctx.Err() != nil {
			return paneResponse{}, ctx.Err()
		}
		return paneResponse{}, fmt.Errorf("mcpserver: panes socket %s: no answer: %w", path, err)
	}
	resp, err := decodeAnswer(line, req.Thread != "")
	var ae appError
	if errors.As(err, &ae) {
		return paneResponse{}, err // worded for the agent by the app
	}
	if err != nil {
		return paneResponse{}, fmt.Errorf("mcpserver: panes socket %s: %w", path, err)
	}
	return resp, nil
}

// appError is the error the app answered with.
type appError string

func (e appError) Error() string { return string(e) }

// decodeAnswer decodes an answer line to a panes request, or to a thread
// request when thread is set; the app's error comes back as an appError.
func decodeAnswer(line []byte, thread bool) (paneResponse, error) {
	var resp paneResponse
	if err := json.Unmarshal(line, &resp); err != nil {
		return paneResponse{}, fmt.Errorf("bad answer: %w", err)
	}
	switch {
	case resp.Error != "":
		return paneResponse{}, appError(resp.Error)
	case thread && resp.Readable == nil:
		return paneResponse{}, errors.New("bad answer: no readable and no error")
	case !thread && resp.Panes == nil:
		return paneResponse{}, errors.New("bad answer: no panes and no error")
	}
	return resp, nil
}
