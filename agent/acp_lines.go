package agent

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// chipchat reads the agent's stdout itself and hands it to the SDK line by
// line through a pipe (acpReader), for three reasons the SDK (acp-go-sdk
// v0.13.0, connection.go) cannot serve:
//
//   - Ordering. The SDK queues notifications for one goroutine but runs an
//     inbound request (session/request_permission, fs/*, terminal/*) at
//     once, so a request overtakes the tool_call sent just before it.
//     Before the SDK sees a request, the reader writes a mark (an
//     extension notification, "_chipchat/applied", carrying a per-process
//     token and a number) and waits until the SDK's notification goroutine
//     has reached it: every notification the agent sent before the request
//     has been applied when the request's handler runs.
//   - Flow control. The SDK closes the connection when its queue of 1,024
//     notifications overflows. The reader writes a mark every
//     acpMarkEvery lines or acpMarkBytes bytes, whichever comes first, and
//     never lets more than acpMarksAhead marks be unapplied, so at most
//     (acpMarksAhead+1)·(acpMarkEvery+1) entries, and about
//     (acpMarksAhead+1)·(acpMarkBytes+10 MiB) bytes, are ever queued; a
//     faster agent blocks on its stdout instead.
//   - Speed. The common session/update notifications are decoded here
//     (acp_update.go) and applied at once on the reader's goroutine
//     (update), never reaching the SDK. Order holds: before applying one
//     the reader waits until the SDK has applied every notification it
//     was handed since its last applied mark (a request's mark covers
//     the update before it already, as the update is applied before
//     the request is handed on).
//   - Boundary. The SDK's scanner gives up on a line over 10 MiB (its
//     maxBufSize, the newline included) and closes the connection, leaving
//     the agent blocked on a pipe nobody reads. The reader cuts such a line
//     before the SDK sees it, reads on (bounded) to learn its size, stops
//     the agent and closes the SDK's side: the turn fails naming the cause.

const (
	// acpMaxLine is the longest line the SDK reads, newline excluded: its
	// bufio.Scanner holds at most 10 MiB, and a line needs its newline in
	// the buffer to be a token.
	acpMaxLine = 10<<20 - 1
	// acpMarkEvery and acpMarksAhead bound the SDK's notification queue
	// (1,024 entries): (3+1)·(200+1) = 804.
	acpMarkEvery  = 200
	acpMarkBytes  = 4 << 20
	acpMarksAhead = 3
	// An over-long line is read on to learn its size for at most this
	// long and this many bytes.
	acpCutMeasure    = time.Second
	acpCutMeasureMax = 1 << 30
	acpMarkMethod    = "_chipchat/applied"
	// acpLongKeep is how many lines that fit the reader's own buffer
	// a bigger line buffer outlives.
	acpLongKeep = 64
)

// acpCutError is why chipchat stopped reading an agent: a line over the
// SDK's limit. Size is what was read of it; More says it went on.
type acpCutError struct {
	Size int64
	More bool
}

func (e *acpCutError) Error() string {
	size := acpMB(e.Size)
	if e.More {
		size = "more than " + size
	}
	return fmt.Sprintf("the agent sent a %s message; chipchat reads at most %s", size, acpMB(acpMaxLine+1))
}

// acpMB is n bytes in MB (MiB), rounded ("50 MB"; "0.5 MB" below 1).
func acpMB(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d MB", (n+1<<19)>>20)
}

// acpReader copies the agent's stdout to the SDK's reader, numbering lines
// and writing marks (see above).
type acpReader struct {
	src   io.Reader
	dst   *io.PipeWriter
	out   *io.PipeReader // the SDK reads this
	token string

	// deadline, when set, bounds the reading of an over-long line
	// (the pipe's SetReadDeadline).
	deadline func(time.Time) error
	// onCut is called (on the reader's goroutine) when a line was cut,
	// before the SDK's side is closed: it stops the agent.
	onCut func(*acpCutError)
	// log receives the reader's own diagnostics.
	log func(msg string, args ...any)
	// update, when set, applies a session/update the reader decoded
	// itself; it must not block.
	update func(acp.SessionNotification)

	mu      sync.Mutex
	cond    *sync.Cond
	sent    uint64 // marks written
	applied uint64 // highest mark the notification goroutine reached
	stopped bool
	since   int    // lines since the last mark
	sinceB  int    // bytes since the last mark
	lines   uint64 // lines read
	cut     *acpCutError
	done    chan struct{} // closed when run returns
}

