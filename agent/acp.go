package agent

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"
)

// The acp:<command> backend speaks the Agent Client Protocol over the stdio
// of a long-lived agent process (Gemini CLI, Claude Code through its ACP
// adapter, codex-acp, opencode, …).
//
// Decisions:
//   - The process is started lazily on the first turn as `sh -c <command>` in
//     the project directory (ACPOptions.Dir, else the first Turn.Dir, else the
//     working directory), in its own process group; Close kills the group. If
//     the process dies, the next turn starts a new one.
//   - One ACP session per chipchat thread. A thread whose session was opened
//     by an earlier process (or set with SetSessionID, e.g. after a restart)
//     is resumed with session/load when the agent advertises loadSession,
//     else it gets a new session. The history that session/load replays is
//     not shown again (the transcript already has it).
//   - The prompt is Turn.Prompt as one text block, then each image attachment
//     as an image block when the agent advertises promptCapabilities.image,
//     then each other attachment as an embedded resource (text when the bytes
//     are UTF-8, else a base64 blob) when it advertises embeddedContext.
//     Otherwise the text projection alone is sent (it already names the
//     attachments). Attachments without a path, or larger than
//     acpMaxAttachment, are left to the text projection.
//   - The reply is the agent's message chunks. Thoughts are collapsed to one
//     "> thinking…" line per turn; each tool call, and each change of a tool
//     call's status, is one "> tool: <title> (<status>)" line; a plan is a
//     Markdown task list, shown again only when it changes. These status
//     blocks are separated from the prose by blank lines so Markdown renders
//     them as quotes, not as part of a paragraph.
//   - Permission requests and the choice of an authentication method are
//     asked through ACPOptions.Ask. Without Ask, permissions are rejected
//     (the agent's reject option) and authentication fails with an error that
//     lists the agent's methods. Authentication is attempted when
//     session/new or session/load answers "authentication required".
//   - Cancel: when the turn's context is cancelled, session/cancel is sent,
//     pending permission questions are answered "cancelled", and Stream
//     returns ctx.Err() once the agent ends the prompt, or after
//     ACPOptions.CancelGrace at the latest. A later turn on that session waits
//     (briefly) for the abandoned prompt to end before sending its own.
//   - chipchat offers the agent no file system or terminal capabilities.
//   - The SDK's diagnostics are discarded (they would corrupt the TUI); the
//     tail of the agent's stderr is kept for error messages.

// QuestionKind says what a Question asks.
type QuestionKind string

const (
	// QuestionPermission asks whether the agent may run a tool call.
	QuestionPermission QuestionKind = "permission"
	// QuestionAuth asks which of the agent's authentication methods to use.
	QuestionAuth QuestionKind = "auth"
)

// Question is something a backend needs the user to decide.
type Question struct {
	Kind    QuestionKind
	Title   string // one line: the tool call's title, or "Sign in to <agent>"
	Detail  string // optional further lines (tool kind and paths, method descriptions)
	Options []QuestionOption
}

// QuestionOption is one answer to a Question.
type QuestionOption struct {
	ID    string // what Answer.OptionID must hold to pick this option
	Label string // shown to the user
	// Kind is, for a permission, the ACP option kind: "allow_once",
	// "allow_always", "reject_once" or "reject_always" (a UI binds its keys
	// to these). Empty for authentication methods.
	Kind string
}

// Answer is the user's choice: the ID of one of the question's options, or
// "" when the user dismissed the question.
type Answer struct {
	OptionID string
}

// ACPOptions configures an ACP backend.
type ACPOptions struct {
	// Ask puts a question to the user and blocks until they answer or ctx is
	// done (ctx ends when the turn is cancelled). Permission questions come
	// from the connection's goroutines, authentication questions from
	// Stream's goroutine (the Runner's, never Bubble Tea's Update), and two
	// threads may ask at once. Nil means: reject permission requests, fail
	// when authentication is needed.
	Ask func(ctx context.Context, q Question) (Answer, error)
	// Dir is where the agent process runs and the default session cwd.
	// Empty means the Dir of the first turn, else the working directory.
	Dir string
	// Env is added to the agent process's environment ("KEY=value").
	Env []string
	// CancelGrace bounds how long a cancelled Stream waits for the agent to
	// end its prompt. Zero means 3s.
	CancelGrace time.Duration
}

