package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// The acp:<command> backend speaks the Agent Client Protocol (version 1)
// over the stdio of a long-lived agent process (Gemini CLI, Claude Code
// through its ACP adapter, codex-acp, opencode, …). DESIGN.md section 10.
//
// Decisions:
//   - The process is started lazily on the first turn as `sh -c <command>` in
//     the project directory (ACPOptions.Dir, else the first Turn.Dir, else the
//     working directory), in its own process group; Close kills the group. If
//     the process dies, the next turn starts a new one. A failure to start or
//     a crash is an *Error carrying the tail of the agent's stderr.
//   - One ACP session per chipchat thread. Turn.SessionID (the session the
//     thread had, stored by chat) wins over what this process remembers; it
//     is resumed with session/resume when the agent offers it
//     (sessionCapabilities.resume: nothing is replayed, nothing dropped or
//     waited for), else with session/load when it advertises loadSession,
//     else a new session is made (acp_resume.go). Every new session is reported with
//     SessionStarted. The modes, config options (models included) and
//     commands a session has are emitted as Modes/ConfigOptions/Commands in
//     the first turn after they change (SessionState reads them between
//     turns).
//   - Replays (session/load only): every update for a session that is being loaded is dropped,
//     and after session/load returns the session stays "settling" until no
//     update has come for ACPOptions.LoadQuiet (default 300ms, at most
//     acpSettleMax): Gemini CLI answers session/load before it streams the
//     history, and would mix the rest of that history into the new prompt's
//     answer. Updates for a session with no running turn are dropped too, so
//     a replay can never be attributed to the next turn. State updates
//     (commands, modes, config options) are kept in every case.
//   - Session updates map one to one to events: message chunks → TextDelta
//     (resource links as Markdown links), thought chunks → ThoughtDelta,
//     tool_call → ToolCall (a tool_call_update for a call this turn has not
//     seen is a ToolCall too), tool_call_update → ToolUpdate, plan → Plan,
//     available_commands_update → Commands, current_mode_update → Modes,
//     config_option_update → ConfigOptions, usage_update and the prompt's
//     usage → Usage. Stop reasons other than end_turn are Notices; the agent
//     stopping with "cancelled" when we did not cancel is a Notice too.
//   - Permission requests become Permission events; the connection
//     goroutine waits for the Reply or the end of the turn (then it answers
//     "cancelled", as the spec asks of a cancelled turn). "rejected" picks
//     the agent's reject_once, else reject_always, else cancelled. A request
//     for a session with no running turn is rejected the same way. The
//     request comes after every notification sent before it (acp_lines.go).
//     Its tool call starts the item when the agent sent none (Gemini), and
//     its diffs and locations join the item (acpTurn.permission); the
//     Permission's Tool is the item with the request's own title, kind,
//     content, raw input and locations over it, so the prompt shows what is
//     approved. The request's text blocks stay on the prompt: an item's
//     body is what the tool produced (acpTurn).
//   - Sign-in: when session/new or session/load answers "authentication
//     required", a SignIn event lists the methods (QuestionOption.Kind
//     "agent", "env_var" or "terminal"). An agent method is authenticated
//     with a Notice first saying it may wait for a browser and that esc
//     (cancelling the turn) stops it; an env-var method without values in
//     the Answer fails naming the variables, with values it restarts the
//     agent with them and authenticates with that method (codex-acp reads
//     the key then); a terminal method is run by the UI
//     (QuestionOption.Terminal) and answered once it exited, after which the
//     session request is retried.
//   - The client capabilities offered are fs.readTextFile and
//     fs.writeTextFile (a path is mapped lexically onto the session's
//     directory or one of ACPOptions.Roots and opened through that
//     directory's os.Root, so no symlink, ".." or rename race reaches
//     outside it; regular UTF-8 text files only, no write under .git or
//     chipchat's own directories (ACPOptions.Protect), acp_fs.go) and
//     terminal (ACPOptions.Terminals, else an in-process runner without a
//     pty: same output limits, truncation at a character boundary, kill,
//     release and wait_for_exit), plus terminal auth and elicitation
//     (form and URL, acp_elicit.go). An agent that asks
//     before it sends the tool_call (Codex's shell) gets the item started
//     by the request, and the late tool_call updates it.
//   - Writes and terminals belong to a turn (acp_fs.go, acp_terminal.go):
//     fs/write_text_file and terminal/create are refused for a session
//     with no running turn (unknown, ended or cancelled), the user told in
//     every running turn, else at the start of the next. A write's diff
//     joins the latest unfinished call of the turn whose locations or
//     diffs name the file, else it is a completed "edit" item of its own.
//     A terminal is drawn at once in the latest unfinished execute call,
//     else as an execute item of its own titled with its command line
//     (until a call's content names it: that call draws it then); its
//     message.TerminalState (command, cwd, the last 16 KiB of output, the
//     exit) is redrawn when the agent asks about it, when it ends, every
//     acpTermRefresh while it runs and when the turn ends. A session holds
//     at most ACPMaxTerminals terminals (created, not released).
//     ACPOptions.TerminalPolicy "ask" puts a Permission (options "Run it"
//     and "Do not run it", the item's call id, the command and cwd as raw
//     input) before the command starts; only "Run it" starts it. "deny"
//     refuses every terminal/create. The pane tab's name is the title of
//     the item drawing it.
//   - The prompt is Turn.Prompt as one text block, then each image
//     attachment as an image block when the agent advertises
//     promptCapabilities.image, then each other attachment as an embedded
//     resource (text when UTF-8, else a base64 blob) when it advertises
//     embeddedContext, else as a resource link. Every attachment is named by
//     its original file name (URI chipchat://attachment/<context id>/<name>),
//     never by the path of its bytes. Attachments over ACPOptions.MaxAttachment
//     are refused before anything is sent (ACPCheckAttachments). On a Host,
//     a file that is binary, over ACPDefaultMaxAttachment, or not
//     embeddable is staged there (Host.Stage: content-addressed, uploaded
//     once) and sent as a resource link to its path there (file://…);
//     the limit there is ACPHostMaxAttachment.
//   - Cancel: when the turn's context is cancelled, session/cancel is sent,
//     pending permission questions are answered "cancelled", and Run returns
//     ctx.Err() once the agent ends the prompt, or after
//     ACPOptions.CancelGrace at the latest. A later turn on that session
//     waits (briefly) for the abandoned prompt to end before sending its own.
//   - chipchat reads the agent's stdout itself (acp_lines.go): every
//     request the agent sends reaches its handler only once the
//     notifications before it are applied (a permission prompt always has
//     the tool_call sent just before it), the SDK's notification queue
//     never overflows (a faster agent waits on its stdout), and a line over
//     the SDK's 10 MiB limit stops the agent, the turn failing with "the
//     agent sent a 50 MB message; chipchat reads at most 10 MB"; the next
//     turn starts it again. The common session updates (text and thought
//     chunks, tool calls with text, diff and terminal content) are
//     decoded there too and applied on the reader's goroutine, in order
//     with those the SDK decodes (acp_update.go: the SDK's decoding cost
//     ~15 µs a chunk and ~35 ms a MB).
//   - Session updates are applied in a bounded step that never waits for
//     the UI (acp_events.go): text chunks and repeated updates of one tool
//     call are coalesced while Run's goroutine emits, and a tool call's
//     content is kept to Turn.Limits.ReplyBytes (head and tail).
//   - The SDK's diagnostics go to ACPOptions.LogPath (ACPLogPath by
//     default; acp_log.go), never to the terminal; an error on a closed
//     connection names the last of them. The tail of the agent's stderr is
//     kept for error messages.