func newACPReader(src io.Reader) *acpReader {
	var b [16]byte
	_, _ = rand.Read(b[:])
	pr, pw := io.Pipe()
	l := &acpReader{src: src, dst: pw, out: pr, token: hex.EncodeToString(b[:]), done: make(chan struct{})}
	l.cond = sync.NewCond(&l.mu)
	return l
}

var errACPLineTooLong = errors.New("line too long")

// run reads lines until the agent's stdout ends, a line is cut or the
// SDK's side is closed.
func (l *acpReader) run() {
	defer close(l.done)
	br := bufio.NewReaderSize(l.src, 64<<10)
	var long []byte
	short := 0 // lines read since the last that needed long
	for {
		line, err := l.readLine(br, &long)
		if errors.Is(err, errACPLineTooLong) {
			l.cutLine(br, int64(len(long)))
			return
		}
		if len(line) > 0 && !l.forward(line) {
			l.dst.Close()
			return
		}
		// A big buffer is kept while long lines come (an agent resending
		// a growing tool output sends one after another: growing the
		// buffer again for each cost more than reading it), and dropped
		// after acpLongKeep lines that did not need it.
		if len(long) > 0 {
			short = 0
		} else if short++; short > acpLongKeep && cap(long) > 1<<20 {
			long = nil
		}
		long = long[:0]
		if err != nil {
			l.dst.Close()
			return
		}
	}
}

// readLine returns the next line with its newline (at the end of the
// stream, what is left); the slice is valid until the next read. A line
// longer than acpMaxLine is errACPLineTooLong, with *long holding what
// was read of it.
func (l *acpReader) readLine(br *bufio.Reader, long *[]byte) ([]byte, error) {
	for {
		frag, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			*long = append(*long, frag...)
			if len(*long) > acpMaxLine {
				return nil, errACPLineTooLong
			}
			continue
		}
		if len(*long) == 0 {
			return frag, err
		}
		*long = append(*long, frag...)
		if n := len(*long); n > acpMaxLine+1 || n == acpMaxLine+1 && (*long)[n-1] != '\n' {
			return nil, errACPLineTooLong
		}
		return *long, err
	}
}

// cutLine reads on an over-long line (to its newline, the end of the
// stream, acpCutMeasureMax bytes or acpCutMeasure), then stops the agent
// and closes the SDK's side.
func (l *acpReader) cutLine(br *bufio.Reader, n int64) {
	if l.deadline != nil {
		_ = l.deadline(time.Now().Add(acpCutMeasure))
	}
	more := true
	for n < acpCutMeasureMax {
		frag, err := br.ReadSlice('\n')
		n += int64(len(frag))
		if err == nil {
			n-- // the newline
			more = false
			break
		}
		if err != bufio.ErrBufferFull {
			more = !errors.Is(err, io.EOF) // a timeout, or the pipe closed
			break
		}
	}
	c := &acpCutError{Size: n, More: more}
	l.mu.Lock()
	l.cut = c
	l.mu.Unlock()
	if l.log != nil {
		l.log("agent line over the limit; stopping the agent", "bytes", n, "more", more, "limit", acpMaxLine)
	}
	if l.onCut != nil {
		l.onCut(c)
	}
	l.dst.CloseWithError(c)
	l.stop()
}

// cause is the cut that stopped the reader, nil if none.
func (l *acpReader) cause() *acpCutError {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cut
}

// forward hands one line to the SDK: after a mark that the SDK has
// applied when it is a request, else after at most acpMarksAhead
// unapplied marks. It reports false once the SDK's side is closed.
func (l *acpReader) forward(line []byte) bool {
	if l.update != nil {
		if n, ok := acpDecodeUpdate(line); ok {
			return l.apply(n)
		}
	}
	// After the update decoder: a session/update (a tool's output may
	// quote "elicitation/create") is never decoded twice.
	line = acpRenameElicit(line) // acp_elicit.go
	req := acpIsRequest(line)
	l.mu.Lock()
	l.lines++
	for !l.stopped && l.sent-l.applied >= acpMarksAhead {
		l.cond.Wait()
	}
	mark := !l.stopped && (req || l.since >= acpMarkEvery || l.sinceB >= acpMarkBytes)
	stopped := l.stopped
	l.mu.Unlock()
	if stopped {
		return false
	}
	if mark && !l.mark() {
		return false
	}
	if req && !l.waitApplied() {
		return false
	}
	if _, err := l.dst.Write(line); err != nil {
		return false
	}
	l.mu.Lock()
	l.since++
	l.sinceB += len(line)
	l.mu.Unlock()
	return true
}