const (
	acpDefaultCancelGrace = 3 * time.Second
	acpBusyWait           = 5 * time.Second // a new prompt waits this long for an abandoned one
	acpMaxAttachment      = 5 << 20         // bytes; larger attachments are left to the projection
	acpStderrTail         = 4 << 10
	acpKillGrace          = 2 * time.Second
)

// ACP is the acp:<command> backend. It is safe for concurrent use; Close it
// when done to stop the agent process.
type ACP struct {
	command string
	opts    ACPOptions

	startMu sync.Mutex // serializes starting the process
	authMu  sync.Mutex // serializes authentication

	mu       sync.Mutex
	closed   bool
	proc     *acpProc
	sessions map[string]string        // thread id → session id
	turns    map[string]*acpTurn      // session id → running turn
	busy     map[string]chan struct{} // session id → closed when its prompt returns
}

// NewACP returns an ACP backend for the agent started by command (a shell
// command line). Nothing is started until the first turn.
func NewACP(command string, opts ACPOptions) (*ACP, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("acp: empty agent command (use acp:<command>, e.g. acp:'gemini --experimental-acp')")
	}
	return &ACP{
		command:  command,
		opts:     opts,
		sessions: map[string]string{},
		turns:    map[string]*acpTurn{},
		busy:     map[string]chan struct{}{},
	}, nil
}

// Name is "acp:" and the command's program name ("acp:gemini").
func (a *ACP) Name() string {
	f := strings.Fields(a.command)
	for len(f) > 1 && (strings.Contains(f[0], "=") || f[0] == "exec" || f[0] == "npx" || strings.HasPrefix(f[0], "-")) {
		f = f[1:]
	}
	if len(f) == 0 {
		return "acp"
	}
	return "acp:" + filepath.Base(strings.Trim(f[0], `'"`))
}

// SessionID is the agent's session id for a thread, "" if it has none yet.
// The app stores it to resume the thread after a restart.
func (a *ACP) SessionID(threadID string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sessions[threadID]
}

// SetSessionID tells the backend the agent's session id a thread had
// before; its next turn loads that session when the agent supports
// session/load (else it starts a new one). An empty id forgets the session.
func (a *ACP) SetSessionID(threadID, sessionID string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if sessionID == "" {
		delete(a.sessions, threadID)
		return
	}
	a.sessions[threadID] = sessionID
}

// SetAsk replaces ACPOptions.Ask (for an app that builds the backend with
// New and connects its keyboard prompt afterwards). Turns already asking keep
// the function they started with.
func (a *ACP) SetAsk(ask func(ctx context.Context, q Question) (Answer, error)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.opts.Ask = ask
}

func (a *ACP) ask() func(ctx context.Context, q Question) (Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.opts.Ask
}

// Close stops the agent process (its whole process group) and makes later
// turns fail. It is safe to call more than once.
func (a *ACP) Close() error {
	a.mu.Lock()
	a.closed = true
	p := a.proc
	a.proc = nil
	a.mu.Unlock()
	if p != nil {
		p.kill()
	}
	return nil
}

// Capabilities: sessions, cancel, images and files (as the agent accepts
// them), modes and commands.
func (a *ACP) Capabilities() Capabilities {
	return Capabilities{Sessions: true, Cancel: true, Images: true, Files: true, Modes: true, Commands: true}
}

// Run sends t to the thread's session and streams the reply.
func (a *ACP) Run(ctx context.Context, t Turn, emit func(Event)) error {
	if t.SessionID != "" && a.SessionID(t.ThreadID) == "" {
		a.SetSessionID(t.ThreadID, t.SessionID)
	}
	err := a.stream(ctx, t, func(s string) { emit(TextDelta{s}) })
	if sid := a.SessionID(t.ThreadID); sid != "" && sid != t.SessionID {
		emit(SessionStarted{sid})
	}
	return err
}

