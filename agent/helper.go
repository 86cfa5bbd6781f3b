package agent

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// chipchat's helper on a Host (`chipchat remote-helper`, the same binary
// staged there when the host's OS and architecture are chipchat's) serves
// the agent's fs/read_text_file and fs/write_text_file there with acpFS,
// the code that serves them here: the same os.Root confinement, .git and
// chipchat's own directories refused for writes, regular files only, the
// read bound, UTF-8 only. The local chipchat keeps what depends on the
// turn (a write only while a turn of the session runs, the diff item, the
// user's notices) and forwards the rest.
//
// The protocol, on the helper's stdin and stdout: frames of a 4-byte
// big-endian length and that many bytes of JSON. The helper first writes
// helperSync (the client skips whatever comes before it: a login shell's
// ~/.profile may print), then its hello (helperResponse with ID 0 and Text
// helperHello); then each
// helperRequest gets one helperResponse of the same ID, in any order
// (requests are served concurrently).

// helperHello is the helper's first frame's text: the protocol's name and
// version.
const helperHello = "chipchat-helper 1"

// helperMaxFrame bounds one frame: a write's content (the SDK's 10 MiB
// line) or a read's text, or a write's old text (acpOldTextMax, JSON
// escaping at most 6 bytes a byte).
const helperMaxFrame = 6*acpOldTextMax + 1<<20

// helperSync starts the helper's output; helperNoiseMax bounds what the
// client skips before it.
const (
	helperSync     = "\x00chipchat-helper-frames\x00"
	helperNoiseMax = 64 << 10
)

// skipToSync reads r up to and including helperSync, skipping at most
// helperNoiseMax bytes before it.
func skipToSync(r *bufio.Reader) error {
	matched, skipped := 0, 0
	for matched < len(helperSync) {
		c, err := r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
		switch {
		case c == helperSync[matched]:
			matched++
		case c == helperSync[0]:
			skipped += matched
			matched = 1
		default:
			skipped += matched + 1
			matched = 0
		}
		if skipped > helperNoiseMax {
			return fmt.Errorf("%w: more than %d bytes before the helper's start", errHelperFrame, helperNoiseMax)
		}
	}
	return nil
}

// helperHelloWait is how long the client waits for the helper's hello.
const helperHelloWait = 15 * time.Second

// helperRequest is one request to the helper.
type helperRequest struct {
	ID      uint64   `json:"id"`
	Op      string   `json:"op"` // "read" or "write"
	Roots   []string `json:"roots"`
	Path    string   `json:"path"`
	Line    *int     `json:"line,omitempty"`
	Limit   *int     `json:"limit,omitempty"`
	Content string   `json:"content,omitempty"`
}

// helperResponse is the helper's answer to the request of the same ID.
type helperResponse struct {
	ID      uint64       `json:"id"`
	Text    string       `json:"text,omitempty"`    // a read's text; the hello's
	Written *acpWritten  `json:"written,omitempty"` // a write's
	Err     *helperError `json:"err,omitempty"`
	Tell    bool         `json:"tell,omitempty"` // the user is told of Err
}

// helperError is a refusal as the agent gets it.
type helperError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// writeHelperFrame writes v as one frame.
func writeHelperFrame(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(b) > helperMaxFrame {
		return fmt.Errorf("helper: a frame of %d bytes is over the %d-byte limit", len(b), helperMaxFrame)
	}
	buf := make([]byte, 4, 4+len(b))
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	_, err = w.Write(append(buf, b...))
	return err
}

// errHelperFrame: a frame that is not one (too long, not JSON).
var errHelperFrame = errors.New("helper: bad frame")

// readHelperFrame reads one frame into v: io.EOF at a clean end,
// errHelperFrame (wrapped) for a frame over helperMaxFrame or not JSON of
// v's shape.
func readHelperFrame(r io.Reader, v any) error {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n > helperMaxFrame {
		return fmt.Errorf("%w: %d bytes, over the %d-byte limit", errHelperFrame, n, helperMaxFrame)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %v", errHelperFrame, err)
	}
	return nil
}

// --- the helper (chipchat remote-helper) ---

// helperServeMax is how many requests the helper serves at once.
const helperServeMax = 8

// ServeHelper is `chipchat remote-helper`: it serves the helper protocol
// on r and w until r ends (nil) or sends a bad frame. The directories no
// write may touch are this machine's chipchat directories.
func ServeHelper(r io.Reader, w io.Writer) error {
	f := newACPFS(nil)
	defer f.close()
	var wmu sync.Mutex
	send := func(resp helperResponse) error {
		wmu.Lock()
		defer wmu.Unlock()
		return writeHelperFrame(w, resp)
	}
	if _, err := io.WriteString(w, helperSync); err != nil {
		return err
	}
	if err := send(helperResponse{Text: helperHello}); err != nil {
		return err
	}
	br := bufio.NewReaderSize(r, 64<<10)
	slots := make(chan struct{}, helperServeMax)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		var req helperRequest
		if err := readHelperFrame(br, &req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			_ = send(serveHelperRequest(f, req))
		}()
	}
}

// serveHelperRequest runs one request with f.
func serveHelperRequest(f *acpFS, req helperRequest) helperResponse {
	resp := helperResponse{ID: req.ID}
	var err error
	switch req.Op {
	case "read":
		resp.Text, resp.Tell, err = f.readText(req.Roots, req.Path, req.Line, req.Limit)
	case "write":
		var w acpWritten
		w, resp.Tell, err = f.writeText(req.Roots, req.Path, req.Content)
		if err == nil {
			resp.Written = &w
		}
	default:
		err = &acp.RequestError{Code: -32601, Message: fmt.Sprintf("chipchat's helper has no operation %q", req.Op)}
	}
	if err != nil {
		var re *acp.RequestError
		if !errors.As(err, &re) {
			re = &acp.RequestError{Code: -32603, Message: err.Error()}
		}
		resp.Err = &helperError{Code: re.Code, Message: re.Message}
		resp.Text, resp.Written = "", nil
	}
	return resp
}

