package acpagents

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/internal/fakemodel"
)

// EnvGate is the environment variable that turns the real-agent tests on.
const EnvGate = "CHIPCHAT_REAL_AGENTS"

// Dirs are the isolated directories of one agent run.
type Dirs struct {
	Root    string // parent of the others
	Home    string // HOME
	Config  string // XDG_CONFIG_HOME
	Data    string // XDG_DATA_HOME
	State   string // XDG_STATE_HOME
	Cache   string // XDG_CACHE_HOME
	Project string // the session's cwd
	Tmp     string // TMPDIR
}

// NewDirs makes the directories under root.
func NewDirs(root string) (Dirs, error) {
	d := Dirs{
		Root:    root,
		Home:    filepath.Join(root, "home"),
		Config:  filepath.Join(root, "home", ".config"),
		Data:    filepath.Join(root, "home", ".local", "share"),
		State:   filepath.Join(root, "home", ".local", "state"),
		Cache:   filepath.Join(root, "home", ".cache"),
		Project: filepath.Join(root, "proj"),
		Tmp:     filepath.Join(root, "tmp"),
	}
	for _, p := range []string{d.Home, d.Config, d.Data, d.State, d.Cache, d.Project, d.Tmp} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			return d, err
		}
	}
	return d, nil
}

// Env is the environment of an agent process: nothing of the caller's but
// PATH, so no real key or home leaks in.
func (d Dirs) Env(extra []string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + d.Home,
		"XDG_CONFIG_HOME=" + d.Config,
		"XDG_DATA_HOME=" + d.Data,
		"XDG_STATE_HOME=" + d.State,
		"XDG_CACHE_HOME=" + d.Cache,
		// Its own TMPDIR: Codex refuses to put its helper binaries (the
		// sandbox launcher) into CODEX_HOME when that is under TMPDIR.
		"TMPDIR=" + d.Tmp,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"NO_PROXY=127.0.0.1,localhost",
		"no_proxy=127.0.0.1,localhost",
	}
	return append(env, extra...)
}

// WriteFile writes a file, making its directory.
func WriteFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

// Event is one thing the agent sent, in order of arrival.
type Event struct {
	Seq  int
	Kind string // the sessionUpdate discriminator, or "permission"
	// Update is set for session updates.
	Update *acp.SessionNotification
	// Permission is set for permission requests, with the answer given.
	Permission *acp.RequestPermissionRequest
	Answer     *acp.RequestPermissionResponse
	JSON       string // the notification or request as JSON
}

// Client is an ACP client that records everything and answers permission
// requests with Decide.
type Client struct {
	mu     sync.Mutex
	events []Event
	seq    int
	notify chan struct{}
	decide func(acp.RequestPermissionRequest) acp.RequestPermissionResponse
	// Root limits the fs methods to paths under it ("" refuses them all).
	root  string
	terms *terminals // nil: terminal/* is not offered
}

// NewClient returns a recording client whose fs methods serve root.
func NewClient(root string) *Client {
	return &Client{notify: make(chan struct{}), root: root, decide: PickKind(acp.PermissionOptionKindAllowOnce, acp.PermissionOptionKindAllowAlways)}
}

// SetDecide sets how permission requests are answered.
func (c *Client) SetDecide(f func(acp.RequestPermissionRequest) acp.RequestPermissionResponse) {
	c.mu.Lock()
	c.decide = f
	c.mu.Unlock()
}

// PickKind answers with the first option of the first of kinds that the
// request offers, else cancelled.
func PickKind(kinds ...acp.PermissionOptionKind) func(acp.RequestPermissionRequest) acp.RequestPermissionResponse {
	return func(r acp.RequestPermissionRequest) acp.RequestPermissionResponse {
		for _, k := range kinds {
			for _, o := range r.Options {
				if o.Kind == k {
					return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(o.OptionId)}
				}
			}
		}
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}
	}
}

// Mark is the sequence number the next event will get.
func (c *Client) Mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq
}

// Events returns the events with Seq >= from.
func (c *Client) Events(from int) []Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Event
	for _, e := range c.events {
		if e.Seq >= from {
			out = append(out, e)
		}
	}
	return out
}

// WaitFor waits until an event from `from` on satisfies ok, or ctx ends.
func (c *Client) WaitFor(ctx context.Context, from int, ok func(Event) bool) (Event, error) {
	for {
		c.mu.Lock()
		for _, e := range c.events {
			if e.Seq >= from && ok(e) {
				c.mu.Unlock()
				return e, nil
			}
		}
		ch := c.notify
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return Event{}, ctx.Err()
		}
	}
}

func (c *Client) add(e Event) Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.Seq = c.seq
	c.seq++
	c.events = append(c.events, e)
	close(c.notify)
	c.notify = make(chan struct{})
	return e
}