// QuestionKind says what a Question asks.
type QuestionKind string

const (
	// QuestionPermission asks whether the agent may run a tool call.
	QuestionPermission QuestionKind = "permission"
	// QuestionAuth asks which of the agent's authentication methods to use.
	QuestionAuth QuestionKind = "auth"
)

// Question is something a backend needs the user to decide (a SignIn).
type Question struct {
	Kind    QuestionKind
	Title   string // one line: "Sign in to <agent>"
	Detail  string // optional further lines (method descriptions)
	Options []QuestionOption
}

// Authentication method kinds (QuestionOption.Kind of a sign-in).
const (
	AuthAgent    = "agent"    // the agent signs in by itself (may wait for a browser)
	AuthEnvVar   = "env_var"  // the agent needs environment variables (EnvVars)
	AuthTerminal = "terminal" // run Terminal in a terminal, then answer
)

// QuestionOption is one answer to a Question.
type QuestionOption struct {
	ID    string // what Answer.OptionID must hold to pick this option
	Label string // shown to the user
	// Kind is, for a permission, the ACP option kind ("allow_once", …);
	// for a sign-in, AuthAgent, AuthEnvVar or AuthTerminal.
	Kind        string
	Description string
	// EnvVars are the variables an env-var method needs.
	EnvVars []AuthVariable
	// Link is where to get the values (an env-var method's key page).
	Link string
	// Terminal is the command a terminal method runs; the UI runs it in a
	// terminal pane and answers this option once it has exited.
	Terminal *TerminalCommand
}

