package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chipchat/chipchat/message"
)

// AttachmentsEnv names the environment variable that holds the directory of
// a turn's attachments for the exec backend.
const AttachmentsEnv = "CHIPCHAT_ATTACHMENTS"

// HistoryEnv names the environment variable that holds the path of a JSON
// file with the thread's earlier messages, for the exec backend.
const HistoryEnv = "CHIPCHAT_HISTORY"

// Exec is the exec:<command> backend: each turn runs Command with `sh -c`
// in the turn's directory, in a process group of its own. Stdin is the
// projected prompt followed, each after a blank line, by the payload
// fragments the openai harness puts in the same user turn: an
// <attached_file> per text file, pasted-text chip or @ mention snapshot
// (cut at Turn.Limits), a one-line <attached_file> notice per image or
// other binary naming its file, a <thread_history> per referenced thread —
// so a command that only reads stdin (llm, ollama run) sees the content.
//
// The environment also has CHIPCHAT_ATTACHMENTS, a fresh directory with
// every attachment with bytes copied under its original name, one folder
// per context id ("$CHIPCHAT_ATTACHMENTS/ctx_1/notes.txt"; a mention as its
// snapshot under the file's base name, a directory mention as
// "listing.txt"), and CHIPCHAT_HISTORY, the path of a JSON file holding
// the thread's earlier messages (Turn.History) as an array of
// {"role": "user"|"assistant", "text": …} (a user message's projected
// text, a reply's text; "interrupted": true on a cancelled reply). Both
// are removed when the turn ends.
//
// Stdout streams into the reply as it arrives. A non-zero exit is an error
// holding the tail of stderr (the last 20 lines, at most 2 KB). Cancelling
// the turn kills the whole process group, and so does the end of the turn:
// nothing the command started outlives it.
//
// Attachments are copied, not linked: a hard or symbolic link would let
// the command write into the content-addressed asset store. Names are made
// harmless (path separators, NUL and leading dots); attachments without
// bytes (empty Path) are left out of the directory.
type Exec struct {
	Command string
	// Shell runs Command with "-c"; empty means "sh".
	Shell string
	// Grace bounds how long the end of stdout is awaited once the command
	// has exited and its group was killed; 0 means 2s.
	Grace time.Duration
	// Host runs the command elsewhere (a remote project) when not nil:
	// the attachments and the history are staged there (Host.Stage) and
	// copied into a fresh directory of the host's, which
	// $CHIPCHAT_ATTACHMENTS and $CHIPCHAT_HISTORY name and which is
	// removed when the command ends; the command runs with `sh -c` in
	// the turn's directory there.
	Host Host
}

const (
	execTailBytes = 2048
	execTailLines = 20
)

// Name is "exec:<command>".
func (e Exec) Name() string { return "exec:" + e.Command }

// Capabilities: a command per turn, cancelled by killing its process
// group; it wants the history (CHIPCHAT_HISTORY); chipchat delivers the
// payload itself (stdin and $CHIPCHAT_ATTACHMENTS); its replies are the
// command's plain-text output.
func (Exec) Capabilities() Capabilities {
	return Capabilities{History: true, Cancel: true, Files: true, Images: true, InlinePayload: true, PlainText: true}
}

// Run answers t with the command's stdout as text deltas.
func (e Exec) Run(ctx context.Context, t Turn, emit func(Event)) error {
	return e.stream(ctx, t, func(s string) { emit(TextDelta{s}) })
}