// UpdateKind is the sessionUpdate discriminator of u.
func UpdateKind(u acp.SessionUpdate) string {
	b, err := json.Marshal(u)
	if err != nil {
		return "?"
	}
	var d struct {
		SessionUpdate string `json:"sessionUpdate"`
	}
	_ = json.Unmarshal(b, &d)
	return d.SessionUpdate
}

// SessionUpdate implements acp.Client.
func (c *Client) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	b, _ := json.Marshal(n)
	c.add(Event{Kind: UpdateKind(n.Update), Update: &n, JSON: string(b)})
	return nil
}

// RequestPermission implements acp.Client.
func (c *Client) RequestPermission(_ context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	c.mu.Lock()
	decide := c.decide
	c.mu.Unlock()
	ans := decide(p)
	b, _ := json.Marshal(p)
	c.add(Event{Kind: "permission", Permission: &p, Answer: &ans, JSON: string(b)})
	return ans, nil
}

func (c *Client) inRoot(p string) error {
	if c.root == "" {
		return acp.NewMethodNotFound("no file system")
	}
	rel, err := filepath.Rel(c.root, filepath.Clean(p))
	if err != nil || strings.HasPrefix(rel, "..") || filepath.IsAbs(rel) {
		return acp.NewInvalidParams(map[string]any{"path": p, "error": "outside the project"})
	}
	return nil
}