// AuthVariable is an environment variable an env-var sign-in method needs.
type AuthVariable struct {
	Name     string
	Label    string
	Secret   bool
	Optional bool
}

// TerminalCommand is a command to run in a terminal.
type TerminalCommand struct {
	Command string
	Args    []string
	Env     []string // added to the environment ("KEY=value")
	Dir     string
}

// Answer is the user's choice: the ID of one of the question's options, or
// "" when the user dismissed the question. Env carries the values the user
// typed for an env-var method ("NAME=value").
type Answer struct {
	OptionID string
	Env      []string
}

// MCPServer is an MCP server offered to every session: stdio when Command is
// set, else HTTP at URL.
type MCPServer struct {
	Name    string
	Command string
	Args    []string
	Env     []string // "KEY=value"
	URL     string
	Headers []string // "Name: value"
}

// ACPOptions configures an ACP backend.
type ACPOptions struct {
	// Dir is where the agent process runs and the default session cwd.
	// Empty means the Dir of the first turn, else the working directory.
	Dir string
	// Env is added to the agent process's environment ("KEY=value").
	Env []string
	// CancelGrace bounds how long a cancelled turn waits for the agent to
	// end its prompt. Zero means 3s.
	CancelGrace time.Duration
	// Roots are directories besides the session's own that the agent may
	// read and write through fs/*.
	Roots []string
	// Terminals runs the agent's terminal/* commands (chipchat's pty
	// panes). Nil means an in-process runner without a pty.
	Terminals TerminalHost
	// TerminalPolicy says what terminal/create does: TerminalsAllow
	// (empty means it), TerminalsAsk or TerminalsDeny.
	TerminalPolicy string
	// MCPServers are passed in every session/new and session/load.
	MCPServers []MCPServer
	// SessionMCPServers, when set, adds servers made for each session/new,
	// session/load and session/resume (after MCPServers): a remote
	// project's chipchat endpoint, forwarded over the master, with a bearer
	// token of that session's own. http says whether the agent takes HTTP
	// MCP servers (mcpCapabilities.http); notes become notices (why a
	// server is left out). It runs on the agent's goroutines.
	SessionMCPServers func(ctx context.Context, http bool) ([]MCPServer, []string)
	// MaxAttachment is the largest attachment sent, in bytes. Zero means
	// ACPDefaultMaxAttachment.
	MaxAttachment int64
	// LoadQuiet is how long a loaded session must be quiet before its
	// replay counts as over. Zero means 300ms.
	LoadQuiet time.Duration
	// LogPath is where the connection's diagnostics go. Empty means
	// ACPLogPath(); "-" means nowhere.
	LogPath string
	// Host runs the agent elsewhere (a remote project) when not nil:
	// `sh -c COMMAND` through Host.Command, with Env (not this process's
	// environment). Client fs is offered and served there when the Host
	// is a HostHelper whose helper starts, terminals when Terminals is set
	// too (it must run them on the host); otherwise neither is offered and
	// a call the agent sends anyway is refused with a notice.
	Host Host
	// Protect are directories under which fs/write_text_file is refused,
	// besides chipchat's default data, state and config directories (the
	// app's --data-dir).
	Protect []string
}

// ACPDefaultMaxAttachment is the default limit on one attachment (the
// image limit of the large model providers).
const ACPDefaultMaxAttachment = 5 << 20

// ACPHostMaxAttachment is the default limit for an agent on a Host: what
// is over ACPDefaultMaxAttachment is staged there and linked, not sent
// in the prompt (the staging directory's default budget).
const ACPHostMaxAttachment = 1 << 30