// apply applies an update the reader decoded, once the SDK has applied
// what it was handed before.
func (l *acpReader) apply(n acp.SessionNotification) bool {
	l.mu.Lock()
	l.lines++
	handed, stopped := l.since > 0, l.stopped
	l.mu.Unlock()
	if stopped {
		return false
	}
	if handed && (!l.mark() || !l.waitApplied()) {
		return false
	}
	l.update(n)
	return true
}

// mark writes the next mark.
func (l *acpReader) mark() bool {
	l.mu.Lock()
	l.sent++ // before the write: the SDK may apply it before Write returns
	n := l.sent
	l.since, l.sinceB = 0, 0
	l.mu.Unlock()
	b := fmt.Appendf(nil, `{"jsonrpc":"2.0","method":%q,"params":{"token":%q,"n":%d}}`+"\n", acpMarkMethod, l.token, n)
	_, err := l.dst.Write(b)
	return err == nil
}

// waitApplied waits until every mark written has been applied.
func (l *acpReader) waitApplied() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for !l.stopped && l.applied < l.sent {
		l.cond.Wait()
	}
	return !l.stopped
}

// applyMark is the notification goroutine reaching a mark.
func (l *acpReader) applyMark(params json.RawMessage) {
	var m struct {
		Token string `json:"token"`
		N     uint64 `json:"n"`
	}
	if json.Unmarshal(params, &m) != nil || m.Token != l.token {
		return // not ours (an agent cannot know the token)
	}
	l.mu.Lock()
	if m.N > l.applied && m.N <= l.sent {
		l.applied = m.N
		l.cond.Broadcast()
	}
	l.mu.Unlock()
}

// stop wakes and ends the reader: the SDK's side is gone.
func (l *acpReader) stop() {
	l.mu.Lock()
	l.stopped = true
	l.cond.Broadcast()
	l.mu.Unlock()
	l.out.Close()
}

// acpIsRequest reports whether a JSON-RPC line is a request as the SDK
// reads it: an object whose last "id" member (matched without case, as
// encoding/json does) is not null and whose "method" is a non-empty
// string. Anything else — a notification, a response, junk — is not.
func acpIsRequest(b []byte) bool {
	i := acpSkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i++
	hasID, hasMethod := false, false
	for {
		i = acpSkipSpace(b, i)
		if i >= len(b) {
			return false
		}
		if b[i] == '}' {
			break
		}
		if b[i] != '"' {
			return false
		}
		end := acpSkipString(b, i)
		if end < 0 {
			return false
		}
		key := b[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var s string
			if json.Unmarshal(b[i:end], &s) != nil {
				return false
			}
			key = []byte(s)
		}
		i = acpSkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = acpSkipSpace(b, i+1)
		vend := acpSkipValue(b, i)
		if vend < 0 {
			return false
		}
		v := b[i:vend]
		switch {
		case bytes.EqualFold(key, []byte("id")):
			hasID = !bytes.Equal(v, []byte("null"))
		case bytes.EqualFold(key, []byte("method")):
			hasMethod = len(v) > 2 && v[0] == '"'
		}
		i = acpSkipSpace(b, vend)
		if i >= len(b) {
			return false
		}
		if b[i] == ',' {
			i++
			continue
		}
		if b[i] != '}' {
			return false
		}
		break
	}
	return hasID && hasMethod
}

func acpSkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// acpSkipString returns the index after the string starting at b[i]
// (a quote), -1 if it does not end.
func acpSkipString(b []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		// An odd number of backslashes before it escapes the quote.
		k := i - 1
		for k >= 0 && b[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			return i + 1
		}
		i++
	}
}

// acpSkipValue returns the index after the JSON value starting at b[i],
// -1 if it is malformed (only the structure is checked).
func acpSkipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return acpSkipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = acpSkipString(b, i)
				if i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