// --- the client (the local chipchat) ---

// helperClient is a running helper on a Host, as acpFiles.
type helperClient struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	label string // the host, for errors

	wmu sync.Mutex // serializes frames

	mu      sync.Mutex
	next    uint64
	waiting map[uint64]chan helperResponse
	err     error         // why it ended, once it has
	done    chan struct{} // closed when it ended
}

var _ acpFiles = (*helperClient)(nil)

// startHelper starts cmd (the helper on host label) and waits for its
// hello, at most helperHelloWait.
func startHelper(cmd *exec.Cmd, label string) (*helperClient, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := &acpTailBuffer{max: acpStderrTail}
	cmd.Stderr = stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	h := &helperClient{cmd: cmd, stdin: stdin, label: label, waiting: map[uint64]chan helperResponse{}, done: make(chan struct{})}
	hello := make(chan error, 1)
	go func() {
		br := bufio.NewReaderSize(stdout, 64<<10)
		var first helperResponse
		err := skipToSync(br)
		if err == nil {
			err = readHelperFrame(br, &first)
		}
		if err == nil && (first.ID != 0 || first.Text != helperHello) {
			err = fmt.Errorf("it said %q, not %q", first.Text, helperHello)
		}
		hello <- err
		for err == nil {
			var resp helperResponse
			if err = readHelperFrame(br, &resp); err == nil {
				h.deliver(resp)
			}
		}
		werr := cmd.Wait()
		why := strings.TrimSpace(stderr.String())
		if why == "" && werr != nil {
			why = werr.Error()
		}
		if why == "" {
			why = err.Error()
		}
		h.end(fmt.Errorf("chipchat's helper on %s ended: %s", label, oneLineOf(why)))
	}()
	t := time.NewTimer(helperHelloWait)
	defer t.Stop()
	select {
	case err := <-hello:
		if err != nil {
			h.close()
			<-h.done
			return nil, fmt.Errorf("chipchat's helper on %s did not start: %w (%s)", label, err, oneLineOf(stderr.String()))
		}
		return h, nil
	case <-t.C:
		h.close()
		return nil, fmt.Errorf("chipchat's helper on %s did not answer within %s", label, helperHelloWait)
	}
}

// oneLineOf is s's last non-empty line.
func oneLineOf(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

func (h *helperClient) deliver(resp helperResponse) {
	h.mu.Lock()
	ch := h.waiting[resp.ID]
	delete(h.waiting, resp.ID)
	h.mu.Unlock()
	if ch != nil {
		ch <- resp
	}
}

// end fails the requests waiting and every later one with err.
func (h *helperClient) end(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err != nil {
		return
	}
	h.err = err
	for id, ch := range h.waiting {
		close(ch)
		delete(h.waiting, id)
	}
	close(h.done)
}

// close ends the helper (its stdin closed: it returns; then killed).
func (h *helperClient) close() {
	h.stdin.Close()
	select {
	case <-h.done:
	case <-time.After(acpKillGrace):
		if h.cmd.Process != nil {
			_ = h.cmd.Process.Kill()
		}
	}
}

// call sends req and waits for its answer (or the helper's end).
func (h *helperClient) call(req helperRequest) (helperResponse, error) {
	ch := make(chan helperResponse, 1)
	h.mu.Lock()
	if h.err != nil {
		err := h.err
		h.mu.Unlock()
		return helperResponse{}, err
	}
	h.next++
	req.ID = h.next
	h.waiting[req.ID] = ch
	h.mu.Unlock()
	h.wmu.Lock()
	err := writeHelperFrame(h.stdin, req)
	h.wmu.Unlock()
	if err != nil {
		h.mu.Lock()
		delete(h.waiting, req.ID)
		h.mu.Unlock()
		return helperResponse{}, fmt.Errorf("chipchat's helper on %s: %w", h.label, err)
	}
	resp, ok := <-ch
	if !ok {
		h.mu.Lock()
		err := h.err
		h.mu.Unlock()
		return helperResponse{}, err
	}
	return resp, nil
}

// answer is resp's refusal as the agent's error, and whether to tell.
func (h *helperClient) answer(resp helperResponse, err error) (bool, error) {
	if err != nil {
		return true, &acp.RequestError{Code: -32603, Message: err.Error()}
	}
	if resp.Err != nil {
		return resp.Tell, &acp.RequestError{Code: resp.Err.Code, Message: resp.Err.Message}
	}
	return false, nil
}

func (h *helperClient) readText(roots []string, p string, line, limit *int) (string, bool, error) {
	resp, err := h.call(helperRequest{Op: "read", Roots: roots, Path: p, Line: line, Limit: limit})
	if tell, err := h.answer(resp, err); err != nil {
		return "", tell, err
	}
	return resp.Text, false, nil
}

func (h *helperClient) writeText(roots []string, p, content string) (acpWritten, bool, error) {
	resp, err := h.call(helperRequest{Op: "write", Roots: roots, Path: p, Content: content})
	if tell, err := h.answer(resp, err); err != nil {
		return acpWritten{}, tell, err
	}
	if resp.Written == nil {
		return acpWritten{}, true, &acp.RequestError{Code: -32603, Message: "chipchat's helper on " + h.label + " answered the write without saying what it wrote"}
	}
	return *resp.Written, false, nil
}