func (a *ACP) stream(ctx context.Context, t Turn, emit func(delta string)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p, err := a.ensureProc(ctx, t.Dir)
	if err != nil {
		return err
	}
	sid, err := a.ensureSession(ctx, p, t, emit)
	if err != nil {
		return err
	}

	// Wait for an abandoned prompt on this session (cancelled, grace expired).
	a.mu.Lock()
	prev := a.busy[sid]
	a.mu.Unlock()
	if prev != nil {
		timer := time.NewTimer(acpBusyWait)
		select {
		case <-prev:
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		}
		timer.Stop()
	}

	turn := newACPTurn(ctx)
	done := make(chan struct{})
	a.mu.Lock()
	a.turns[sid] = turn
	a.busy[sid] = done
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		if a.turns[sid] == turn {
			delete(a.turns, sid)
		}
		a.mu.Unlock()
	}()

	req := acp.PromptRequest{SessionId: acp.SessionId(sid), Prompt: acpPromptBlocks(p.caps.PromptCapabilities, t)}
	type result struct {
		resp acp.PromptResponse
		err  error
	}
	res := make(chan result, 1)
	go func() {
		// Not ctx: an ACP turn ends with the agent's answer to session/cancel.
		resp, err := p.conn.Prompt(context.Background(), req)
		res <- result{resp, err}
		a.mu.Lock()
		if a.busy[sid] == done {
			delete(a.busy, sid)
		}
		a.mu.Unlock()
		close(done)
	}()

	grace := a.opts.CancelGrace
	if grace <= 0 {
		grace = acpDefaultCancelGrace
	}
	ctxDone := ctx.Done()
	var graceC <-chan time.Time
	cancelled := false
	for {
		select {
		case <-turn.notify:
			turn.flush(emit)
		case r := <-res:
			turn.flush(emit)
			if cancelled {
				return ctx.Err()
			}
			if r.err != nil {
				return p.wrapErr("prompt", r.err)
			}
			return acpStopReasonErr(r.resp.StopReason, emit)
		case <-ctxDone:
			cancelled, ctxDone = true, nil
			_ = p.conn.Cancel(context.Background(), acp.CancelNotification{SessionId: acp.SessionId(sid)})
			timer := time.NewTimer(grace)
			defer timer.Stop()
			graceC = timer.C
		case <-graceC:
			return ctx.Err()
		}
	}
}

// acpStopReasonErr turns a prompt's stop reason into Stream's result, with a
// note for the reasons the user should know about.
func acpStopReasonErr(r acp.StopReason, emit func(string)) error {
	switch r {
	case acp.StopReasonEndTurn, "":
		return nil
	case acp.StopReasonMaxTokens:
		emit("\n\n> stopped: the agent reached its token limit\n")
	case acp.StopReasonMaxTurnRequests:
		emit("\n\n> stopped: the agent reached its limit of model requests for one turn\n")
	case acp.StopReasonRefusal:
		emit("\n\n> the agent refused to continue\n")
	case acp.StopReasonCancelled:
		return errors.New("acp: the agent cancelled the turn")
	default:
		emit("\n\n> stopped: " + oneLine(string(r)) + "\n")
	}
	return nil
}

// --- process ---

type acpProc struct {
	cmd         *exec.Cmd
	conn        *acp.ClientSideConnection
	stdin       io.Closer
	stdout      io.Closer
	stderr      *acpTailBuffer
	dir         string
	caps        acp.AgentCapabilities
	authMethods []acp.AuthMethod
	agentName   string

	exited  chan struct{} // closed when the process has been reaped
	waitErr error         // valid after exited

	mu   sync.Mutex
	live map[string]bool // sessions opened or loaded by this process
}