func (e Exec) stream(ctx context.Context, t Turn, emit func(delta string)) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	if strings.TrimSpace(e.Command) == "" {
		return errors.New("exec: no command")
	}
	root, err := os.MkdirTemp("", "chipchat-turn-")
	if err != nil {
		return fmt.Errorf("exec: %w", err)
	}
	defer os.RemoveAll(root)
	dir := filepath.Join(root, "attachments")
	places, err := execCopyAttachments(dir, t.Attachments)
	if err != nil {
		return fmt.Errorf("exec: attachments: %w", err)
	}
	historyPath := filepath.Join(root, "history.json")
	if err := execWriteHistory(historyPath, t.History); err != nil {
		return fmt.Errorf("exec: history: %w", err)
	}

	var cmd *exec.Cmd
	start := time.Now()
	if e.Host != nil {
		if cmd, err = e.hostCommand(ctx, t.Dir, dir, historyPath, places); err != nil {
			return fmt.Errorf("exec: %w", err)
		}
	} else {
		shell := e.Shell
		if shell == "" {
			shell = "sh"
		}
		cmd = exec.Command(shell, "-c", e.Command)
		cmd.Dir = t.Dir
		cmd.Env = append(os.Environ(), AttachmentsEnv+"="+dir, HistoryEnv+"="+historyPath)
	}
	cmd.Stdin = strings.NewReader(ExecStdin(t, func(a Attachment) string {
		if rel, ok := places[a.ContextID]; ok {
			return "$" + AttachmentsEnv + "/" + rel
		}
		return ""
	}))
	execSetGroup(cmd)
	outR, outW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("exec: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return fmt.Errorf("exec: %w", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	if err := cmd.Start(); err != nil {
		outR.Close()
		outW.Close()
		errR.Close()
		errW.Close()
		return fmt.Errorf("exec: %w", err)
	}
	// The child has its copies; ours must go so EOF can come.
	outW.Close()
	errW.Close()
	killGroup := func() { execKillGroup(cmd) }

	var wg sync.WaitGroup
	tail := &execTail{max: execTailBytes}
	wg.Add(2)
	go func() {
		defer wg.Done()
		execStreamUTF8(outR, emit)
	}()
	go func() {
		defer wg.Done()
		_, _ = io.Copy(tail, errR)
	}()

	exited := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			killGroup()
		case <-exited:
		}
	}()
	waitErr := cmd.Wait()
	close(exited)
	// Whatever the command left running goes with it.
	killGroup()
	readers := make(chan struct{})
	go func() { wg.Wait(); close(readers) }()
	grace := e.Grace
	if grace <= 0 {
		grace = 2 * time.Second
	}
	select {
	case <-readers:
	case <-time.After(grace):
		// A process that left the group still holds the pipes.
	}
	outR.Close()
	errR.Close()
	<-readers

	if err := ctx.Err(); err != nil {
		return err
	}
	if waitErr == nil {
		return nil
	}
	var ee *exec.ExitError
	if !errors.As(waitErr, &ee) {
		return fmt.Errorf("exec: %w", waitErr)
	}
	msg := "exec: command " + execExitDescription(ee)
	if e.Host != nil && hostDropped(e.Host, start, ee.ExitCode()) {
		msg = "exec: the connection to " + e.Host.Label() + " dropped while the command ran (ssh exited with status 255); chipchat reconnects by itself: send again once the header no longer says reconnecting"
	}
	if s := tail.Tail(execTailLines); s != "" {
		msg += ":\n" + s
	}
	return errors.New(msg)
}

func execExitDescription(ee *exec.ExitError) string {
	if sig := execSignal(ee); sig != "" {
		return "killed by signal " + sig
	}
	return "exited with status " + strconv.Itoa(ee.ExitCode())
}

// execStreamUTF8 emits what r yields as it comes, holding back an incomplete
// UTF-8 sequence at the end of a read until the next one completes it.
func execStreamUTF8(r io.Reader, emit func(string)) {
	// One buffer read into after the bytes of a character the last read
	// cut (at most three, moved to its front): each read costs the one
	// string it emits.
	buf := make([]byte, 32<<10)
	carry := 0
	for {
		n, err := r.Read(buf[carry:])
		if n > 0 {
			data := buf[:carry+n]
			cut := len(data) - execIncompleteSuffix(data)
			if cut > 0 {
				emit(string(data[:cut]))
			}
			carry = copy(buf, data[cut:])
		}
		if err != nil {
			if carry > 0 {
				emit(string(buf[:carry]))
			}
			return
		}
	}
}

