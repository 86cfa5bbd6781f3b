package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/message"
)

// TerminalHost runs the commands an ACP agent asks for with terminal/create
// (the ui backs it with chipchat's pty panes: one tab per terminal, named
// after its tool call). ExecTerminals is the in-process default.
type TerminalHost interface {
	Start(spec TerminalSpec) (Terminal, error)
}

// TerminalSpec is one terminal/create request.
type TerminalSpec struct {
	ID string // the terminal id the agent (and a tool item's terminal content) uses
	// Name is the title of the unfinished tool call it most likely runs
	// for, else the command line. It is a guess: the tool item whose
	// content names ID (a ToolUpdate with terminal content) is the sure
	// link, and a UI renames the tab after it.
	Name      string
	SessionID string
	Command   string
	Args      []string
	Env       []string // added to chipchat's environment ("KEY=value")
	Dir       string
	// OutputLimit is how many bytes of output to keep: older output is
	// dropped from the front, at a character boundary, and the output
	// reported truncated (TerminalBuffer does this).
	OutputLimit int
}

// TerminalExit is how a terminal's command ended: its exit code, or the
// signal that killed it.
type TerminalExit struct {
	ExitCode *int
	Signal   string
}

// Terminal is one running (or finished) command. Its methods may be called
// from several goroutines.
type Terminal interface {
	// Output is the output kept so far, whether older output was dropped,
	// and the exit status once the command has ended (else nil).
	Output() (output string, truncated bool, exit *TerminalExit)
	// Wait waits for the command to end, or for ctx.
	Wait(ctx context.Context) (TerminalExit, error)
	// Kill ends the command; the terminal stays readable.
	Kill() error
	// Release kills the command if it still runs and frees the terminal.
	Release() error
}

// ACPDefaultTerminalOutput is the output kept when the agent sets no
// outputByteLimit.
const ACPDefaultTerminalOutput = 1 << 20

// TerminalBuffer keeps the last limit bytes written to it, dropping older
// output at a character boundary. It is safe for concurrent use.
type TerminalBuffer struct {
	limit     int
	mu        sync.Mutex
	buf       []byte
	truncated bool
}

// NewTerminalBuffer returns a buffer keeping limit bytes (0 or less:
// ACPDefaultTerminalOutput).
func NewTerminalBuffer(limit int) *TerminalBuffer {
	if limit <= 0 {
		limit = ACPDefaultTerminalOutput
	}
	return &TerminalBuffer{limit: limit}
}

// Write appends p (it never fails).
func (b *TerminalBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	// Compact only when twice over, so that writing costs amortized O(len(p)).
	if len(b.buf) > 2*b.limit {
		cut := acpCharCut(b.buf, len(b.buf)-b.limit)
		b.buf = append(b.buf[:0], b.buf[cut:]...)
		b.truncated = true
	}
	return len(p), nil
}

// Output is the kept output (at most limit bytes, starting at a character)
// and whether anything was dropped.
func (b *TerminalBuffer) Output() (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf) <= b.limit {
		return string(b.buf), b.truncated
	}
	return string(b.buf[acpCharCut(b.buf, len(b.buf)-b.limit):]), true
}

// acpCharCut moves cut forward to the start of a character.
func acpCharCut(b []byte, cut int) int {
	for i := 0; i < utf8.UTFMax && cut < len(b) && !utf8.RuneStart(b[cut]); i++ {
		cut++
	}
	return cut
}

// ExecTerminals runs terminal commands as plain child processes (no pty),
// output and errors interleaved in one buffer.
type ExecTerminals struct{}

// Start starts spec's command. A command without args that looks like a
// shell line ("ls -la | wc") runs through sh -c, as agents send both forms.
func (ExecTerminals) Start(spec TerminalSpec) (Terminal, error) {
	argv := acpTerminalArgv(spec.Command, spec.Args)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = append(os.Environ(), spec.Env...)
	out := NewTerminalBuffer(spec.OutputLimit)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 2 * time.Second
	acpSetGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t := &execTerminal{cmd: cmd, out: out, done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		t.exit = acpExitOf(cmd.ProcessState, err)
		close(t.done)
	}()
	return t, nil
}

type execTerminal struct {
	cmd  *exec.Cmd
	out  *TerminalBuffer
	done chan struct{}
	exit TerminalExit // valid after done
}