// ensureProc returns the running agent process, starting it (and
// initializing the connection) if there is none.
func (a *ACP) ensureProc(ctx context.Context, turnDir string) (*acpProc, error) {
	a.startMu.Lock()
	defer a.startMu.Unlock()
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil, errors.New("acp: backend closed")
	}
	p := a.proc
	a.mu.Unlock()
	if p != nil && !p.dead() {
		return p, nil
	}
	if p != nil {
		p.kill()
	}

	dir := a.opts.Dir
	if dir == "" {
		dir = turnDir
	}
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("acp: %w", err)
		}
		dir = wd
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	p, err := acpStart(a.command, dir, a.opts.Env, &acpClient{a: a})
	if err != nil {
		return nil, err
	}
	resp, err := p.conn.Initialize(ctx, acp.InitializeRequest{
		ProtocolVersion:    acp.ProtocolVersionNumber,
		ClientCapabilities: acp.ClientCapabilities{},
		ClientInfo:         &acp.Implementation{Name: "chipchat", Title: acp.Ptr("chipchat"), Version: "dev"},
	})
	if err != nil {
		werr := p.wrapErr("initialize", err)
		p.kill()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, werr
	}
	p.caps = resp.AgentCapabilities
	p.authMethods = resp.AuthMethods
	if resp.AgentInfo != nil {
		p.agentName = resp.AgentInfo.Name
		if resp.AgentInfo.Title != nil && *resp.AgentInfo.Title != "" {
			p.agentName = *resp.AgentInfo.Title
		}
	}
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		p.kill()
		return nil, errors.New("acp: backend closed")
	}
	a.proc = p
	a.mu.Unlock()
	return p, nil
}

func acpStart(command, dir string, env []string, client acp.Client) (*acpProc, error) {
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	acpSetGroup(cmd)
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("acp: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("acp: %w", err)
	}
	p := &acpProc{cmd: cmd, stdin: inW, stdout: outR, stderr: &acpTailBuffer{max: acpStderrTail}, dir: dir,
		exited: make(chan struct{}), live: map[string]bool{}}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("acp: starting %q: %w", command, err)
	}
	inR.Close()
	outW.Close()
	p.conn = acp.NewClientSideConnection(client, inW, outR)
	p.conn.SetLogger(slog.New(slog.DiscardHandler))
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
		inW.Close()
	}()
	return p, nil
}

func (p *acpProc) dead() bool {
	select {
	case <-p.exited:
		return true
	case <-p.conn.Done():
		return true
	default:
		return false
	}
}

// kill closes the agent's stdin, then terminates its process group, harder
// after acpKillGrace, and waits (bounded) for it to be reaped.
func (p *acpProc) kill() {
	p.stdin.Close()
	acpSignalGroup(p.cmd, false)
	select {
	case <-p.exited:
	case <-time.After(acpKillGrace):
		acpSignalGroup(p.cmd, true)
		select {
		case <-p.exited:
		case <-time.After(acpKillGrace):
		}
	}
	p.stdout.Close()
}

// wrapErr describes a failed request; when the agent died, with its exit
// status and the tail of its stderr.
func (p *acpProc) wrapErr(what string, err error) error {
	select {
	case <-p.conn.Done():
		// The process may still be being reaped.
		select {
		case <-p.exited:
		case <-time.After(500 * time.Millisecond):
		}
	default:
	}
	select {
	case <-p.exited:
		msg := "exited"
		if p.waitErr != nil {
			msg = p.waitErr.Error()
		}
		if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
			msg += ": " + tail
		}
		return fmt.Errorf("acp: agent %s during %s", msg, what)
	default:
	}
	var re *acp.RequestError
	if errors.As(err, &re) {
		m := re.Message
		if d, ok := re.Data.(map[string]any); ok {
			for _, k := range []string{"details", "error", "message"} {
				if s, ok := d[k].(string); ok && s != "" {
					m += ": " + s
					break
				}
			}
		}
		return fmt.Errorf("acp: %s: %s (code %d)", what, m, re.Code)
	}
	return fmt.Errorf("acp: %s: %w", what, err)
}

// --- sessions and authentication ---