// execIncompleteSuffix is the length of a UTF-8 sequence cut short at the end
// of b (0 when b ends on a rune boundary or with invalid bytes).
func execIncompleteSuffix(b []byte) int {
	for i := 1; i <= 3 && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < 0x80 {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return i
			}
			return 0
		}
	}
	return 0
}

// execTail keeps the last max bytes written to it.
type execTail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *execTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// Tail is the kept text's last lines (at most n), trailing whitespace
// trimmed, starting on a whole rune.
func (t *execTail) Tail(n int) string {
	t.mu.Lock()
	b := append([]byte(nil), t.buf...)
	t.mu.Unlock()
	for len(b) > 0 && !utf8.RuneStart(b[0]) {
		b = b[1:]
	}
	s := strings.TrimRight(string(b), " \t\r\n")
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// ExecStdin is what the exec backend writes on the command's stdin for t:
// the projected prompt, then each payload fragment after a blank line.
// place names an attachment's file for the notices of images and binaries
// (nil: none named).
func ExecStdin(t Turn, place func(Attachment) string) string {
	parts := deliver(planPayload(t.Attachments, t.Threads, t.Limits), filePlace(place))
	if len(parts) == 0 {
		return t.Prompt
	}
	var b strings.Builder
	b.WriteString(t.Prompt)
	for _, p := range parts {
		b.WriteString("\n\n")
		b.WriteString(p.text)
	}
	b.WriteByte('\n')
	return b.String()
}

// execHistoryEntry is one message in CHIPCHAT_HISTORY's file.
type execHistoryEntry struct {
	Role        string `json:"role"`
	Text        string `json:"text"`
	Interrupted bool   `json:"interrupted,omitempty"`
}

// execWriteHistory writes the thread's earlier messages as JSON.
func execWriteHistory(path string, history []HistoryMessage) error {
	entries := make([]execHistoryEntry, 0, len(history))
	for _, h := range history {
		role := "user"
		if h.Role == "assistant" {
			role = "assistant"
		}
		entries = append(entries, execHistoryEntry{Role: role, Text: h.Text, Interrupted: h.Interrupted})
	}
	data, err := message.MarshalJSON(entries)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o600)
}

// execCopyAttachments copies each attachment with bytes into its own
// folder of dir, named after its context id, under its original name. It
// returns where each went, relative to dir, by context id.
func execCopyAttachments(dir string, atts []Attachment) (map[string]string, error) {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, err
	}
	places := map[string]string{}
	folders := map[string]bool{}
	for _, a := range atts {
		if a.Path == "" {
			continue
		}
		if _, done := places[a.ContextID]; done && a.ContextID != "" {
			continue
		}
		folder := execUniqueName(execFileName(a.ContextID, "attachment"), folders)
		if err := os.Mkdir(filepath.Join(dir, folder), 0o700); err != nil {
			return nil, err
		}
		name := a.Name
		switch a.Kind {
		case KindMention:
			name = path.Base(strings.TrimRight(filepath.ToSlash(a.Name), "/"))
		case KindDirectory:
			name = "listing.txt"
		}
		name = execFileName(name, a.AttachmentID)
		if err := execCopyFile(a.Path, filepath.Join(dir, folder, name)); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // the notice says it is not available
			}
			return nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		places[a.ContextID] = folder + "/" + name
	}
	return places, nil
}

// execFileName makes an attachment name usable as one file name in a
// directory: path separators and NUL become '_', leading dots are dropped.
func execFileName(name, fallback string) string {
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, strings.TrimSpace(name))
	name = strings.TrimLeft(name, ".")
	if name == "" {
		name = strings.TrimLeft(fallback, ".")
	}
	if name == "" {
		name = "attachment"
	}
	return name
}

func execUniqueName(name string, used map[string]bool) string {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	cand := name
	for i := 2; used[strings.ToLower(cand)]; i++ {
		cand = stem + "-" + strconv.Itoa(i) + ext
	}
	used[strings.ToLower(cand)] = true
	return cand
}

func execCopyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