const (
	acpDefaultCancelGrace = 3 * time.Second
	acpDefaultLoadQuiet   = 300 * time.Millisecond
	acpSettleMax          = 10 * time.Second
	acpBusyWait           = 5 * time.Second // a new prompt waits this long for an abandoned one
	acpStderrTail         = 4 << 10
	acpKillGrace          = 2 * time.Second
	acpHeldMax            = 8                      // refusals kept for the next turn
	acpTermRefresh        = 500 * time.Millisecond // a running terminal's item is redrawn this often
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
	starting *acpProc                 // started, not yet initialized (Close stops it too)
	authEnv  []string                 // env the user gave an env-var sign-in
	authWith string                   // the env-var method to authenticate with once restarted
	sessions map[string]string        // thread id → session id
	state    map[string]*acpSession   // session id → what the agent told of it
	turns    map[string]*acpTurn      // session id → running turn
	busy     map[string]chan struct{} // session id → closed when its prompt returns
	pending  map[string][]acpSetting  // thread id → settings to apply once it has a session
	terms    *acpTerminals
	fs       *acpFS
	writes   int                                // fs writes reported, for their item ids
	held     []string                           // refusals while no turn ran, told in the next turn
	heldMore int                                // refusals beyond acpHeldMax, counted
	between  func(threadID string, evs []Event) // OnBetweenTurns (acp_between.go)

	// Test hooks: quietAfter times the settling after session/load;
	// dropped is told of each replayed update dropped.
	quietAfter func(time.Duration) <-chan time.Time
	dropped    func(sessionID string)
	closeAfter func(time.Duration) <-chan time.Time // times Close's wait for session/close
}

// NewACP returns an ACP backend for the agent started by command (a shell
// command line). Nothing is started until the first turn.
func NewACP(command string, opts ACPOptions) (*ACP, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("acp: empty agent command (use acp:<command>, e.g. acp:'gemini --acp')")
	}
	switch opts.TerminalPolicy {
	case "", TerminalsAllow, TerminalsAsk, TerminalsDeny:
	default:
		return nil, fmt.Errorf("acp: terminal policy %q: allowed are %q, %q and %q", opts.TerminalPolicy, TerminalsAllow, TerminalsAsk, TerminalsDeny)
	}
	a := &ACP{
		command:  command,
		opts:     opts,
		sessions: map[string]string{},
		state:    map[string]*acpSession{},
		turns:    map[string]*acpTurn{},
		busy:     map[string]chan struct{}{},
		pending:  map[string][]acpSetting{},
		fs:       newACPFS(opts.Protect),
	}
	host := opts.Terminals
	if host == nil {
		host = ExecTerminals{}
	}
	a.terms = &acpTerminals{host: host, byID: map[string]*acpTerminal{}, held: map[string]int{}}
	return a, nil
}

// Name is "acp:" and the command's program name ("acp:gemini").
func (a *ACP) Name() string {
	f := strings.Fields(a.command)
	for len(f) > 1 && (strings.Contains(f[0], "=") || f[0] == "exec" || f[0] == "npx" || f[0] == "env" || strings.HasPrefix(f[0], "-")) {
		f = f[1:]
	}
	if len(f) == 0 {
		return "acp"
	}
	return "acp:" + filepath.Base(strings.Trim(f[0], `'"`))
}

// SessionID is the agent's session id for a thread, "" if it has none yet.
// (chat learns it from SessionStarted; this is for tests and tools.)
func (a *ACP) SessionID(threadID string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sessions[threadID]
}

// SetSessionID tells the backend the agent's session id a thread had
// before, as Turn.SessionID does. An empty id forgets the session.
func (a *ACP) SetSessionID(threadID, sessionID string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if sessionID == "" {
		delete(a.sessions, threadID)
		return
	}
	a.sessions[threadID] = sessionID
}

// Close closes the agent's open sessions with session/close when it offers
// it (waiting ACPQuitCloseWait at most), stops the agent process (its whole
// process group) and its terminals, closes the fs roots, and makes later
// turns fail. It is safe to call more than once.
func (a *ACP) Close() error {
	a.mu.Lock()
	a.closed = true
	p, starting := a.proc, a.starting
	a.proc, a.starting = nil, nil
	a.mu.Unlock()
	if p != nil {
		a.closeSessions(p)
	}
	a.terms.releaseAll()
	if p != nil {
		p.kill()
	}
	if starting != nil {
		// Being started (the thread list's session listing, a turn): its
		// initialize fails at once, and nothing of it outlives Close.
		starting.kill()
	}
	a.fs.close()
	return nil
}