func (a *ACP) ensureSession(ctx context.Context, p *acpProc, t Turn, emit func(string)) (string, error) {
	a.mu.Lock()
	sid := a.sessions[t.ThreadID]
	a.mu.Unlock()
	p.mu.Lock()
	live := sid != "" && p.live[sid]
	p.mu.Unlock()
	if live {
		return sid, nil
	}
	cwd := p.dir
	if t.Dir != "" {
		if abs, err := filepath.Abs(t.Dir); err == nil {
			cwd = abs
		}
	}
	if sid != "" && p.caps.LoadSession {
		err := a.withAuth(ctx, p, func() error {
			_, err := p.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: acp.SessionId(sid), Cwd: cwd, McpServers: []acp.McpServer{}})
			return err
		})
		if err == nil {
			p.mu.Lock()
			p.live[sid] = true
			p.mu.Unlock()
			return sid, nil
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if p.dead() {
			return "", p.wrapErr("session/load", err)
		}
		emit("> could not resume the agent's session (" + oneLine(p.wrapErr("session/load", err).Error()) + "); starting a new one\n\n")
	} else if sid != "" {
		emit("> this agent cannot resume sessions; starting a new one\n\n")
	}
	var resp acp.NewSessionResponse
	err := a.withAuth(ctx, p, func() error {
		var err error
		resp, err = p.conn.NewSession(ctx, acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", p.wrapErr("session/new", err)
	}
	sid = string(resp.SessionId)
	p.mu.Lock()
	p.live[sid] = true
	p.mu.Unlock()
	a.mu.Lock()
	a.sessions[t.ThreadID] = sid
	a.mu.Unlock()
	return sid, nil
}

// withAuth runs call; when the agent answers "authentication required" it
// authenticates (asking the user for the method) and runs call once more.
func (a *ACP) withAuth(ctx context.Context, p *acpProc, call func() error) error {
	err := call()
	if !acpIsAuthRequired(err) {
		return err
	}
	a.authMu.Lock()
	aerr := a.authenticate(ctx, p)
	a.authMu.Unlock()
	if aerr != nil {
		return aerr
	}
	return call()
}

func acpIsAuthRequired(err error) bool {
	var re *acp.RequestError
	return errors.As(err, &re) && re.Code == -32000
}

func (a *ACP) authenticate(ctx context.Context, p *acpProc) error {
	var opts []QuestionOption
	var detail, names []string
	for _, m := range p.authMethods {
		id, name, desc := acpAuthMethodInfo(m)
		if id == "" {
			continue
		}
		if name == "" {
			name = id
		}
		opts = append(opts, QuestionOption{ID: id, Label: name})
		names = append(names, name)
		if desc != "" {
			detail = append(detail, name+": "+oneLine(desc))
		}
	}
	if len(opts) == 0 {
		return errors.New("acp: the agent requires authentication but offers no method; sign in with the agent's own command first")
	}
	ask := a.ask()
	if ask == nil {
		return fmt.Errorf("acp: the agent requires authentication (methods: %s); sign in with the agent's own command first", strings.Join(names, ", "))
	}
	who := p.agentName
	if who == "" {
		who = strings.TrimPrefix(a.Name(), "acp:")
	}
	ans, err := ask(ctx, Question{Kind: QuestionAuth, Title: "Sign in to " + who, Detail: strings.Join(detail, "\n"), Options: opts})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("acp: authentication: %w", err)
	}
	if ans.OptionID == "" {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errors.New("acp: authentication cancelled")
	}
	if _, err := p.conn.Authenticate(ctx, acp.AuthenticateRequest{MethodId: ans.OptionID}); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return p.wrapErr("authenticate", err)
	}
	return nil
}

func acpAuthMethodInfo(m acp.AuthMethod) (id, name, desc string) {
	d := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	switch {
	case m.Agent != nil:
		return m.Agent.Id, m.Agent.Name, d(m.Agent.Description)
	case m.EnvVar != nil:
		return m.EnvVar.Id, m.EnvVar.Name, d(m.EnvVar.Description)
	case m.Terminal != nil:
		return m.Terminal.Id, m.Terminal.Name, d(m.Terminal.Description)
	}
	return "", "", ""
}

// --- prompt ---

// acpPromptBlocks is the prompt of t for an agent with the given capabilities.
func acpPromptBlocks(caps acp.PromptCapabilities, t Turn) []acp.ContentBlock {
	blocks := []acp.ContentBlock{acp.TextBlock(t.Prompt)}
	if !caps.Image && !caps.EmbeddedContext {
		return blocks
	}
	for _, at := range t.Attachments {
		if at.Path == "" || (at.IsImage() && !caps.Image) || (!at.IsImage() && !caps.EmbeddedContext) {
			continue
		}
		data, ok := acpReadAttachment(at.Path)
		if !ok {
			continue
		}
		uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(at.Path)}).String()
		mime := at.MimeType
		if at.IsImage() {
			b := acp.ImageBlock(base64.StdEncoding.EncodeToString(data), mime)
			b.Image.Uri = &uri
			blocks = append(blocks, b)
			continue
		}
		var mt *string
		if mime != "" {
			mt = &mime
		}
		if utf8.Valid(data) && !strings.ContainsRune(string(data), 0) {
			blocks = append(blocks, acp.ResourceBlock(acp.EmbeddedResourceResource{
				TextResourceContents: &acp.TextResourceContents{Uri: uri, MimeType: mt, Text: string(data)},
			}))
		} else {
			blocks = append(blocks, acp.ResourceBlock(acp.EmbeddedResourceResource{
				BlobResourceContents: &acp.BlobResourceContents{Uri: uri, MimeType: mt, Blob: base64.StdEncoding.EncodeToString(data)},
			}))
		}
	}
	return blocks
}