func (t *execTerminal) Output() (string, bool, *TerminalExit) {
	s, tr := t.out.Output()
	select {
	case <-t.done:
		e := t.exit
		return s, tr, &e
	default:
		return s, tr, nil
	}
}

func (t *execTerminal) Wait(ctx context.Context) (TerminalExit, error) {
	select {
	case <-t.done:
		return t.exit, nil
	case <-ctx.Done():
		return TerminalExit{}, ctx.Err()
	}
}

func (t *execTerminal) Kill() error {
	select {
	case <-t.done:
	default:
		acpSignalGroup(t.cmd, true)
	}
	return nil
}

func (t *execTerminal) Release() error { return t.Kill() }

// --- the client's terminal/* methods ---

// Terminal policies (ACPOptions.TerminalPolicy, the config's [acp]
// terminals).
const (
	TerminalsAllow = "allow" // terminal/create runs the command
	TerminalsAsk   = "ask"   // the user is asked first, with the command line
	TerminalsDeny  = "deny"  // terminal/create is refused
)

// ACPMaxTerminals is how many terminals one session may hold at once
// (created and not released); terminal/create beyond it is refused.
const ACPMaxTerminals = 16

// acpTermShown is the most of a terminal's output its item keeps (the end;
// the pane has the rest).
const acpTermShown = 16 << 10

type acpTerminals struct {
	host TerminalHost
	mu   sync.Mutex
	n    int
	byID map[string]*acpTerminal
	held map[string]int // session id → terminals created or being created, not released
}

type acpTerminal struct {
	sid string
	t   Terminal
}

func (ts *acpTerminals) get(sid acp.SessionId, id string) (Terminal, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.byID[id]
	if t == nil || t.sid != string(sid) {
		return nil, &acp.RequestError{Code: -32002, Message: "Resource not found: no terminal " + id}
	}
	return t.t, nil
}

// reserve takes one of the session's ACPMaxTerminals places and a new
// terminal id; false when the session holds them all.
func (ts *acpTerminals) reserve(sid string) (string, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.held[sid] >= ACPMaxTerminals {
		return "", false
	}
	ts.held[sid]++
	ts.n++
	return fmt.Sprintf("term-%d", ts.n), true
}

// unreserve gives a place back (the terminal did not start, or was
// released).
func (ts *acpTerminals) unreserve(sid string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.held[sid] > 0 {
		ts.held[sid]--
	}
}

func (ts *acpTerminals) releaseAll() {
	ts.mu.Lock()
	all := ts.byID
	ts.byID = map[string]*acpTerminal{}
	clear(ts.held)
	ts.mu.Unlock()
	for _, t := range all {
		_ = t.t.Release()
	}
}

// acpTurnTerm is a terminal created in a turn, and the item drawing it.
type acpTurnTerm struct {
	term  Terminal // nil until it started
	state message.TerminalState
	item  string // the call whose item draws it
	own   bool   // item is the terminal's own (chipchat's), not an agent's call
}

// acpOwnPrefix starts the call id of an item chipchat made itself (a
// write's, a terminal's).
const acpOwnPrefix = "chipchat-"

// runningExec is the latest unfinished execute call of the agent's in the
// turn, the one a new terminal most likely runs for ("" for none); t.mu
// must be held.
func (t *acpTurn) runningExec() string {
	for i := len(t.order) - 1; i >= 0; i-- {
		tool := t.tools[t.order[i]]
		if tool != nil && tool.Kind == "execute" && !message.ToolFinal(tool.Status) && !strings.HasPrefix(tool.CallID, acpOwnPrefix) {
			return tool.CallID
		}
	}
	return ""
}

// placeTerminal shows a new terminal the moment the agent asks for it: in
// the running execute call it most likely belongs to, else as its own
// item (kind execute, titled with the command line, status status). It
// returns the call id of the item; t.mu must be held.
func (t *acpTurn) placeTerminal(id string, st message.TerminalState, status string) string {
	tt := &acpTurnTerm{state: st}
	t.terms[id] = tt
	content := message.ToolContent{Type: message.ContentTerminal, TerminalID: id}
	if call := t.runningExec(); call != "" {
		tt.item = call
		t.calls[call].pre = acpKeep(t.calls[call].pre, []message.ToolContent{content})
		t.recompose(call, nil)
		return call
	}
	tt.item, tt.own = acpOwnPrefix+id, true
	raw, _ := message.MarshalJSON(map[string]string{"command": st.Command, "cwd": st.Cwd})
	t.startTool(message.Tool{CallID: tt.item, Kind: "execute", Title: st.Command, Status: status, RawInput: raw,
		Content: []message.ToolContent{content}})
	return tt.item
}