// Capabilities: sessions, cancel, images and files (as the agent accepts
// them), modes and commands.
func (a *ACP) Capabilities() Capabilities {
	return Capabilities{Sessions: true, Cancel: true, Images: true, Files: true, Modes: true, Commands: true, MaxAttachment: a.maxAttachment(), Process: true, Logout: true}
}

var _ Configurer = (*ACP)(nil)

// errACPRestart asks Run to start the agent again (after an env-var
// sign-in changed its environment).
var errACPRestart = errors.New("acp: restart the agent")

// Run sends t to the thread's session and streams the reply as events.
func (a *ACP) Run(ctx context.Context, t Turn, emit func(Event)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := ACPCheckAttachments(t.Attachments, a.maxAttachment()); err != nil {
		return err
	}
	if t.SessionID != "" {
		a.mu.Lock()
		if a.sessions[t.ThreadID] != t.SessionID {
			a.sessions[t.ThreadID] = t.SessionID
		}
		a.mu.Unlock()
	}
	var p *acpProc
	var sid string
	for attempt := 0; ; attempt++ {
		var err error
		p, err = a.ensureProc(ctx, t.Dir)
		if err != nil {
			return err
		}
		sid, err = a.ensureSession(ctx, p, t, emit)
		if errors.Is(err, errACPRestart) && attempt == 0 {
			continue
		}
		if err != nil {
			return err
		}
		break
	}
	a.applyPending(ctx, p, t.ThreadID, sid, emit)

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
	turn.limit = t.Limits.withDefaults().ReplyBytes
	done := make(chan struct{})
	a.mu.Lock()
	a.turns[sid] = turn
	a.busy[sid] = done
	held, heldMore := a.held, a.heldMore
	a.held, a.heldMore = nil, 0
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		if a.turns[sid] == turn {
			delete(a.turns, sid)
		}
		a.mu.Unlock()
		turn.stop()
		close(turn.over)
	}()
	for _, n := range held {
		emit(Notice{n})
	}
	if heldMore > 0 {
		emit(Notice{fmt.Sprintf("chipchat refused %d more requests of the agent while no turn ran", heldMore)})
	}
	a.flushState(sid, emit)

	var stage acpStager
	if h := a.opts.Host; h != nil {
		stage = func(name, path string) (string, error) { return h.Stage(ctx, name, path) }
	}
	blocks, notes := acpPromptBlocks(p.caps.PromptCapabilities, t, stage)
	for _, n := range notes {
		emit(Notice{n})
	}
	req := acp.PromptRequest{SessionId: acp.SessionId(sid), Prompt: blocks}
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
	flush := func() {
		a.flushState(sid, emit)
		turn.flush(emit)
	}
	// The turn's terminals are drawn as they are at its end.
	last := func() {
		turn.refreshTerminals()
		flush()
	}
	refresh := time.NewTicker(acpTermRefresh)
	defer refresh.Stop()
	ctxDone := ctx.Done()
	var graceC <-chan time.Time
	cancelled := false
	for {
		select {
		case <-turn.notify:
			flush()
		case <-refresh.C:
			turn.refreshTerminals()
		case r := <-res:
			last()
			if cancelled {
				return ctx.Err()
			}
			if r.err != nil {
				return p.wrapErr("prompt", r.err)
			}
			if u := r.resp.Usage; u != nil {
				emit(Usage{InputTokens: int64(u.InputTokens), OutputTokens: int64(u.OutputTokens)})
			}
			if n := acpStopNotice(r.resp.StopReason); n != "" {
				emit(Notice{n})
			}
			return nil
		case <-ctxDone:
			cancelled, ctxDone = true, nil
			_ = p.conn.Cancel(context.Background(), acp.CancelNotification{SessionId: acp.SessionId(sid)})
			timer := time.NewTimer(grace)
			defer timer.Stop()
			graceC = timer.C
		case <-graceC:
			last()
			return ctx.Err()
		}
	}
}