func acpReadAttachment(path string) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, acpMaxAttachment+1))
	if err != nil || len(data) > acpMaxAttachment {
		return nil, false
	}
	return data, true
}

// --- the client side: updates and permission requests ---

// acpTurn collects the formatted reply of one running turn; the ACP
// connection's goroutines write it, Stream's goroutine emits it.
type acpTurn struct {
	ctx    context.Context
	notify chan struct{} // cap 1: "out grew"

	mu      sync.Mutex
	out     []string
	tail    string // the last two bytes queued
	thought bool
	tools   map[acp.ToolCallId]*acpTool
	plan    string
}

type acpTool struct {
	title  string
	status acp.ToolCallStatus
}

func newACPTurn(ctx context.Context) *acpTurn {
	return &acpTurn{ctx: ctx, notify: make(chan struct{}, 1), tools: map[acp.ToolCallId]*acpTool{}}
}

// push queues s; t.mu must be held.
func (t *acpTurn) push(s string) {
	if s == "" {
		return
	}
	t.out = append(t.out, s)
	t.tail = acpLastN(t.tail+s, 2)
	select {
	case t.notify <- struct{}{}:
	default:
	}
}

// block queues a status block set apart from the prose by blank lines;
// t.mu must be held.
func (t *acpTurn) block(s string) {
	switch {
	case t.tail == "" || t.tail == "\n\n":
	case strings.HasSuffix(t.tail, "\n"):
		s = "\n" + s
	default:
		s = "\n\n" + s
	}
	t.push(s + "\n\n")
}

func (t *acpTurn) flush(emit func(string)) {
	t.mu.Lock()
	out := t.out
	t.out = nil
	t.mu.Unlock()
	for _, s := range out {
		emit(s)
	}
}

func acpLastN(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

func (t *acpTurn) update(u acp.SessionUpdate) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case u.AgentMessageChunk != nil:
		t.push(acpContentText(u.AgentMessageChunk.Content))
	case u.AgentThoughtChunk != nil:
		if !t.thought {
			t.thought = true
			t.block("> thinking…")
		}
	case u.ToolCall != nil:
		tc := u.ToolCall
		st := tc.Status
		if st == "" {
			st = acp.ToolCallStatusPending
		}
		t.tools[tc.ToolCallId] = &acpTool{title: tc.Title, status: st}
		t.block(acpToolLine(tc.Title, st))
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		tool := t.tools[tu.ToolCallId]
		if tool == nil {
			tool = &acpTool{title: string(tu.ToolCallId)}
			t.tools[tu.ToolCallId] = tool
		}
		if tu.Title != nil && *tu.Title != "" {
			tool.title = *tu.Title
		}
		if tu.Status != nil && *tu.Status != tool.status {
			tool.status = *tu.Status
			t.block(acpToolLine(tool.title, tool.status))
		}
	case u.Plan != nil:
		if p := acpPlanMarkdown(u.Plan.Entries); p != "" && p != t.plan {
			t.plan = p
			t.block(p)
		}
	}
}

func acpToolLine(title string, st acp.ToolCallStatus) string {
	if strings.TrimSpace(title) == "" {
		title = "tool call"
	}
	return "> tool: " + oneLine(title) + " (" + strings.ReplaceAll(string(st), "_", " ") + ")"
}

func acpPlanMarkdown(entries []acp.PlanEntry) string {
	if len(entries) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("**Plan**\n")
	for _, e := range entries {
		switch e.Status {
		case acp.PlanEntryStatusCompleted:
			b.WriteString("\n- [x] ")
		default:
			b.WriteString("\n- [ ] ")
		}
		b.WriteString(oneLine(e.Content))
		if e.Status == acp.PlanEntryStatusInProgress {
			b.WriteString(" *(in progress)*")
		}
	}
	return b.String()
}