// dropTerminal takes a terminal that will not run (refused, or it failed
// to start) out of the item that showed it: an agent's call loses it, the
// terminal's own item ends with why (failed, or cancelled when the user
// declined). t.mu must be held.
func (t *acpTurn) dropTerminal(id, why string, cancelled bool) {
	tt := t.terms[id]
	if tt == nil {
		return
	}
	delete(t.terms, id)
	t.calls[tt.item].forget(id)
	if !tt.own {
		t.recompose(tt.item, nil)
		return
	}
	status := message.ToolFailed
	if cancelled {
		status = message.ToolCancelled
	}
	t.change(acpChange{ID: tt.item, Status: &status, HasContent: true,
		Content: []message.ToolContent{{Type: message.ContentText, Text: why}}})
}

// linkTerminals: a call whose content names a terminal this turn placed
// elsewhere draws it from now on; the item that drew it lets it go (the
// terminal's own item says where it went). t.mu must be held.
func (t *acpTurn) linkTerminals(callID string, cs []message.ToolContent) {
	for _, c := range cs {
		tt := t.terms[c.TerminalID]
		if c.Type != message.ContentTerminal || tt == nil || tt.item == callID {
			continue
		}
		from, own := tt.item, tt.own
		tt.item, tt.own = callID, false
		if own {
			t.calls[from].forget(c.TerminalID)
			title := callID
			if tool := t.tools[callID]; tool != nil && tool.Title != "" {
				title = tool.Title
			}
			done := message.ToolCompleted
			t.change(acpChange{ID: from, Status: &done, HasContent: true,
				Content: []message.ToolContent{{Type: message.ContentText, Text: "shown in the tool call “" + title + "”"}}})
			continue
		}
		t.calls[from].forget(c.TerminalID)
		t.recompose(from, nil)
	}
}

// forget takes terminal id out of the call's content.
func (c *acpCall) forget(id string) {
	if c == nil {
		return
	}
	drop := func(k message.ToolContent) bool { return k.Type == message.ContentTerminal && k.TerminalID == id }
	c.pre = slices.DeleteFunc(c.pre, drop)
	if c.post != nil {
		c.post = slices.DeleteFunc(c.post, drop)
	}
}

// refreshTerminals redraws the turn's terminals still running.
func (t *acpTurn) refreshTerminals() {
	t.mu.Lock()
	var ids []string
	for id, tt := range t.terms {
		if tt.term != nil && !tt.state.Exited {
			ids = append(ids, id)
		}
	}
	t.mu.Unlock()
	t.redrawTerminals(ids...)
}