// acpStopNotice is the line the user gets for a prompt's stop reason, ""
// for a normal end.
func acpStopNotice(r acp.StopReason) string {
	switch r {
	case acp.StopReasonEndTurn, "":
		return ""
	case acp.StopReasonMaxTokens:
		return "stopped: the agent reached its token limit"
	case acp.StopReasonMaxTurnRequests:
		return "stopped: the agent reached its limit of model requests for one turn"
	case acp.StopReasonRefusal:
		return "the agent refused to continue"
	case acp.StopReasonCancelled:
		return "the agent stopped the turn"
	}
	return "stopped: " + oneLine(string(r))
}

func (a *ACP) maxAttachment() int64 {
	if a.opts.MaxAttachment > 0 {
		return a.opts.MaxAttachment
	}
	if a.opts.Host != nil {
		return ACPHostMaxAttachment
	}
	return ACPDefaultMaxAttachment
}

// --- process ---

type acpProc struct {
	cmd         *exec.Cmd
	conn        *acp.ClientSideConnection
	stdin       io.Closer
	stdout      io.Closer
	stderr      *acpTailBuffer
	dir         string
	env         []string    // what was added to the environment
	lines       *acpReader  // reads stdout for the SDK
	logTail     *acpLogTail // the connection's last diagnostics
	caps        acp.AgentCapabilities
	initMeta    map[string]any // the initialize answer's top-level _meta (steering)
	authMethods []acp.AuthMethod
	agentName   string

	exited  chan struct{} // closed when the process has been reaped
	waitErr error         // valid after exited

	helper *helperClient // chipchat's helper on the Host, if any; ends with the process

	host    Host      // where it runs (nil: here)
	started time.Time // when it was started

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
	env := append(append([]string(nil), a.opts.Env...), a.authEnv...)
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
	client := &acpClient{a: a}
	if a.opts.Host != nil {
		client.helper, client.noHelper = a.hostHelper(ctx)
	}
	p, err := acpStart(a.command, dir, env, a.opts.Host, client, a.logPath())
	if err != nil {
		if client.helper != nil {
			client.helper.close()
		}
		return nil, err
	}
	p.helper = client.helper
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		p.kill()
		return nil, errors.New("acp: backend closed")
	}
	a.starting = p
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		if a.starting == p {
			a.starting = nil
		}
		a.mu.Unlock()
	}()
	resp, err := p.conn.Initialize(ctx, acp.InitializeRequest{
		ProtocolVersion:    acp.ProtocolVersionNumber,
		ClientCapabilities: a.clientCapabilities(client.helper != nil),
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
	p.initMeta = resp.Meta
	p.authMethods = resp.AuthMethods
	a.mu.Lock()
	method := a.authWith
	a.authWith = ""
	a.mu.Unlock()
	if method != "" {
		// Restarted with the variables of an env-var method: the agent reads
		// them when told to authenticate with it (Codex).
		if _, err := p.conn.Authenticate(ctx, acp.AuthenticateRequest{MethodId: method}); err != nil {
			werr := p.wrapErr("authenticate", err)
			p.kill()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, werr
		}
	}
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

// restart kills the agent process so that the next ensureProc starts a new
// one (with the current environment).
func (a *ACP) restart(p *acpProc) {
	a.mu.Lock()
	if a.proc == p {
		a.proc = nil
	}
	a.mu.Unlock()
	p.kill()
}

// logPath is the log file of the connection's diagnostics, "" for none.
func (a *ACP) logPath() string {
	switch a.opts.LogPath {
	case "":
		return ACPLogPath()
	case "-":
		return ""
	}
	return a.opts.LogPath
}

// clientCapabilities are what initialize offers: fs, terminals and
// terminal sign-in here; on a Host fs when chipchat's helper runs there
// (helper) and terminals when they run there too (ACPOptions.Terminals),
// else none of them (they would act on this machine).
func (a *ACP) clientCapabilities(helper bool) acp.ClientCapabilities {
	if a.opts.Host != nil {
		if !helper {
			return acp.ClientCapabilities{}
		}
		return acp.ClientCapabilities{
			Fs:       acp.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
			Terminal: a.opts.Terminals != nil,
		}
	}
	return acp.ClientCapabilities{
		Fs:          acp.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
		Terminal:    true,
		Auth:        acp.AuthCapabilities{Terminal: true},
		Elicitation: acpElicitCaps(),
		Meta:        acpClientMeta(),
	}
}

func acpStart(command, dir string, env []string, host Host, client *acpClient, logPath string) (*acpProc, error) {
	var cmd *exec.Cmd
	if host != nil {
		var err error
		if cmd, err = host.Command(context.Background(), dir, []string{"sh", "-c", command}, env); err != nil {
			return nil, &Error{Err: fmt.Errorf("acp: starting %q on %s: %w", command, host.Label(), err)}
		}
	} else {
		cmd = exec.Command("sh", "-c", command)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
	}
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
	p := &acpProc{cmd: cmd, stdin: inW, stdout: outR, stderr: &acpTailBuffer{max: acpStderrTail}, dir: dir, env: env,
		exited: make(chan struct{}), live: map[string]bool{}, host: host, started: time.Now()}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, &Error{Err: fmt.Errorf("acp: starting %q: %w", command, err)}
	}
	inR.Close()
	outW.Close()
	p.lines = newACPReader(outR)
	p.lines.deadline = outR.SetReadDeadline
	client.lines = p.lines
	p.logTail = &acpLogTail{}
	log := newACPLogger(logPath, p.logTail, "agent", command, "pid", cmd.Process.Pid)
	p.lines.log = log.Warn
	p.lines.onCut = func(*acpCutError) { p.kill() }
	p.lines.update = func(n acp.SessionNotification) { _ = client.SessionUpdate(context.Background(), n) }
	p.conn = acp.NewClientSideConnection(client, inW, p.lines.out)
	p.conn.SetLogger(log)
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
		inW.Close()
	}()
	go p.lines.run() // after SetLogger: nothing reaches the SDK before
	go func() {
		<-p.conn.Done()
		p.lines.stop()
	}()
	return p, nil
}