// acpContentText is the Markdown for a content block of the agent's message.
func acpContentText(c acp.ContentBlock) string {
	switch {
	case c.Text != nil:
		return c.Text.Text
	case c.ResourceLink != nil:
		return "[" + c.ResourceLink.Name + "](" + c.ResourceLink.Uri + ")"
	case c.Resource != nil && c.Resource.Resource.TextResourceContents != nil:
		return c.Resource.Resource.TextResourceContents.Text
	case c.Image != nil:
		return "[image: " + c.Image.MimeType + "]"
	}
	return ""
}

// acpClient is chipchat's side of the connection.
type acpClient struct{ a *ACP }

var _ acp.Client = (*acpClient)(nil)

func (c *acpClient) turn(sid acp.SessionId) *acpTurn {
	c.a.mu.Lock()
	defer c.a.mu.Unlock()
	return c.a.turns[string(sid)]
}

func (c *acpClient) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	if t := c.turn(n.SessionId); t != nil {
		t.update(n.Update)
	}
	return nil
}

func (c *acpClient) RequestPermission(ctx context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	cancelled := acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Cancelled: &acp.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}}
	t := c.turn(p.SessionId)
	if t == nil || t.ctx.Err() != nil {
		return cancelled, nil
	}
	title := ""
	if p.ToolCall.Title != nil {
		title = *p.ToolCall.Title
	}
	t.mu.Lock()
	if tool := t.tools[p.ToolCall.ToolCallId]; tool != nil && title == "" {
		title = tool.title
	}
	t.mu.Unlock()
	if strings.TrimSpace(title) == "" {
		title = "a tool call"
	}
	q := Question{Kind: QuestionPermission, Title: oneLine(title)}
	var detail []string
	if p.ToolCall.Kind != nil {
		detail = append(detail, "kind: "+string(*p.ToolCall.Kind))
	}
	for _, l := range p.ToolCall.Locations {
		detail = append(detail, l.Path)
	}
	q.Detail = strings.Join(detail, "\n")
	for _, o := range p.Options {
		q.Options = append(q.Options, QuestionOption{ID: string(o.OptionId), Label: o.Name, Kind: string(o.Kind)})
	}

	choice := ""
	ask := c.a.ask()
	if ask == nil {
		for _, k := range []acp.PermissionOptionKind{acp.PermissionOptionKindRejectOnce, acp.PermissionOptionKindRejectAlways} {
			for _, o := range p.Options {
				if choice == "" && o.Kind == k {
					choice = string(o.OptionId)
				}
			}
		}
	} else {
		askCtx, cancel := context.WithCancel(ctx)
		stop := context.AfterFunc(t.ctx, cancel)
		ans, err := ask(askCtx, q)
		if err == nil && askCtx.Err() == nil {
			choice = ans.OptionID
		}
		stop()
		cancel()
	}
	label := ""
	for _, o := range q.Options {
		if o.ID == choice {
			label = o.Label
		}
	}
	if choice == "" || label == "" || t.ctx.Err() != nil {
		return cancelled, nil
	}
	t.mu.Lock()
	t.block("> permission: " + q.Title + " — " + oneLine(label))
	t.mu.Unlock()
	return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{
		Selected: &acp.RequestPermissionOutcomeSelected{Outcome: "selected", OptionId: acp.PermissionOptionId(choice)},
	}}, nil
}

var errACPUnsupported = acp.NewMethodNotFound("chipchat offers no file system or terminal to the agent")

func (c *acpClient) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, errACPUnsupported
}

func (c *acpClient) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, errACPUnsupported
}

func (c *acpClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errACPUnsupported
}

func (c *acpClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errACPUnsupported
}

func (c *acpClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errACPUnsupported
}

func (c *acpClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errACPUnsupported
}

func (c *acpClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errACPUnsupported
}

// acpTailBuffer keeps the last max bytes written to it.
type acpTailBuffer struct {
	max int
	mu  sync.Mutex
	buf []byte
}

func (b *acpTailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

func (b *acpTailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