// ReadTextFile implements acp.Client (within the project).
func (c *Client) ReadTextFile(_ context.Context, r acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	c.recordCall("fs/read_text_file", r)
	if err := c.inRoot(r.Path); err != nil {
		return acp.ReadTextFileResponse{}, err
	}
	b, err := os.ReadFile(r.Path)
	if err != nil {
		return acp.ReadTextFileResponse{}, acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	text := string(b)
	if r.Line != nil || r.Limit != nil {
		lines := strings.SplitAfter(text, "\n")
		start := 0
		if r.Line != nil && *r.Line > 0 {
			start = *r.Line - 1
		}
		if start > len(lines) {
			start = len(lines)
		}
		end := len(lines)
		if r.Limit != nil && start+*r.Limit < end {
			end = start + *r.Limit
		}
		text = strings.Join(lines[start:end], "")
	}
	return acp.ReadTextFileResponse{Content: text}, nil
}

// WriteTextFile implements acp.Client (within the project).
func (c *Client) WriteTextFile(_ context.Context, r acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	c.recordCall("fs/write_text_file", map[string]any{"path": r.Path, "bytes": len(r.Content)})
	if err := c.inRoot(r.Path); err != nil {
		return acp.WriteTextFileResponse{}, err
	}
	if err := os.WriteFile(r.Path, []byte(r.Content), 0o644); err != nil {
		return acp.WriteTextFileResponse{}, acp.NewInternalError(map[string]any{"error": err.Error()})
	}
	return acp.WriteTextFileResponse{}, nil
}

var errNoTerminal = acp.NewMethodNotFound("the test client offers no terminal")

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// Proc is a running agent process with its ACP connection.
type Proc struct {
	Conn   *acp.ClientSideConnection
	Client *Client
	Init   acp.InitializeResponse
	cmd    *exec.Cmd
	stdin  io.Closer
	stderr *tail
	done   chan struct{}
	// StopHow says how the last Stop ended the process: "stdin closed",
	// "SIGTERM" or "SIGKILL".
	StopHow string
	// StdinGrace is how long Stop waits for the process to exit after it
	// closed stdin, before SIGTERM (0: stopGrace). A test that asserts an
	// agent exits when stdin closes sets it long, so that a slow exit on a
	// busy machine is not taken for none.
	StdinGrace time.Duration
}

// Stderr is the tail of the agent's stderr.
func (p *Proc) Stderr() string { return p.stderr.String() }

// Start runs argv in dir with env, connects, and initializes with the given
// client capabilities.
func Start(ctx context.Context, argv []string, dir string, env []string, client *Client, caps acp.ClientCapabilities) (*Proc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &Proc{Client: client, cmd: cmd, stdin: stdin, stderr: &tail{max: 16 << 10}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	p.Conn = acp.NewClientSideConnection(client, stdin, stdout)
	p.Conn.SetLogger(nil)
	resp, err := p.Conn.Initialize(ctx, acp.InitializeRequest{
		ProtocolVersion:    acp.ProtocolVersionNumber,
		ClientCapabilities: caps,
		ClientInfo:         &acp.Implementation{Name: "chipchat-acpagents", Version: "test"},
	})
	if err != nil {
		p.Stop()
		return nil, fmt.Errorf("initialize: %w; stderr: %s", err, p.Stderr())
	}
	p.Init = resp
	return p, nil
}

// Stop ends the process as a client would: it closes stdin, then sends
// SIGTERM to the process group, then SIGKILL, each after a grace.
func (p *Proc) Stop() {
	if p.cmd.Process == nil {
		return
	}
	pgid := p.cmd.Process.Pid
	exited := func(how string, grace time.Duration) bool {
		timer := time.NewTimer(grace)
		defer timer.Stop()
		select {
		case <-p.done:
			if p.StopHow == "" {
				p.StopHow = how
			}
			return true
		case <-timer.C:
			return false
		}
	}
	grace := p.StdinGrace
	if grace == 0 {
		grace = stopGrace
	}
	_ = p.stdin.Close()
	if !exited("stdin closed", grace) {
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		if !exited("SIGTERM", termGrace) {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-p.done
			p.StopHow = "SIGKILL"
		}
	}
	// Children that outlived the group's leader.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	p.Client.stopTerminals()
}

// stopGrace is how long Stop gives an agent to exit after stdin closed
// (Codex never does); termGrace, after SIGTERM (all exit at once then, a
// busy machine may delay it).
const (
	stopGrace = 2 * time.Second
	termGrace = 20 * time.Second
)

// Exited is closed when the process has ended.
func (p *Proc) Exited() <-chan struct{} { return p.done }

// TurnText is the concatenated agent_message_chunk text of events.
func TurnText(events []Event) string {
	var b strings.Builder
	for _, e := range events {
		if e.Update != nil && e.Update.Update.AgentMessageChunk != nil {
			if t := e.Update.Update.AgentMessageChunk.Content.Text; t != nil {
				b.WriteString(t.Text)
			}
		}
	}
	return b.String()
}

// Kinds lists the event kinds in order, runs of one kind collapsed
// ("agent_message_chunk×3").
func Kinds(events []Event) string {
	var out []string
	for i := 0; i < len(events); {
		j := i
		for j < len(events) && events[j].Kind == events[i].Kind {
			j++
		}
		if j-i > 1 {
			out = append(out, fmt.Sprintf("%s×%d", events[i].Kind, j-i))
		} else {
			out = append(out, events[i].Kind)
		}
		i = j
	}
	return strings.Join(out, " ")
}

// ToolContentKinds lists the content types ("diff", "content", "terminal")
// of a tool call update's content.
func ToolContentKinds(c []acp.ToolCallContent) []string {
	var out []string
	for _, x := range c {
		switch {
		case x.Diff != nil:
			out = append(out, "diff")
		case x.Content != nil:
			out = append(out, "content")
		case x.Terminal != nil:
			out = append(out, "terminal")
		}
	}
	return out
}

// ToolText is all text the events carry about tool calls (titles, content,
// diffs, raw input/output), for "does the client get to see X" checks.
func ToolText(events []Event) string {
	var b bytes.Buffer
	add := func(title *string, content []acp.ToolCallContent, rawIn, rawOut any) {
		if title != nil {
			b.WriteString(*title + "\n")
		}
		for _, c := range content {
			switch {
			case c.Diff != nil:
				if c.Diff.OldText != nil {
					b.WriteString(*c.Diff.OldText + "\n")
				}
				b.WriteString(c.Diff.Path + "\n" + c.Diff.NewText + "\n")
			case c.Content != nil && c.Content.Content.Text != nil:
				b.WriteString(c.Content.Content.Text.Text + "\n")
			}
		}
		for _, r := range []any{rawIn, rawOut} {
			if r != nil {
				j, _ := json.Marshal(r)
				b.Write(j)
				b.WriteString("\n")
			}
		}
	}
	for _, e := range events {
		switch {
		case e.Update != nil && e.Update.Update.ToolCall != nil:
			tc := e.Update.Update.ToolCall
			add(&tc.Title, tc.Content, tc.RawInput, tc.RawOutput)
		case e.Update != nil && e.Update.Update.ToolCallUpdate != nil:
			tc := e.Update.Update.ToolCallUpdate
			add(tc.Title, tc.Content, tc.RawInput, tc.RawOutput)
		case e.Permission != nil:
			tc := e.Permission.ToolCall
			add(tc.Title, tc.Content, tc.RawInput, tc.RawOutput)
		}
	}
	return b.String()
}

// Prompt sends blocks and waits for the answer, returning the events the
// turn produced.
func (p *Proc) Prompt(ctx context.Context, sid acp.SessionId, blocks ...acp.ContentBlock) (acp.PromptResponse, []Event, error) {
	mark := p.Client.Mark()
	resp, err := p.Conn.Prompt(ctx, acp.PromptRequest{SessionId: sid, Prompt: blocks})
	if err != nil {
		err = fmt.Errorf("prompt: %w; stderr: %s", err, lastLines(p.Stderr(), 20))
	}
	return resp, p.Client.Events(mark), err
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// WaitModel waits until the fake server has received n model requests.
func WaitModel(ctx context.Context, s *fakemodel.Server, n int) error {
	for {
		ch := s.Changed()
		if len(s.Exchanges()) >= n {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return errors.New("fake model: timed out waiting for requests:\n" + s.Summary())
		}
	}
}

var _ acp.Client = (*Client)(nil)
var _ io.Writer = (*tail)(nil)