// redrawTerminals reads the terminals ids and redraws those that changed.
// They are read without t.mu (a pane's read takes its lock and may take a
// while; session updates must not wait for it); t.mu must not be held.
func (t *acpTurn) redrawTerminals(ids ...string) {
	type read struct {
		id        string
		out       string
		truncated bool
		exit      *TerminalExit
	}
	t.mu.Lock()
	terms := make([]Terminal, len(ids))
	for i, id := range ids {
		if tt := t.terms[id]; tt != nil {
			terms[i] = tt.term
		}
	}
	t.mu.Unlock()
	reads := make([]read, 0, len(ids))
	for i, term := range terms {
		if term != nil {
			out, truncated, exit := term.Output()
			reads = append(reads, read{ids[i], out, truncated, exit})
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, r := range reads {
		t.showTerminal(r.id, r.out, r.truncated, r.exit)
	}
}

// showTerminal redraws terminal id with what was read of it, when that
// changed (an ended terminal never shows as running again); t.mu must be
// held.
func (t *acpTurn) showTerminal(id, out string, truncated bool, exit *TerminalExit) {
	tt := t.terms[id]
	if tt == nil {
		return
	}
	st := tt.state
	if len(out) > acpTermShown {
		b := []byte(out)
		out = string(b[acpCharCut(b, len(b)-acpTermShown):])
		truncated = true
	}
	st.Output, st.Truncated = out, truncated
	if exit != nil {
		st.Exited, st.ExitCode, st.Signal = true, exit.ExitCode, exit.Signal
	}
	if tt.state.Exited && !st.Exited || st.Output == tt.state.Output && st.Truncated == tt.state.Truncated && st.Exited == tt.state.Exited {
		return
	}
	tt.state = st
	var status *string
	if tt.own && st.Exited {
		s := message.ToolFailed
		if st.ExitCode != nil && *st.ExitCode == 0 && st.Signal == "" {
			s = message.ToolCompleted
		}
		status = &s
	}
	t.recompose(tt.item, status)
}

// acpCommandLine is a terminal's command as the user reads it.
func acpCommandLine(command string, args []string) string {
	if len(args) == 0 {
		return command
	}
	parts := []string{command}
	for _, a := range args {
		parts = append(parts, acpShellQuote(a))
	}
	return strings.Join(parts, " ")
}

// CreateTerminal runs the agent's command, only during a running turn of
// the session, at most ACPMaxTerminals at once per session, as
// ACPOptions.TerminalPolicy says (asking the user first with "ask"). The
// terminal is shown at once: in the running execute call, else as its own
// item.
func (c *acpClient) CreateTerminal(ctx context.Context, r acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	cmdline := acpCommandLine(r.Command, r.Args)
	what := "command " + cmdline
	if err := c.offHost(what, "terminal/create"); err != nil {
		return acp.CreateTerminalResponse{}, err
	}
	turn, err := c.inTurn(r.SessionId, what, "terminal/create")
	if err != nil {
		return acp.CreateTerminalResponse{}, err
	}
	policy := c.a.opts.TerminalPolicy
	if policy == TerminalsDeny {
		return acp.CreateTerminalResponse{}, c.refused(r.SessionId, what, acpRefused(
			"chipchat's configuration does not let the agent run commands ([acp] terminals = \"deny\")"))
	}
	roots := c.roots(r.SessionId)
	dir := ""
	if len(roots) > 0 {
		dir = roots[0]
	}
	if r.Cwd != nil && *r.Cwd != "" {
		real, err := acpResolve(roots, *r.Cwd)
		if err != nil {
			return acp.CreateTerminalResponse{}, c.refused(r.SessionId, what, err)
		}
		dir = real
	}
	ts := c.a.terms
	sid := string(r.SessionId)
	id, ok := ts.reserve(sid)
	if !ok {
		return acp.CreateTerminalResponse{}, c.refused(r.SessionId, what, acpRefused(
			"the session already holds %d terminals, the most chipchat runs for one session; release one (terminal/release) first", ACPMaxTerminals))
	}
	started := false
	defer func() {
		if !started {
			ts.unreserve(sid)
		}
	}()
	spec := TerminalSpec{ID: id, SessionID: sid, Command: r.Command, Args: r.Args, Dir: dir, OutputLimit: ACPDefaultTerminalOutput}
	if r.OutputByteLimit != nil && *r.OutputByteLimit > 0 {
		spec.OutputLimit = *r.OutputByteLimit
	}
	for _, e := range r.Env {
		spec.Env = append(spec.Env, e.Name+"="+e.Value)
	}
	status := message.ToolInProgress
	if policy == TerminalsAsk {
		status = message.ToolPending
	}
	turn.mu.Lock()
	item := turn.placeTerminal(id, message.TerminalState{Command: cmdline, Cwd: dir}, status)
	spec.Name = cmdline
	if t := turn.tools[item]; t != nil && t.Title != "" {
		spec.Name = t.Title
	}
	turn.mu.Unlock()
	if policy == TerminalsAsk {
		if err := c.askTerminal(ctx, turn, item, cmdline, dir); err != nil {
			turn.mu.Lock()
			turn.dropTerminal(id, "not run: "+err.Error(), true)
			turn.mu.Unlock()
			return acp.CreateTerminalResponse{}, acpRefused("%s", err.Error())
		}
	}
	term, err := ts.host.Start(spec)
	if err != nil {
		turn.mu.Lock()
		turn.dropTerminal(id, "could not run: "+err.Error(), false)
		turn.mu.Unlock()
		return acp.CreateTerminalResponse{}, &acp.RequestError{Code: -32603, Message: "could not run " + r.Command + ": " + err.Error()}
	}
	started = true
	ts.mu.Lock()
	ts.byID[id] = &acpTerminal{sid: sid, t: term}
	ts.mu.Unlock()
	turn.mu.Lock()
	if tt := turn.terms[id]; tt != nil {
		tt.term = term
	}
	if status == message.ToolPending {
		running := message.ToolInProgress
		turn.change(acpChange{ID: item, Status: &running})
	}
	turn.mu.Unlock()
	turn.redrawTerminals(id)
	go func() {
		// Its end is drawn when it comes, while the turn runs.
		if _, err := term.Wait(turn.alive); err == nil {
			turn.redrawTerminals(id)
		}
	}()
	return acp.CreateTerminalResponse{TerminalId: id}, nil
}

// errACPDeclined: the user did not let the command run.
var errACPDeclined = errors.New("the user did not allow the command to run")

// askTerminal asks the user, through the turn's permission prompt, whether
// cmdline may run (item is the call drawing the terminal); nil when the
// user allowed it.
func (c *acpClient) askTerminal(ctx context.Context, turn *acpTurn, item, cmdline, dir string) error {
	raw, _ := message.MarshalJSON(map[string]string{"command": cmdline, "cwd": dir})
	tool := message.Tool{CallID: item, Kind: "execute", Title: "Run " + cmdline, Status: message.ToolPending, RawInput: raw}
	req := message.Permission{ToolCallID: item, Asked: "Run " + cmdline, Options: []message.PermissionOption{
		{ID: "run", Name: "Run it", Kind: message.AllowOnce},
		{ID: "reject", Name: "Do not run it", Kind: message.RejectOnce},
	}}
	reply := make(chan PermissionAnswer, 1)
	turn.mu.Lock()
	turn.push(Permission{Request: req, Tool: tool, Reply: reply})
	turn.mu.Unlock()
	select {
	case ans := <-reply:
		if turn.ctx.Err() == nil && ans.Outcome != "cancelled" && ans.Outcome != "rejected" && ans.OptionID == "run" {
			return nil
		}
	case <-turn.ctx.Done():
	case <-turn.over:
	case <-ctx.Done():
	}
	return errACPDeclined
}

func acpExitStatus(e TerminalExit) *acp.TerminalExitStatus {
	s := &acp.TerminalExitStatus{ExitCode: e.ExitCode}
	if e.Signal != "" {
		sig := e.Signal
		s.Signal = &sig
	}
	return s
}

func (c *acpClient) TerminalOutput(_ context.Context, r acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	t, err := c.a.terms.get(r.SessionId, r.TerminalId)
	if err != nil {
		return acp.TerminalOutputResponse{}, err
	}
	c.redrawTerminal(r.SessionId, r.TerminalId)
	out, truncated, exit := t.Output()
	resp := acp.TerminalOutputResponse{Output: out, Truncated: truncated}
	if exit != nil {
		resp.ExitStatus = acpExitStatus(*exit)
	}
	return resp, nil
}

func (c *acpClient) WaitForTerminalExit(ctx context.Context, r acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	t, err := c.a.terms.get(r.SessionId, r.TerminalId)
	if err != nil {
		return acp.WaitForTerminalExitResponse{}, err
	}
	e, err := t.Wait(ctx)
	if err != nil {
		return acp.WaitForTerminalExitResponse{}, err
	}
	c.redrawTerminal(r.SessionId, r.TerminalId)
	s := acpExitStatus(e)
	return acp.WaitForTerminalExitResponse{ExitCode: s.ExitCode, Signal: s.Signal}, nil
}

func (c *acpClient) KillTerminal(_ context.Context, r acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	t, err := c.a.terms.get(r.SessionId, r.TerminalId)
	if err != nil {
		return acp.KillTerminalResponse{}, err
	}
	err = t.Kill()
	c.redrawTerminal(r.SessionId, r.TerminalId)
	return acp.KillTerminalResponse{}, err
}

func (c *acpClient) ReleaseTerminal(_ context.Context, r acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	ts := c.a.terms
	t, err := ts.get(r.SessionId, r.TerminalId)
	if err != nil {
		return acp.ReleaseTerminalResponse{}, err
	}
	ts.mu.Lock()
	_, held := ts.byID[r.TerminalId]
	delete(ts.byID, r.TerminalId)
	ts.mu.Unlock()
	if held {
		ts.unreserve(string(r.SessionId))
	}
	c.redrawTerminal(r.SessionId, r.TerminalId)
	return acp.ReleaseTerminalResponse{}, t.Release()
}

// redrawTerminal redraws a terminal of the session's running turn with what
// it holds now (before the agent hears back, so the item is never behind
// what the agent saw).
func (c *acpClient) redrawTerminal(sid acp.SessionId, id string) {
	if t := c.turn(sid); t != nil {
		t.redrawTerminals(id)
	}
}