func (p *acpProc) dead() bool {
	if p.lines.cause() != nil {
		return true
	}
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
// after acpKillGrace, and waits (bounded) for it to be reaped; the line
// reader and the SDK's side end with its stdout.
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
	p.lines.stop()
	p.logTail.end()
	if p.helper != nil {
		p.helper.close()
	}
}

// wrapErr describes a failed request. When the agent died it is an *Error
// with the exit status and the tail of its stderr; an error the live agent
// answered is its message.
func (p *acpProc) wrapErr(what string, err error) error {
	if c := p.lines.cause(); c != nil {
		// chipchat stopped the agent: that is the cause, not its exit.
		return &Error{Err: fmt.Errorf("acp: %s (the agent was stopped during %s)", c, what), StderrTail: strings.TrimSpace(p.stderr.String())}
	}
	if p.closed() {
		// The process may still be being reaped.
		select {
		case <-p.exited:
		case <-time.After(time.Second):
		}
	}
	select {
	case <-p.exited:
		tail := strings.TrimSpace(p.stderr.String())
		var ee *exec.ExitError
		if p.host != nil && errors.As(p.waitErr, &ee) && hostDropped(p.host, p.started, ee.ExitCode()) {
			// ssh's status, not the agent's: the connection went.
			return &Error{Err: fmt.Errorf("acp: the connection to %s dropped while the agent ran (ssh exited with status %d, during %s); chipchat reconnects by itself: send again once the header no longer says reconnecting",
				p.host.Label(), ee.ExitCode(), what), StderrTail: tail}
		}
		msg := "exited"
		if p.waitErr != nil {
			msg = p.waitErr.Error()
		}
		if tail != "" {
			msg += ": " + acpLastLine(tail)
		}
		return &Error{Err: fmt.Errorf("acp: agent %s during %s", msg, what), StderrTail: tail}
	default:
	}
	lastLog := "" // what the SDK said last, when it closed the connection
	if p.closed() {
		if l := p.logTail.line(); l != "" {
			lastLog = "; last log: " + l
		}
	}
	var re *acp.RequestError
	if errors.As(err, &re) {
		return fmt.Errorf("acp: %s: %s (code %d)%s", what, acpRefusal(re), re.Code, lastLog)
	}
	return fmt.Errorf("acp: %s: %w%s", what, err, lastLog)
}

// closed reports whether the SDK's side of the connection is closed.
func (p *acpProc) closed() bool {
	select {
	case <-p.conn.Done():
		return true
	default:
		return false
	}
}

// acpLastLine is the last non-empty line of s.
func acpLastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
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
