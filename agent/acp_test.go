//go:build unix

package agent

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/message"
)

// The ACP tests run a fake agent, built here from the SDK's agent side, as
// a re-exec of the test binary (TestACPHelperProcess), so NewACP's real
// stdio path (sh -c, pipes, process group) is exercised. The fake agent
// appends one JSON line per event to the file in CHIPCHAT_ACP_LOG.
//
// Its behaviour depends on the prompt text:
//
//	[wait]         streams "waiting", then waits for session/cancel
//	[hang]         streams "hanging", then ignores everything
//	[permission]   asks permission for "Edit config.json" (an edit with a
//	               diff), always-allow listed first; replies "chose <id>"
//	[reject-always] asks with allow_once and reject_always only
//	[fs]           reads in.txt, writes out.txt, reads /etc/hostname (outside)
//	[term]         runs a command in a client terminal (output limit 10)
//	[kill]         runs sleep in a client terminal and kills it
//	[max]          stops with max_tokens
//	[agent-cancel] stops with cancelled, unasked
//	[crash]        writes "boom" to stderr and exits 3
//	anything else  a thought, "Hello", " world", a read tool call with
//	               updates, a plan, usage, then "\n\nDone."
//
// Env: CHIPCHAT_ACP_CAPS=none advertises no prompt capabilities, no
// loadSession and no HTTP MCP; CHIPCHAT_ACP_AUTH=1 makes session/new
// require authentication (methods "key" (agent), "env" (FAKE_KEY) and
// "term" (terminal; passes once the file CHIPCHAT_ACP_AUTHFILE exists));
// CHIPCHAT_ACP_REPLAY=after replays a loaded session after answering
// session/load (as Gemini CLI does) instead of before; CHIPCHAT_ACP_DIE=1
// refuses to start, on stderr.

const fakeACPEnv = "CHIPCHAT_ACP_FAKE"

// TestACPHelperProcess is the fake agent; it does nothing in a normal run.
func TestACPHelperProcess(t *testing.T) { runAsAgent(fakeACPEnv, runFakeACPAgent) }

// runAsAgent is a helper test's body: when env is "1" the test binary was
// re-executed as an agent (newSelfACP), so it runs agent and exits;
// otherwise it does nothing.
func runAsAgent(env string, agent func()) {
	if os.Getenv(env) != "1" {
		return
	}
	agent()
	os.Exit(0)
}

// newSelfACP is an ACP backend whose agent is this test binary re-executed
// to run only the helper test named helper (opts.Env sets the variable
// that makes it run its agent), closed when the test ends. The
// connection's log goes to a temporary file unless opts.LogPath says
// otherwise.
func newSelfACP(t *testing.T, helper string, opts ACPOptions) *ACP {
	t.Helper()
	if opts.LogPath == "" {
		// Not t.TempDir: the SDK may log the connection's end a moment
		// after Close returns, and t.TempDir's cleanup fails the test on a
		// file created meanwhile.
		dir, err := os.MkdirTemp("", "chipchat-acp-log-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.RemoveAll(dir) })
		opts.LogPath = filepath.Join(dir, "chipchat.log")
	}
	a, err := NewACP("exec "+acpShellQuote(os.Args[0])+" -test.run='^"+helper+"$'", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

type fakeACPAgent struct {
	conn     *acp.AgentSideConnection
	caps     bool
	needAuth bool
	offers   string // CHIPCHAT_ACP_SESSIONS: the session methods offered ("resume,close,list")

	logMu sync.Mutex
	log   *os.File

	mu     sync.Mutex
	authed bool
	n      int
	cwd    map[acp.SessionId]string
	config []acp.SessionConfigOption // as set_config_option left them
	steer  chan string               // the running "[steerable]" prompt takes steered text
}

func runFakeACPAgent() {
	if os.Getenv("CHIPCHAT_ACP_DIE") == "1" {
		fmt.Fprintln(os.Stderr, "starting fake agent")
		fmt.Fprintln(os.Stderr, "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons (set IS_SANDBOX=1)")
		os.Exit(1)
	}
	f, err := os.OpenFile(os.Getenv("CHIPCHAT_ACP_LOG"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ag := &fakeACPAgent{log: f, caps: os.Getenv("CHIPCHAT_ACP_CAPS") != "none", needAuth: os.Getenv("CHIPCHAT_ACP_AUTH") == "1",
		offers: os.Getenv("CHIPCHAT_ACP_SESSIONS"),
		cwd:    map[acp.SessionId]string{}}
	conn := acp.NewAgentSideConnection(ag, os.Stdout, os.Stdin)
	conn.SetLogger(slog.New(slog.DiscardHandler))
	ag.conn = conn
	<-conn.Done()
}

func (f *fakeACPAgent) record(ev map[string]any) {
	f.logMu.Lock()
	defer f.logMu.Unlock()
	b, _ := json.Marshal(ev)
	f.log.Write(append(b, '\n'))
}

func (f *fakeACPAgent) Initialize(_ context.Context, p acp.InitializeRequest) (acp.InitializeResponse, error) {
	f.record(map[string]any{"ev": "initialize", "pid": os.Getpid(), "caps": p.ClientCapabilities})
	resp := acp.InitializeResponse{
		ProtocolVersion: acp.ProtocolVersionNumber,
		AgentInfo:       &acp.Implementation{Name: "fake", Title: acp.Ptr("Fake Agent"), Version: "1"},
		AuthMethods:     []acp.AuthMethod{},
	}
	if f.caps {
		resp.AgentCapabilities = acp.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: acp.PromptCapabilities{Image: true, EmbeddedContext: true},
			McpCapabilities:    acp.McpCapabilities{Http: true},
		}
	}
	sc := &resp.AgentCapabilities.SessionCapabilities
	for _, m := range strings.Split(f.offers, ",") {
		switch m {
		case "resume":
			sc.Resume = &acp.SessionResumeCapabilities{}
		case "close":
			sc.Close = &acp.SessionCloseCapabilities{}
		case "list":
			sc.List = &acp.SessionListCapabilities{}
		case "fork":
			sc.Fork = &acp.SessionForkCapabilities{} // acp_fork_test.go
		case "steer":
			resp.Meta = map[string]any{"steering": map[string]any{"supported": true}}
		case "logout":
			resp.AgentCapabilities.Auth.Logout = &acp.LogoutCapabilities{}
		}
	}
	if f.needAuth {
		resp.AuthMethods = []acp.AuthMethod{
			{Agent: &acp.AuthMethodAgent{Id: "key", Name: "Login with Fake", Description: acp.Ptr("opens a browser")}},
			{EnvVar: &acp.AuthMethodEnvVarInline{Id: "env", Name: "API key", Type: "env_var", Vars: []acp.AuthEnvVar{{Name: "FAKE_KEY", Secret: true}}}},
			{Terminal: &acp.AuthMethodTerminalInline{Id: "term", Name: "Terminal login", Type: "terminal", Args: []string{"--login"}, Env: map[string]any{"FAKE_LOGIN": "1"}}},
			{Agent: &acp.AuthMethodAgent{Id: "wait", Name: "Login that waits"}},
		}
	}
	return resp, nil
}

func (f *fakeACPAgent) Authenticate(ctx context.Context, p acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	f.record(map[string]any{"ev": "authenticate", "method": p.MethodId})
	if p.MethodId == "wait" {
		// A browser login nobody finishes: only the client's cancel ends it.
		<-ctx.Done()
		f.record(map[string]any{"ev": "authenticate-cancelled"})
		return acp.AuthenticateResponse{}, ctx.Err()
	}
	if p.MethodId == "env" {
		// As Codex: the key must be in the process's environment, and
		// authenticate reads it.
		if os.Getenv("FAKE_KEY") != "secret" {
			return acp.AuthenticateResponse{}, acp.NewInternalError(map[string]any{"error": "FAKE_KEY is not set"})
		}
		p.MethodId = "key"
	}
	if p.MethodId != "key" {
		return acp.AuthenticateResponse{}, acp.NewInvalidParams(map[string]any{"error": "unknown method"})
	}
	f.mu.Lock()
	f.authed = true
	f.mu.Unlock()
	return acp.AuthenticateResponse{}, nil
}

func fakeSessionState() (*acp.SessionModeState, []acp.SessionConfigOption, *acp.SessionModelState) {
	modes := &acp.SessionModeState{CurrentModeId: "default", AvailableModes: []acp.SessionMode{
		{Id: "default", Name: "Default", Description: acp.Ptr("asks before edits")},
		{Id: "plan", Name: "Plan"},
	}}
	cat := acp.SessionConfigOptionCategoryThoughtLevel
	ungrouped := acp.SessionConfigSelectOptionsUngrouped{{Value: "low", Name: "Low"}, {Value: "high", Name: "High"}}
	config := []acp.SessionConfigOption{
		{Select: &acp.SessionConfigOptionSelect{Id: "effort", Name: "Effort", Category: &cat, CurrentValue: "low", Type: "select",
			Options: acp.SessionConfigSelectOptions{Ungrouped: &ungrouped}}},
		{Boolean: &acp.SessionConfigOptionBoolean{Id: "web", Name: "Web search", CurrentValue: false, Type: "boolean"}},
	}
	models := &acp.SessionModelState{CurrentModelId: "small", AvailableModels: []acp.ModelInfo{{ModelId: "small", Name: "Small"}, {ModelId: "big", Name: "Big"}}}
	return modes, config, models
}

func (f *fakeACPAgent) NewSession(ctx context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	f.mu.Lock()
	authed := f.authed
	if !authed && f.needAuth {
		if af := os.Getenv("CHIPCHAT_ACP_AUTHFILE"); af != "" {
			if _, err := os.Stat(af); err == nil {
				authed = true
			}
		}
	}
	if f.needAuth && !authed {
		f.mu.Unlock()
		f.record(map[string]any{"ev": "new-auth-required"})
		return acp.NewSessionResponse{}, acp.NewAuthRequired(nil)
	}
	f.n++
	id := acp.SessionId(fmt.Sprintf("sess-%d-%d", os.Getpid(), f.n))
	f.cwd[id] = p.Cwd
	f.mu.Unlock()
	mcp, _ := json.Marshal(p.McpServers)
	f.record(map[string]any{"ev": "new", "session": string(id), "cwd": p.Cwd, "mcp": string(mcp)})
	// Commands come after the answer, as Claude's adapter sends them.
	go f.say(context.WithoutCancel(ctx), id, acp.SessionUpdate{AvailableCommandsUpdate: &acp.SessionAvailableCommandsUpdate{
		AvailableCommands: []acp.AvailableCommand{
			{Name: "review", Description: "review the changes"},
			{Name: "search", Description: "search the web", Input: &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: "query"}}},
		}}})
	modes, config, models := fakeSessionState()
	return acp.NewSessionResponse{SessionId: id, Modes: modes, ConfigOptions: config, Models: models}, nil
}

func (f *fakeACPAgent) replay(ctx context.Context, sid acp.SessionId) {
	f.say(ctx, sid, acp.UpdateUserMessageText("old question"))
	f.say(ctx, sid, acp.UpdateAgentThoughtText("old thought"))
	f.say(ctx, sid, acp.UpdateAgentMessageText("old reply"))
	f.say(ctx, sid, acp.StartToolCall("old_call", "Old tool", acp.WithStartStatus(acp.ToolCallStatusCompleted)))
	f.record(map[string]any{"ev": "replayed", "session": string(sid)})
}

func (f *fakeACPAgent) LoadSession(ctx context.Context, p acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	mcp, _ := json.Marshal(p.McpServers)
	f.record(map[string]any{"ev": "load", "session": string(p.SessionId), "cwd": p.Cwd, "mcp": string(mcp)})
	if p.SessionId == "sess-gone" {
		return acp.LoadSessionResponse{}, &acp.RequestError{Code: -32002, Message: "Resource not found: session sess-gone"}
	}
	f.mu.Lock()
	f.cwd[p.SessionId] = p.Cwd
	f.mu.Unlock()
	if os.Getenv("CHIPCHAT_ACP_REPLAY") == "after" {
		go f.replay(context.WithoutCancel(ctx), p.SessionId)
	} else {
		f.replay(ctx, p.SessionId)
	}
	modes, config, models := fakeSessionState()
	modes.CurrentModeId = "plan"
	return acp.LoadSessionResponse{Modes: modes, ConfigOptions: config, Models: models}, nil
}

func (f *fakeACPAgent) Cancel(_ context.Context, p acp.CancelNotification) error {
	f.record(map[string]any{"ev": "cancel", "session": string(p.SessionId)})
	return nil
}

func (f *fakeACPAgent) say(ctx context.Context, sid acp.SessionId, u acp.SessionUpdate) {
	f.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: sid, Update: u})
}

func (f *fakeACPAgent) ask(ctx context.Context, sid acp.SessionId, opts []acp.PermissionOption) string {
	// Not ctx: the test wants the client's own answer, even after session/cancel.
	resp, err := f.conn.RequestPermission(context.WithoutCancel(ctx), acp.RequestPermissionRequest{
		SessionId: sid,
		ToolCall: acp.ToolCallUpdate{ToolCallId: "call_1", Title: acp.Ptr("Edit config.json"), Kind: acp.Ptr(acp.ToolKindEdit),
			Content: []acp.ToolCallContent{acp.ToolDiffContent("/project/config.json", "{\"a\": 2}\n", "{\"a\": 1}\n")}},
		Options: opts,
	})
	outcome := "error"
	switch {
	case err != nil:
	case resp.Outcome.Selected != nil:
		outcome = string(resp.Outcome.Selected.OptionId)
	case resp.Outcome.Cancelled != nil:
		outcome = "cancelled"
	}
	f.record(map[string]any{"ev": "permission", "outcome": outcome})
	return outcome
}

func (f *fakeACPAgent) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	var blocks []map[string]any
	text := ""
	for _, b := range p.Prompt {
		switch {
		case b.Text != nil:
			text += b.Text.Text
			blocks = append(blocks, map[string]any{"type": "text", "text": b.Text.Text})
		case b.Image != nil:
			blocks = append(blocks, map[string]any{"type": "image", "mime": b.Image.MimeType, "data": b.Image.Data, "uri": acpStr(b.Image.Uri)})
		case b.Resource != nil && b.Resource.Resource.TextResourceContents != nil:
			r := b.Resource.Resource.TextResourceContents
			blocks = append(blocks, map[string]any{"type": "resource", "uri": r.Uri, "text": r.Text})
		case b.Resource != nil && b.Resource.Resource.BlobResourceContents != nil:
			r := b.Resource.Resource.BlobResourceContents
			blocks = append(blocks, map[string]any{"type": "resource", "uri": r.Uri, "blob": r.Blob})
		case b.ResourceLink != nil:
			blocks = append(blocks, map[string]any{"type": "link", "uri": b.ResourceLink.Uri, "name": b.ResourceLink.Name})
		default:
			blocks = append(blocks, map[string]any{"type": "other"})
		}
	}
	f.record(map[string]any{"ev": "prompt", "session": string(p.SessionId), "blocks": blocks})
	sid := p.SessionId
	f.mu.Lock()
	cwd := f.cwd[sid]
	f.mu.Unlock()
	switch {
	case strings.Contains(text, "[wait]"):
		f.say(ctx, sid, acp.UpdateAgentMessageText("waiting"))
		<-ctx.Done()
		f.record(map[string]any{"ev": "prompt-cancelled", "session": string(sid)})
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	case strings.Contains(text, "[hang]"):
		f.say(ctx, sid, acp.UpdateAgentMessageText("hanging"))
		time.Sleep(time.Hour)
	case strings.Contains(text, "[crash]"):
		fmt.Fprintln(os.Stderr, "boom")
		os.Exit(3)
	case strings.Contains(text, "[max]"):
		f.say(ctx, sid, acp.UpdateAgentMessageText("partial"))
		return acp.PromptResponse{StopReason: acp.StopReasonMaxTokens}, nil
	case strings.Contains(text, "[title]"):
		// As Claude's adapter: the session's title once the first turn
		// is under way (control characters and all).
		f.say(ctx, sid, acp.SessionUpdate{SessionInfoUpdate: &acp.SessionSessionInfoUpdate{Title: acp.Ptr("Fix the\n login\x1b bug")}})
		f.say(ctx, sid, acp.UpdateAgentMessageText("titled"))
	case strings.Contains(text, "[title-after]"):
		// As Claude's adapter: the title comes once its own request for
		// it returns, after the turn's answer went out.
		time.AfterFunc(20*time.Millisecond, func() {
			f.say(context.Background(), sid, acp.SessionUpdate{SessionInfoUpdate: &acp.SessionSessionInfoUpdate{Title: acp.Ptr("Named after\x1b the turn")}})
		})
		f.say(ctx, sid, acp.UpdateAgentMessageText("answered"))
	case strings.Contains(text, "[steerable]"):
		// Runs until a message is steered into it (or it is cancelled).
		ch := make(chan string, 1)
		f.mu.Lock()
		f.steer = ch
		f.mu.Unlock()
		defer func() {
			f.mu.Lock()
			f.steer = nil
			f.mu.Unlock()
		}()
		f.say(ctx, sid, acp.UpdateAgentMessageText("working; "))
		select {
		case s := <-ch:
			f.say(ctx, sid, acp.UpdateAgentMessageText("steered: "+s))
		case <-ctx.Done():
			return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
		}
	case strings.Contains(text, "[agent-cancel]"):
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	case strings.Contains(text, "[permission]"):
		f.say(ctx, sid, acp.StartToolCall("call_1", "Edit", acp.WithStartKind(acp.ToolKindEdit),
			acp.WithStartLocations([]acp.ToolCallLocation{{Path: "/project/config.json"}}),
			acp.WithStartRawInput(map[string]any{"file_path": "/project/config.json"})))
		outcome := f.ask(ctx, sid, []acp.PermissionOption{
			{Kind: acp.PermissionOptionKindAllowAlways, Name: "Always allow", OptionId: "always"},
			{Kind: acp.PermissionOptionKindAllowOnce, Name: "Allow once", OptionId: "allow"},
			{Kind: acp.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: "reject"},
			{Kind: acp.PermissionOptionKindRejectAlways, Name: "Never", OptionId: "never"},
		})
		f.say(ctx, sid, acp.UpdateToolCall("call_1", acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
		f.say(ctx, sid, acp.UpdateAgentMessageText("chose "+outcome))
	case strings.Contains(text, "[ask-and-end]"):
		// Asks, and ends the prompt without waiting for the answer.
		go f.ask(context.WithoutCancel(ctx), sid, []acp.PermissionOption{
			{Kind: acp.PermissionOptionKindAllowOnce, Name: "Allow once", OptionId: "allow"},
			{Kind: acp.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: "reject"},
		})
	case strings.Contains(text, "[reject-always]"):
		outcome := f.ask(ctx, sid, []acp.PermissionOption{
			{Kind: acp.PermissionOptionKindAllowOnce, Name: "Allow once", OptionId: "allow"},
			{Kind: acp.PermissionOptionKindRejectAlways, Name: "Never", OptionId: "never"},
		})
		f.say(ctx, sid, acp.UpdateAgentMessageText("chose "+outcome))
	case strings.Contains(text, "[fs]"):
		r, err := f.conn.ReadTextFile(ctx, acp.ReadTextFileRequest{SessionId: sid, Path: filepath.Join(cwd, "in.txt"), Line: acp.Ptr(2), Limit: acp.Ptr(1)})
		f.record(map[string]any{"ev": "read", "content": r.Content, "err": fmt.Sprint(err)})
		_, err = f.conn.WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: sid, Path: filepath.Join(cwd, "in.txt"), Content: "one\nTWO\n"})
		f.record(map[string]any{"ev": "write", "err": fmt.Sprint(err)})
		_, err = f.conn.WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: sid, Path: filepath.Join(cwd, "sub", "new.txt"), Content: "fresh\n"})
		f.record(map[string]any{"ev": "write-new", "err": fmt.Sprint(err)})
		_, err = f.conn.ReadTextFile(ctx, acp.ReadTextFileRequest{SessionId: sid, Path: "/etc/hostname"})
		f.record(map[string]any{"ev": "read-outside", "err": fmt.Sprint(err)})
		_, err = f.conn.WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: sid, Path: filepath.Join(cwd, "escape", "x.txt"), Content: "no"})
		f.record(map[string]any{"ev": "write-symlink", "err": fmt.Sprint(err)})
		_, err = f.conn.ReadTextFile(ctx, acp.ReadTextFileRequest{SessionId: sid, Path: filepath.Join(cwd, "missing.txt")})
		f.record(map[string]any{"ev": "read-missing", "err": fmt.Sprint(err)})
		f.say(ctx, sid, acp.UpdateAgentMessageText("fs done"))
	case strings.Contains(text, "[term]"):
		f.say(ctx, sid, acp.StartToolCall("call_t", "Run printf", acp.WithStartKind(acp.ToolKindExecute), acp.WithStartStatus(acp.ToolCallStatusInProgress)))
		ct, err := f.conn.CreateTerminal(ctx, acp.CreateTerminalRequest{SessionId: sid, Command: "sh", Args: []string{"-c", "printf 'héllo wörld 0123456789'; exit 7"},
			OutputByteLimit: acp.Ptr(10)})
		if err != nil {
			f.record(map[string]any{"ev": "term", "err": err.Error()})
			break
		}
		f.say(ctx, sid, acp.UpdateToolCall("call_t", acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolTerminalRef(ct.TerminalId)})))
		w, err := f.conn.WaitForTerminalExit(ctx, acp.WaitForTerminalExitRequest{SessionId: sid, TerminalId: ct.TerminalId})
		out, err2 := f.conn.TerminalOutput(ctx, acp.TerminalOutputRequest{SessionId: sid, TerminalId: ct.TerminalId})
		_, err3 := f.conn.ReleaseTerminal(ctx, acp.ReleaseTerminalRequest{SessionId: sid, TerminalId: ct.TerminalId})
		_, err4 := f.conn.TerminalOutput(ctx, acp.TerminalOutputRequest{SessionId: sid, TerminalId: ct.TerminalId})
		code := -100
		if w.ExitCode != nil {
			code = *w.ExitCode
		}
		f.record(map[string]any{"ev": "term", "id": ct.TerminalId, "wait": fmt.Sprint(err), "code": code, "output": out.Output, "truncated": out.Truncated,
			"exited": out.ExitStatus != nil, "outErr": fmt.Sprint(err2), "release": fmt.Sprint(err3), "afterRelease": fmt.Sprint(err4)})
		f.say(ctx, sid, acp.UpdateToolCall("call_t", acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
	case strings.Contains(text, "[kill]"):
		ct, err := f.conn.CreateTerminal(ctx, acp.CreateTerminalRequest{SessionId: sid, Command: "sleep 30"})
		if err != nil {
			f.record(map[string]any{"ev": "kill", "err": err.Error()})
			break
		}
		out, _ := f.conn.TerminalOutput(ctx, acp.TerminalOutputRequest{SessionId: sid, TerminalId: ct.TerminalId})
		_, kerr := f.conn.KillTerminal(ctx, acp.KillTerminalRequest{SessionId: sid, TerminalId: ct.TerminalId})
		w, _ := f.conn.WaitForTerminalExit(ctx, acp.WaitForTerminalExitRequest{SessionId: sid, TerminalId: ct.TerminalId})
		f.conn.ReleaseTerminal(ctx, acp.ReleaseTerminalRequest{SessionId: sid, TerminalId: ct.TerminalId})
		f.record(map[string]any{"ev": "kill", "runningBefore": out.ExitStatus == nil, "kill": fmt.Sprint(kerr), "signal": acpStr(w.Signal)})
	default:
		f.say(ctx, sid, acp.UpdateAgentThoughtText("thinking hard"))
		f.say(ctx, sid, acp.UpdateAgentMessageText("Hello"))
		f.say(ctx, sid, acp.UpdateAgentMessageText(" world"))
		f.say(ctx, sid, acp.StartToolCall("call_2", "Read file", acp.WithStartKind(acp.ToolKindRead), acp.WithStartStatus(acp.ToolCallStatusPending),
			acp.WithStartLocations([]acp.ToolCallLocation{{Path: "/project/main.go", Line: acp.Ptr(3)}}), acp.WithStartRawInput(map[string]any{"path": "main.go"})))
		f.say(ctx, sid, acp.UpdateToolCall("call_2", acp.WithUpdateStatus(acp.ToolCallStatusInProgress), acp.WithUpdateTitle("Read main.go")))
		f.say(ctx, sid, acp.UpdateToolCall("call_2", acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("file body"))})))
		f.say(ctx, sid, acp.UpdateToolCall("call_2", acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
		f.say(ctx, sid, acp.UpdateToolCall("call_late", acp.WithUpdateTitle("Unseen"), acp.WithUpdateStatus(acp.ToolCallStatusFailed)))
		f.say(ctx, sid, acp.UpdatePlan(
			acp.PlanEntry{Content: "step one", Status: acp.PlanEntryStatusCompleted, Priority: acp.PlanEntryPriorityHigh},
			acp.PlanEntry{Content: "step two", Status: acp.PlanEntryStatusInProgress, Priority: acp.PlanEntryPriorityMedium},
		))
		f.say(ctx, sid, acp.SessionUpdate{UsageUpdate: &acp.SessionUsageUpdate{Used: 1200, Size: 200000, Cost: &acp.Cost{Amount: 0.0123, Currency: "USD"}}})
		f.say(ctx, sid, acp.UpdateAgentMessageText("\n\nDone."))
		return acp.PromptResponse{StopReason: acp.StopReasonEndTurn, Usage: &acp.Usage{InputTokens: 11, OutputTokens: 22, TotalTokens: 33}}, nil
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

func (f *fakeACPAgent) CloseSession(_ context.Context, p acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	f.record(map[string]any{"ev": "close", "session": string(p.SessionId)})
	if os.Getenv("CHIPCHAT_ACP_SLOW_CLOSE") == "1" {
		time.Sleep(time.Hour) // an agent that never answers: quitting must not wait for it
	}
	return acp.CloseSessionResponse{}, nil
}

// ListSessions has three sessions made outside chipchat, two in the
// asked cwd and one elsewhere, in two pages.
func (f *fakeACPAgent) ListSessions(_ context.Context, p acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	cwd := acpStr(p.Cwd)
	f.record(map[string]any{"ev": "list", "cwd": cwd, "cursor": acpStr(p.Cursor)})
	if p.Cursor == nil {
		return acp.ListSessionsResponse{NextCursor: acp.Ptr("page2"), Sessions: []acp.SessionInfo{
			{SessionId: "sess-older", Cwd: cwd, Title: acp.Ptr("Older work"), UpdatedAt: acp.Ptr("2026-11-01T10:00:00Z")},
			{SessionId: "sess-elsewhere", Cwd: "/somewhere/else", Title: acp.Ptr("Other project")},
		}}, nil
	}
	return acp.ListSessionsResponse{Sessions: []acp.SessionInfo{
		{SessionId: "sess-newer", Cwd: cwd, Title: acp.Ptr("Newer\nwork"), UpdatedAt: acp.Ptr("2026-11-20T10:00:00Z")},
	}}, nil
}

func (f *fakeACPAgent) ResumeSession(ctx context.Context, p acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	f.record(map[string]any{"ev": "resume", "session": string(p.SessionId), "cwd": p.Cwd})
	if p.SessionId == "sess-gone" {
		return acp.ResumeSessionResponse{}, &acp.RequestError{Code: -32002, Message: "Resource not found: session sess-gone"}
	}
	f.mu.Lock()
	f.cwd[p.SessionId] = p.Cwd
	f.mu.Unlock()
	modes, config, models := fakeSessionState()
	modes.CurrentModeId = "plan"
	return acp.ResumeSessionResponse{Modes: modes, ConfigOptions: config, Models: models}, nil
}

func (f *fakeACPAgent) SetSessionConfigOption(_ context.Context, p acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	b, _ := json.Marshal(p)
	f.record(map[string]any{"ev": "set-config", "req": string(b)})
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.config == nil {
		_, f.config, _ = fakeSessionState()
	}
	config := f.config
	if p.ValueId != nil && p.ValueId.ConfigId == "effort" {
		config[0].Select.CurrentValue = p.ValueId.Value
	}
	if p.Boolean != nil && p.Boolean.ConfigId == "web" {
		config[1].Boolean.CurrentValue = p.Boolean.Value
	}
	return acp.SetSessionConfigOptionResponse{ConfigOptions: config}, nil
}

func (f *fakeACPAgent) SetSessionMode(ctx context.Context, p acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	f.record(map[string]any{"ev": "set-mode", "mode": string(p.ModeId), "session": string(p.SessionId)})
	return acp.SetSessionModeResponse{}, nil
}

func (f *fakeACPAgent) UnstableSetSessionModel(_ context.Context, p acp.UnstableSetSessionModelRequest) (acp.UnstableSetSessionModelResponse, error) {
	f.record(map[string]any{"ev": "set-model", "model": string(p.ModelId)})
	return acp.UnstableSetSessionModelResponse{}, nil
}

// --- harness ---

type acpHarness struct {
	t   *testing.T
	a   *ACP
	log string
	dir string

	// permission answers a Permission (default: allow once); signIn a SignIn.
	permission func(Permission) PermissionAnswer
	signIn     func(SignIn) Answer
}

// newACPHarness starts nothing yet: the agent starts on the first turn.
func newACPHarness(t *testing.T, opts ACPOptions, env ...string) *acpHarness {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(t.TempDir(), "agent.log")
	opts.Env = append([]string{fakeACPEnv + "=1", "CHIPCHAT_ACP_LOG=" + log}, env...)
	h := &acpHarness{t: t, a: newSelfACP(t, "TestACPHelperProcess", opts), log: log, dir: dir}
	h.permission = func(p Permission) PermissionAnswer {
		for _, o := range p.Request.Options {
			if o.Kind == message.AllowOnce {
				return PermissionAnswer{OptionID: o.ID, Outcome: "selected"}
			}
		}
		return PermissionAnswer{Outcome: "rejected"}
	}
	h.signIn = func(SignIn) Answer { return Answer{} }
	return h
}

// emitter records events, answering questions with the harness's handlers.
func (h *acpHarness) emitter(into *[]Event) func(Event) {
	return func(e Event) {
		*into = append(*into, e)
		switch e := e.(type) {
		case Permission:
			e.Reply <- h.permission(e)
		case SignIn:
			e.Reply <- h.signIn(e)
		}
	}
}

// run runs one turn and returns its events.
func (h *acpHarness) run(t Turn) ([]Event, error) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if t.Dir == "" {
		t.Dir = h.dir
	}
	var evs []Event
	err := h.a.Run(ctx, t, h.emitter(&evs))
	return evs, err
}

func (h *acpHarness) turn(thread, prompt string, atts ...Attachment) ([]Event, error) {
	h.t.Helper()
	return h.run(Turn{ThreadID: thread, Prompt: prompt, Attachments: atts})
}

func (h *acpHarness) mustTurn(thread, prompt string, atts ...Attachment) []Event {
	h.t.Helper()
	evs, err := h.turn(thread, prompt, atts...)
	if err != nil {
		h.t.Fatalf("turn %q: %v (events so far %v)", prompt, err, evs)
	}
	return evs
}

// acpText is the turn's answer text.
func acpText(evs []Event) string {
	var b strings.Builder
	for _, e := range evs {
		if d, ok := e.(TextDelta); ok {
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

func acpOf[T Event](evs []Event) []T {
	var out []T
	for _, e := range evs {
		if x, ok := e.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

// events reads the fake agent's log, the events named ev (all if "").
func (h *acpHarness) events(ev string) []map[string]any {
	h.t.Helper()
	f, err := os.Open(h.log)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		h.t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			h.t.Fatalf("bad log line %q: %v", sc.Text(), err)
		}
		if ev == "" || m["ev"] == ev {
			out = append(out, m)
		}
	}
	return out
}

// event is the last logged event named ev; the fake agent logs before it
// answers, so anything a finished turn caused is there.
func (h *acpHarness) event(ev string) map[string]any {
	h.t.Helper()
	if e := h.events(ev); len(e) > 0 {
		return e[len(e)-1]
	}
	h.t.Fatalf("the agent never logged %q; log: %v", ev, h.events(""))
	return nil
}

// waitEvent polls the log until an event named ev shows up (for what the
// agent logs after the turn returned: a cancelled prompt).
func (h *acpHarness) waitEvent(ev string) map[string]any {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if e := h.events(ev); len(e) > 0 {
			return e[len(e)-1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.t.Fatalf("the agent never logged %q; log: %v", ev, h.events(""))
	return nil
}

func acpBlocksOf(e map[string]any) []map[string]any {
	var out []map[string]any
	list, _ := e["blocks"].([]any)
	for _, b := range list {
		out = append(out, b.(map[string]any))
	}
	return out
}

func acpWriteFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// --- tests ---

func TestACPSessionUpdatesBecomeEvents(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	if got := h.a.Name(); got != "acp:"+filepath.Base(os.Args[0]) {
		t.Errorf("Name() = %q", got)
	}
	evs := h.mustTurn("t1", "hi")
	if got := acpText(evs); got != "Hello world\n\nDone." {
		t.Errorf("text = %q", got)
	}
	if th := acpOf[ThoughtDelta](evs); len(th) != 1 || th[0].Text != "thinking hard" {
		t.Errorf("thoughts = %v", th)
	}
	calls := acpOf[ToolCall](evs)
	if len(calls) != 2 {
		t.Fatalf("tool calls = %+v, want call_2 and the unseen call_late", calls)
	}
	// Updates waiting to be emitted join the event queued for their call
	// (acpTurn.push), so how many there are depends on timing: the calls
	// are checked as the events leave them.
	tools := acpFoldTools(evs)
	c := tools["call_2"]
	if calls[0].Tool.CallID != "call_2" || c.Kind != "read" || c.Title != "Read main.go" || c.Status != "completed" ||
		len(c.Locations) != 1 || c.Locations[0] != (message.Location{Path: "/project/main.go", Line: 3}) || string(c.RawInput) != `{"path":"main.go"}` ||
		len(c.Content) != 1 || c.Content[0] != (message.ToolContent{Type: "text", Text: "file body"}) {
		t.Errorf("tool call = %+v (the title is updated in place)", c)
	}
	if l := tools["call_late"]; calls[1].Tool.CallID != "call_late" || l.Title != "Unseen" || l.Status != "failed" {
		t.Errorf("an update for an unseen call = %+v, want a ToolCall with its fields", l)
	}
	plans := acpOf[Plan](evs)
	if len(plans) != 1 || len(plans[0].Entries) != 2 || plans[0].Entries[1] != (message.PlanEntry{Content: "step two", Priority: "medium", Status: "in_progress"}) {
		t.Errorf("plan = %+v", plans)
	}
	us := acpOf[Usage](evs)
	if len(us) != 2 || us[0] != (Usage{ContextUsed: 1200, ContextSize: 200000, Cost: 0.0123, Currency: "USD"}) || us[1] != (Usage{InputTokens: 11, OutputTokens: 22}) {
		t.Errorf("usage = %+v", us)
	}
	if len(acpOf[Notice](evs)) != 0 {
		t.Errorf("notices on a normal turn: %v", acpOf[Notice](evs))
	}
	// Nothing is flattened into the text any more.
	if strings.Contains(acpText(evs), "tool") || strings.Contains(acpText(evs), "thinking") {
		t.Errorf("status lines in the text: %q", acpText(evs))
	}
	// session/new ran in the project directory, and was reported.
	if e := h.event("new"); e["cwd"] != h.dir {
		t.Errorf("session cwd = %v, want %s", e["cwd"], h.dir)
	}
	ss := acpOf[SessionStarted](evs)
	if len(ss) != 1 || ss[0].ID != h.a.SessionID("t1") || ss[0].ID == "" {
		t.Errorf("SessionStarted = %v, session %q", ss, h.a.SessionID("t1"))
	}
	// The client capabilities.
	caps, _ := json.Marshal(h.event("initialize")["caps"])
	for _, want := range []string{`"readTextFile":true`, `"writeTextFile":true`, `"terminal":true`} {
		if !strings.Contains(string(caps), want) {
			t.Errorf("client capabilities %s lack %s", caps, want)
		}
	}
	// A second turn in the same session reports no new session.
	if evs := h.mustTurn("t1", "again"); len(acpOf[SessionStarted](evs)) != 0 {
		t.Errorf("second turn reported a session again")
	}
}

func TestACPModesConfigAndCommands(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	evs := h.mustTurn("a", "hi")
	modes := acpOf[Modes](evs)
	if len(modes) == 0 || modes[0].Current != "default" || len(modes[0].Available) != 2 || modes[0].Available[0] != (Mode{ID: "default", Name: "Default", Description: "asks before edits"}) {
		t.Fatalf("modes = %+v", modes)
	}
	cfg := acpOf[ConfigOptions](evs)
	if len(cfg) == 0 {
		t.Fatal("no ConfigOptions")
	}
	opts := cfg[len(cfg)-1].Options
	if len(opts) != 3 {
		t.Fatalf("options = %+v, want effort, web and the models", opts)
	}
	if o := opts[0]; o.ID != "effort" || o.Category != "thought_level" || o.Current != "low" || len(o.Values) != 2 || o.Values[1] != (ConfigValue{ID: "high", Name: "High"}) {
		t.Errorf("effort = %+v", o)
	}
	if o := opts[1]; o.ID != "web" || o.Current != "false" || len(o.Values) != 2 {
		t.Errorf("web = %+v", o)
	}
	if o := opts[2]; o.ID != ACPModelOption || o.Category != "model" || o.Current != "small" || len(o.Values) != 2 || o.Values[1].ID != "big" {
		t.Errorf("models = %+v", o)
	}
	// The commands come after session/new's answer; they are in this turn
	// or, at the latest, the next.
	cmds := acpOf[Commands](evs)
	if len(cmds) == 0 {
		cmds = acpOf[Commands](h.mustTurn("a", "hi"))
	}
	if len(cmds) != 1 || len(cmds[0].Commands) != 2 || cmds[0].Commands[1] != (Command{Name: "search", Description: "search the web", InputHint: "query"}) {
		t.Fatalf("commands = %+v", cmds)
	}

	ctx := context.Background()
	if err := h.a.SetMode(ctx, "a", "plan"); err != nil {
		t.Fatal(err)
	}
	if e := h.event("set-mode"); e["mode"] != "plan" || e["session"] != h.a.SessionID("a") {
		t.Errorf("set-mode = %v", e)
	}
	if err := h.a.SetConfigOption(ctx, "a", "effort", "high"); err != nil {
		t.Fatal(err)
	}
	if e := h.event("set-config"); !strings.Contains(e["req"].(string), `"configId":"effort"`) || !strings.Contains(e["req"].(string), `"value":"high"`) {
		t.Errorf("set-config = %v", e)
	}
	if err := h.a.SetConfigOption(ctx, "a", "web", "true"); err != nil {
		t.Fatal(err)
	}
	if e := h.event("set-config"); !strings.Contains(e["req"].(string), `"type":"boolean"`) || !strings.Contains(e["req"].(string), `"value":true`) {
		t.Errorf("boolean set-config = %v", e)
	}
	if err := h.a.SetConfigOption(ctx, "a", "web", "maybe"); err == nil {
		t.Error("a boolean option took \"maybe\"")
	}
	if err := h.a.SetConfigOption(ctx, "a", ACPModelOption, "big"); err != nil {
		t.Fatal(err)
	}
	if e := h.event("set-model"); e["model"] != "big" {
		t.Errorf("set-model = %v", e)
	}
	// The state between turns, and in the next turn.
	var st ConfigOptions
	var sm Modes
	for _, e := range h.a.SessionState("a") {
		switch e := e.(type) {
		case ConfigOptions:
			st = e
		case Modes:
			sm = e
		}
	}
	if sm.Current != "plan" || len(st.Options) != 3 || st.Options[0].Current != "high" || st.Options[1].Current != "true" || st.Options[2].Current != "big" {
		t.Errorf("SessionState: modes %+v, options %+v", sm, st.Options)
	}
	evs = h.mustTurn("a", "hi")
	if m := acpOf[Modes](evs); len(m) != 1 || m[0].Current != "plan" {
		t.Errorf("next turn's modes = %+v", m)
	}
	// A mode set before the thread has a session is applied when it starts.
	if err := h.a.SetMode(ctx, "b", "plan"); err != nil {
		t.Fatal(err)
	}
	h.mustTurn("b", "hi")
	if e := h.event("set-mode"); e["session"] != h.a.SessionID("b") {
		t.Errorf("pending mode went to %v, want b's session %s", e["session"], h.a.SessionID("b"))
	}
}

func TestACPPromptBlocksNameAttachments(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	png := []byte("\x89PNG\r\n\x1a\nfake image bytes")
	img := acpWriteFile(t, "268e8f0aa.bin", png)
	txt := acpWriteFile(t, "9b1c2d.bin", []byte("# Notes\nhello file\n"))
	bin := acpWriteFile(t, "77aa.bin", []byte{0, 1, 2, 0xff})
	atts := []Attachment{
		{ContextID: "img1", Name: "shot.png", MimeType: "image/png", Path: img, Size: int64(len(png))},
		{ContextID: "f1", Name: "notes.md", MimeType: "text/markdown", Path: txt},
		{ContextID: "f2", Name: "dir/data.bin", MimeType: "application/octet-stream", Path: bin},
		{ContextID: "f3", Name: "gone.txt", MimeType: "text/plain"}, // no bytes: left to the projection
	}
	h.mustTurn("t1", "look [image](t3-context://v1/image/img1)", atts...)
	blocks := acpBlocksOf(h.event("prompt"))
	if len(blocks) != 4 {
		t.Fatalf("blocks = %v, want text, image, 2 resources", blocks)
	}
	if blocks[0]["type"] != "text" || blocks[0]["text"] != "look [image](t3-context://v1/image/img1)" {
		t.Errorf("first block = %v, want the projected prompt", blocks[0])
	}
	if blocks[1]["type"] != "image" || blocks[1]["mime"] != "image/png" || blocks[1]["data"] != base64.StdEncoding.EncodeToString(png) ||
		blocks[1]["uri"] != "chipchat://attachment/img1/shot.png" {
		t.Errorf("image block = %v", blocks[1])
	}
	if blocks[2]["type"] != "resource" || blocks[2]["text"] != "# Notes\nhello file\n" || blocks[2]["uri"] != "chipchat://attachment/f1/notes.md" {
		t.Errorf("text resource = %v", blocks[2])
	}
	if blocks[3]["type"] != "resource" || blocks[3]["blob"] != base64.StdEncoding.EncodeToString([]byte{0, 1, 2, 0xff}) || blocks[3]["uri"] != "chipchat://attachment/f2/data.bin" {
		t.Errorf("blob resource = %v", blocks[3])
	}
	for _, b := range blocks {
		if u, _ := b["uri"].(string); strings.Contains(u, ".bin") && !strings.HasSuffix(u, "data.bin") {
			t.Errorf("a block is named by the path of its bytes: %v", b)
		}
	}
}

func TestACPAttachmentsOverTheLimitAreRefused(t *testing.T) {
	h := newACPHarness(t, ACPOptions{MaxAttachment: 10})
	big := acpWriteFile(t, "blob", []byte("more than ten bytes"))
	atts := []Attachment{{ContextID: "f1", Name: "big.log", MimeType: "text/plain", Path: big}}
	if err := ACPCheckAttachments(atts, 10); err == nil || !strings.Contains(err.Error(), "big.log") {
		t.Errorf("ACPCheckAttachments = %v, want big.log refused", err)
	}
	if err := h.a.CheckAttachments(atts); err == nil {
		t.Error("CheckAttachments took it")
	}
	if err := ACPCheckAttachments(atts, 100); err != nil {
		t.Errorf("under the limit: %v", err)
	}
	if err := ACPCheckAttachments([]Attachment{{Name: "x", Size: ACPDefaultMaxAttachment + 1}}, 0); err == nil {
		t.Error("the default limit took a larger attachment")
	}
	if _, err := h.turn("t1", "look", atts...); err == nil || !strings.Contains(err.Error(), "big.log") {
		t.Errorf("Run = %v, want the attachment refused", err)
	}
	if len(h.events("prompt")) != 0 || len(h.events("initialize")) != 0 {
		t.Errorf("something was sent: %v", h.events(""))
	}
}

func TestACPWithoutCapabilities(t *testing.T) {
	h := newACPHarness(t, ACPOptions{MCPServers: []MCPServer{{Name: "web", URL: "http://127.0.0.1:1/mcp"}}}, "CHIPCHAT_ACP_CAPS=none")
	img := acpWriteFile(t, "a1", []byte("png"))
	txt := acpWriteFile(t, "a2", []byte("notes"))
	evs, err := h.run(Turn{ThreadID: "t1", Prompt: "look", SessionID: "sess-from-before",
		Attachments: []Attachment{{ContextID: "i", Name: "shot.png", MimeType: "image/png", Path: img}, {ContextID: "f", Name: "notes.txt", MimeType: "text/plain", Path: txt, Size: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	blocks := acpBlocksOf(h.event("prompt"))
	if len(blocks) != 2 || blocks[0]["type"] != "text" || blocks[1]["type"] != "link" || blocks[1]["name"] != "notes.txt" || blocks[1]["uri"] != "chipchat://attachment/f/notes.txt" {
		t.Errorf("blocks = %v, want the text and a link named notes.txt", blocks)
	}
	if len(h.events("load")) != 0 {
		t.Errorf("session/load used though the agent does not advertise it")
	}
	notes := fmt.Sprint(acpOf[Notice](evs))
	for _, want := range []string{"cannot resume", "takes no images: shot.png", "no HTTP MCP servers; web"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notices %s lack %q", notes, want)
		}
	}
	ss := acpOf[SessionStarted](evs)
	if want := h.event("new")["session"]; len(ss) != 1 || ss[0].ID != want {
		t.Errorf("SessionStarted = %v, want the new session %v", ss, want)
	}
}

func TestACPSessionPerThread(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "one")
	h.mustTurn("a", "two")
	h.mustTurn("b", "three")
	news := h.events("new")
	if len(news) != 2 {
		t.Fatalf("%d sessions created, want 2 (one per thread): %v", len(news), news)
	}
	prompts := h.events("prompt")
	if len(prompts) != 3 || prompts[0]["session"] != prompts[1]["session"] || prompts[2]["session"] == prompts[0]["session"] {
		t.Fatalf("prompts went to %v", prompts)
	}
	if len(h.events("initialize")) != 1 {
		t.Errorf("the agent was started more than once")
	}
}

func TestACPLoadDropsReplayBeforeTheAnswer(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	// The fake answers load only after it replayed: nothing to wait for.
	h.a.quietAfter = func(time.Duration) <-chan time.Time {
		c := make(chan time.Time)
		close(c)
		return c
	}
	evs, err := h.run(Turn{ThreadID: "a", Prompt: "again", SessionID: "sess-stored"})
	if err != nil {
		t.Fatal(err)
	}
	h.mustTurn("a", "and again")
	loads := h.events("load")
	if len(loads) != 1 || loads[0]["session"] != "sess-stored" || loads[0]["cwd"] != h.dir {
		t.Errorf("loads = %v, want one load of sess-stored in %s", loads, h.dir)
	}
	if len(h.events("new")) != 0 || len(acpOf[SessionStarted](evs)) != 0 {
		t.Errorf("a new session was made though the stored one loaded")
	}
	acpNoReplay(t, evs)
	if m := acpOf[Modes](evs); len(m) != 1 || m[0].Current != "plan" {
		t.Errorf("modes from session/load = %+v", m)
	}
}

// acpNoReplay fails if anything of the fake agent's replayed history is in
// the turn's events.
func acpNoReplay(t *testing.T, evs []Event) {
	t.Helper()
	if !strings.Contains(acpText(evs), "Hello world") {
		t.Errorf("the turn's own answer is missing: %q", acpText(evs))
	}
	if s := fmt.Sprintf("%+v", evs); strings.Contains(s, "old ") || strings.Contains(s, "Old tool") {
		t.Errorf("the replayed history leaked into the turn: %s", s)
	}
}

func TestACPLoadDropsReplayAfterTheAnswer(t *testing.T) {
	// Gemini CLI answers session/load, then replays. The quiet window ends
	// here only once the whole replay has been dropped.
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_REPLAY=after")
	var mu sync.Mutex
	dropped := 0
	quiet := make(chan time.Time)
	var once sync.Once
	h.a.dropped = func(string) {
		mu.Lock()
		dropped++
		n := dropped
		mu.Unlock()
		if n == 4 {
			once.Do(func() { close(quiet) })
		}
	}
	h.a.quietAfter = func(time.Duration) <-chan time.Time { return quiet }
	evs, err := h.run(Turn{ThreadID: "a", Prompt: "again", SessionID: "sess-stored"})
	if err != nil {
		t.Fatal(err)
	}
	acpNoReplay(t, evs)
	mu.Lock()
	defer mu.Unlock()
	if dropped != 4 {
		t.Errorf("%d updates dropped, want the 4 of the replay", dropped)
	}
}

func TestACPLoadQuietWindow(t *testing.T) {
	// The real clock: the replay after the answer is dropped by the default
	// window, and the turn still goes through.
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_REPLAY=after")
	evs, err := h.run(Turn{ThreadID: "a", Prompt: "again", SessionID: "sess-stored"})
	if err != nil {
		t.Fatal(err)
	}
	acpNoReplay(t, evs)
}

func TestACPPermissionEvent(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	var asked []Permission
	h.permission = func(p Permission) PermissionAnswer {
		asked = append(asked, p)
		return PermissionAnswer{OptionID: "allow", Outcome: "selected"}
	}
	evs := h.mustTurn("a", "do it [permission]")
	if len(asked) != 1 {
		t.Fatalf("%d permission events, want 1", len(asked))
	}
	p := asked[0]
	if p.Request.ToolCallID != "call_1" || p.Request.Asked != "Edit config.json" {
		t.Errorf("request = %+v", p.Request)
	}
	var kinds []string
	for _, o := range p.Request.Options {
		kinds = append(kinds, o.ID+"/"+o.Kind+"/"+o.Name)
	}
	if got := strings.Join(kinds, ", "); got != "always/allow_always/Always allow, allow/allow_once/Allow once, reject/reject_once/Reject, never/reject_always/Never" {
		t.Errorf("options = %s", got)
	}
	// The tool as known when asked: the title, kind and diff from the
	// request (the SDK handles a request concurrently with the
	// notifications before it, so the tool_call may not be in yet).
	tool := p.Tool
	if tool.Kind != "edit" || tool.Title != "Edit config.json" || len(tool.Content) != 1 {
		t.Fatalf("tool = %+v", tool)
	}
	d := tool.Content[0]
	if d.Type != "diff" || d.Path != "/project/config.json" || d.OldText == nil || *d.OldText != "{\"a\": 1}\n" || d.NewText != "{\"a\": 2}\n" {
		t.Errorf("diff = %+v", d)
	}
	if e := h.event("permission"); e["outcome"] != "allow" {
		t.Errorf("the agent received %v, want allow", e["outcome"])
	}
	// The request's tool call updated the tool item before the question.
	var sawUpdate bool
	for _, e := range evs {
		if u, ok := e.(ToolUpdate); ok && u.CallID == "call_1" && len(u.Content) == 1 && u.Content[0].Type == "diff" {
			sawUpdate = true
		}
		if c, ok := e.(ToolCall); ok && c.Tool.CallID == "call_1" && len(c.Tool.Content) == 1 && c.Tool.Content[0].Type == "diff" {
			sawUpdate = true
		}
		if _, ok := e.(Permission); ok && !sawUpdate {
			t.Error("the Permission came before the tool item had the diff")
		}
	}
	if !strings.Contains(acpText(evs), "chose allow") {
		t.Errorf("text = %q", acpText(evs))
	}
}

func TestACPPermissionRejected(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.permission = func(Permission) PermissionAnswer { return PermissionAnswer{Outcome: "rejected"} }
	h.mustTurn("a", "[permission]")
	if e := h.event("permission"); e["outcome"] != "reject" {
		t.Errorf("rejected → %v, want the agent's reject_once", e["outcome"])
	}
	h.mustTurn("a", "[reject-always]")
	if e := h.event("permission"); e["outcome"] != "never" {
		t.Errorf("rejected → %v, want reject_always when there is no reject_once", e["outcome"])
	}
	h.permission = func(Permission) PermissionAnswer { return PermissionAnswer{Outcome: "cancelled"} }
	h.mustTurn("a", "[permission]")
	if e := h.event("permission"); e["outcome"] != "cancelled" {
		t.Errorf("cancelled → %v", e["outcome"])
	}
	if got := acpReject([]acp.PermissionOption{{Kind: acp.PermissionOptionKindAllowOnce, OptionId: "x"}}); got.Outcome.Cancelled == nil {
		t.Errorf("no reject option: %+v, want cancelled", got)
	}
}

func TestACPCancelWhileAskingPermission(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	asking := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- h.a.Run(ctx, Turn{ThreadID: "a", Prompt: "[permission]", Dir: h.dir}, func(e Event) {
			if _, ok := e.(Permission); ok {
				close(asking) // and never answer
			}
		})
	}()
	select {
	case <-asking:
	case <-time.After(10 * time.Second):
		t.Fatal("no Permission event")
	}
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
	if e := h.waitEvent("permission"); e["outcome"] != "cancelled" {
		t.Errorf("the agent received %v, want cancelled", e["outcome"])
	}
	h.waitEvent("cancel")
}

func TestACPStopReasons(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	evs := h.mustTurn("a", "[max]")
	if n := acpOf[Notice](evs); len(n) != 1 || !strings.Contains(n[0].Text, "token limit") {
		t.Errorf("max_tokens notices = %v", n)
	}
	evs, err := h.turn("a", "[agent-cancel]")
	if err != nil {
		t.Errorf("the agent stopping with cancelled unasked is an error: %v", err)
	}
	if n := acpOf[Notice](evs); len(n) != 1 || !strings.Contains(n[0].Text, "stopped the turn") {
		t.Errorf("cancelled notices = %v", n)
	}
}

func TestACPCancel(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "warm up")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 16)
	errc := make(chan error, 1)
	go func() {
		errc <- h.a.Run(ctx, Turn{ThreadID: "a", Prompt: "[wait]", Dir: h.dir}, func(e Event) {
			if d, ok := e.(TextDelta); ok {
				got <- d.Text
			}
		})
	}()
	select {
	case s := <-got:
		if s != "waiting" {
			t.Fatalf("first chunk %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no chunk from the waiting prompt")
	}
	start := time.Now()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("cancel took %v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	sid := h.a.SessionID("a")
	if e := h.waitEvent("cancel"); e["session"] != sid {
		t.Errorf("session/cancel for %v, want %s", e["session"], sid)
	}
	h.waitEvent("prompt-cancelled")
	if evs := h.mustTurn("a", "after"); !strings.Contains(acpText(evs), "Hello world") {
		t.Errorf("turn after cancel: %q", acpText(evs))
	}
	if n := len(h.events("new")); n != 1 {
		t.Errorf("%d sessions, want 1", n)
	}
}

func TestACPCancelGraceWhenAgentIgnoresCancel(t *testing.T) {
	h := newACPHarness(t, ACPOptions{CancelGrace: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan struct{}, 16)
	errc := make(chan error, 1)
	go func() {
		errc <- h.a.Run(ctx, Turn{ThreadID: "a", Prompt: "[hang]", Dir: h.dir}, func(e Event) {
			if _, ok := e.(TextDelta); ok {
				got <- struct{}{}
			}
		})
	}()
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("no chunk from the hanging prompt")
	}
	start := time.Now()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
		if d := time.Since(start); d < 150*time.Millisecond || d > 2*time.Second {
			t.Errorf("returned after %v, want about the 200ms grace", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after the grace period")
	}
	h.waitEvent("cancel")
	if evs := h.mustTurn("b", "hi"); !strings.Contains(acpText(evs), "Hello world") {
		t.Errorf("other thread: %q", acpText(evs))
	}
}

func TestACPSignInAgentMethod(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_AUTH=1")
	var asked []SignIn
	h.signIn = func(s SignIn) Answer {
		asked = append(asked, s)
		return Answer{OptionID: "key"}
	}
	evs := h.mustTurn("a", "hi")
	if !strings.Contains(acpText(evs), "Hello world") {
		t.Errorf("text %q", acpText(evs))
	}
	if len(asked) != 1 {
		t.Fatalf("%d sign-in questions, want 1", len(asked))
	}
	q := asked[0].Question
	if q.Kind != QuestionAuth || q.Title != "Sign in to Fake Agent" || len(q.Options) != 4 {
		t.Fatalf("question = %+v", q)
	}
	if o := q.Options[0]; o.ID != "key" || o.Label != "Login with Fake" || o.Kind != AuthAgent || o.Description != "opens a browser" {
		t.Errorf("agent method = %+v", o)
	}
	if o := q.Options[1]; o.Kind != AuthEnvVar || len(o.EnvVars) != 1 || o.EnvVars[0] != (AuthVariable{Name: "FAKE_KEY", Secret: true}) {
		t.Errorf("env method = %+v", o)
	}
	if !strings.Contains(q.Detail, "opens a browser") || !strings.Contains(q.Detail, "set FAKE_KEY") {
		t.Errorf("detail = %q", q.Detail)
	}
	o := q.Options[2]
	if o.Kind != AuthTerminal || o.Terminal == nil || o.Terminal.Command != "sh" || len(o.Terminal.Args) != 2 ||
		!strings.HasSuffix(o.Terminal.Args[1], " --login") || !strings.Contains(strings.Join(o.Terminal.Env, " "), "FAKE_LOGIN=1") {
		t.Errorf("terminal method = %+v %+v", o, o.Terminal)
	}
	// A method that waits says so before the agent authenticates.
	if n := acpOf[Notice](evs); len(n) != 1 || !strings.Contains(n[0].Text, "browser") || !strings.Contains(n[0].Text, "esc") {
		t.Errorf("notices = %v", n)
	}
	if e := h.event("authenticate"); e["method"] != "key" {
		t.Errorf("authenticated with %v", e["method"])
	}
	h.mustTurn("b", "hi")
	if len(asked) != 1 {
		t.Errorf("asked again for the second thread")
	}
}

func TestACPSignInEnvAndTerminalMethods(t *testing.T) {
	authFile := filepath.Join(t.TempDir(), "logged-in")
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_AUTH=1", "CHIPCHAT_ACP_AUTHFILE="+authFile)
	// An env-var method without values fails, naming the variable.
	h.signIn = func(SignIn) Answer { return Answer{OptionID: "env"} }
	if _, err := h.turn("a", "hi"); err == nil || !strings.Contains(err.Error(), "FAKE_KEY") {
		t.Errorf("env method without a value: %v", err)
	}
	// With values, the agent is started again with them.
	h.signIn = func(SignIn) Answer { return Answer{OptionID: "env", Env: []string{"FAKE_KEY=secret"}} }
	if evs := h.mustTurn("a", "hi"); !strings.Contains(acpText(evs), "Hello world") {
		t.Errorf("after the env sign-in: %q", acpText(evs))
	}
	if n := len(h.events("initialize")); n != 2 {
		t.Errorf("%d agent starts, want 2 (restarted with the key)", n)
	}
	if e := h.event("authenticate"); e["method"] != "env" {
		t.Errorf("after the restart, authenticated with %v, want the env method", e["method"])
	}

	// A terminal method: the UI runs the login, then answers.
	h2 := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_AUTH=1", "CHIPCHAT_ACP_AUTHFILE="+authFile)
	h2.signIn = func(s SignIn) Answer {
		if err := os.WriteFile(authFile, nil, 0o644); err != nil {
			t.Error(err)
		}
		return Answer{OptionID: "term"}
	}
	if evs := h2.mustTurn("a", "hi"); !strings.Contains(acpText(evs), "Hello world") {
		t.Errorf("after the terminal sign-in: %q", acpText(evs))
	}
	if len(h2.events("authenticate")) != 0 {
		t.Error("authenticate called for a terminal method")
	}
	// Dismissed.
	h3 := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_AUTH=1")
	if _, err := h3.turn("a", "hi"); err == nil || !strings.Contains(err.Error(), "dismissed") {
		t.Errorf("dismissed sign-in: %v", err)
	}
}

func TestACPAgentThatCannotStart(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_DIE=1")
	_, err := h.turn("a", "hi")
	var ae *Error
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v (%T), want an *Error", err, err)
	}
	if !strings.Contains(ae.StderrTail, "IS_SANDBOX=1") || !strings.Contains(ae.StderrTail, "starting fake agent") {
		t.Errorf("StderrTail = %q", ae.StderrTail)
	}
	if !strings.Contains(err.Error(), "IS_SANDBOX=1") || !strings.Contains(err.Error(), "exit status 1") {
		t.Errorf("error = %v, want the exit status and the agent's reason", err)
	}
}

func TestACPAgentCrashRestartsAndResumes(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "hi")
	sid := h.a.SessionID("a")
	_, err := h.turn("a", "[crash]")
	var ae *Error
	if !errors.As(err, &ae) || !strings.Contains(ae.StderrTail, "boom") || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v, want an *Error with the agent's stderr", err)
	}
	h.a.quietAfter = func(time.Duration) <-chan time.Time {
		c := make(chan time.Time)
		close(c)
		return c
	}
	evs := h.mustTurn("a", "hi again")
	acpNoReplay(t, evs)
	if n := len(h.events("initialize")); n != 2 {
		t.Errorf("%d agent starts, want 2", n)
	}
	if loads := h.events("load"); len(loads) != 1 || loads[0]["session"] != sid {
		t.Errorf("loads = %v, want the thread's session %s resumed", loads, sid)
	}
}

func TestACPMCPServers(t *testing.T) {
	servers := []MCPServer{
		{Name: "chipchat", Command: "/usr/bin/chipchat", Args: []string{"mcp"}, Env: []string{"CHIPCHAT_SOCKET=/run/x.sock"}},
		{Name: "docs", URL: "http://127.0.0.1:9/mcp", Headers: []string{"Authorization: Bearer t"}},
		{Name: "bare", Command: "srv"},
	}
	h := newACPHarness(t, ACPOptions{MCPServers: servers})
	h.mustTurn("a", "hi")
	got := h.event("new")["mcp"].(string)
	want := `[{"args":["mcp"],"command":"/usr/bin/chipchat","env":[{"name":"CHIPCHAT_SOCKET","value":"/run/x.sock"}],"name":"chipchat"},` +
		`{"headers":[{"name":"Authorization","value":"Bearer t"}],"name":"docs","type":"http","url":"http://127.0.0.1:9/mcp"},` +
		`{"args":[],"command":"srv","env":[],"name":"bare"}]`
	if got != want {
		t.Errorf("mcpServers in session/new =\n%s\nwant\n%s", got, want)
	}
	h.a.quietAfter = func(time.Duration) <-chan time.Time {
		c := make(chan time.Time)
		close(c)
		return c
	}
	h.mustTurn("b", "hi")
	if _, err := h.run(Turn{ThreadID: "c", Prompt: "hi", SessionID: "sess-old"}); err != nil {
		t.Fatal(err)
	}
	if got := h.event("load")["mcp"]; got != want {
		t.Errorf("mcpServers in session/load = %v", got)
	}
}

func TestACPFileSystem(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	if err := os.WriteFile(filepath.Join(h.dir, "in.txt"), []byte("one\ntwo\nthree\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(h.dir, "escape")); err != nil {
		t.Fatal(err)
	}
	evs := h.mustTurn("a", "[fs]")
	if e := h.event("read"); e["content"] != "two\n" || e["err"] != "<nil>" {
		t.Errorf("read line 2, limit 1 = %v", e)
	}
	if e := h.event("write"); e["err"] != "<nil>" {
		t.Errorf("write = %v", e)
	}
	if b, _ := os.ReadFile(filepath.Join(h.dir, "in.txt")); string(b) != "one\nTWO\n" {
		t.Errorf("in.txt = %q", b)
	}
	if fi, _ := os.Stat(filepath.Join(h.dir, "in.txt")); fi.Mode().Perm() != 0o600 {
		t.Errorf("the write changed the file's mode to %v", fi.Mode())
	}
	if b, _ := os.ReadFile(filepath.Join(h.dir, "sub", "new.txt")); string(b) != "fresh\n" {
		t.Errorf("new file = %q", b)
	}
	if e := h.event("read-outside"); !strings.Contains(e["err"].(string), "outside the project") {
		t.Errorf("read outside = %v", e)
	}
	if e := h.event("write-symlink"); !strings.Contains(e["err"].(string), "outside the project") {
		t.Errorf("write through a symlink out of the project = %v", e)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.txt")); err == nil {
		t.Error("a file was written outside the project")
	}
	if e := h.event("read-missing"); !strings.Contains(e["err"].(string), "Resource not found") {
		t.Errorf("read missing = %v", e)
	}
	// The writes are diff items.
	var diffs []message.ToolContent
	for _, c := range acpOf[ToolCall](evs) {
		if c.Tool.Kind == "edit" && c.Tool.Status == "completed" && len(c.Tool.Content) == 1 {
			diffs = append(diffs, c.Tool.Content[0])
		}
	}
	if len(diffs) != 2 {
		t.Fatalf("diff items = %+v", acpOf[ToolCall](evs))
	}
	if d := diffs[0]; d.Type != "diff" || d.OldText == nil || *d.OldText != "one\ntwo\nthree\n" || d.NewText != "one\nTWO\n" {
		t.Errorf("diff = %+v", d)
	}
	if d := diffs[1]; d.OldText != nil || d.NewText != "fresh\n" {
		t.Errorf("new file diff = %+v", d)
	}
	// An extra root is writable.
	h2 := newACPHarness(t, ACPOptions{Roots: []string{outside}})
	if _, err := acpResolve([]string{h2.dir, outside}, filepath.Join(outside, "x.txt")); err != nil {
		t.Errorf("extra root refused: %v", err)
	}
	if _, err := acpResolve([]string{h2.dir}, "relative.txt"); err == nil {
		t.Error("a relative path was taken")
	}
}

func TestACPLines(t *testing.T) {
	s := "a\nb\nc"
	for _, c := range []struct {
		line, limit *int
		want        string
	}{
		{nil, nil, s}, {acp.Ptr(2), nil, "b\nc"}, {acp.Ptr(3), acp.Ptr(5), "c"}, {acp.Ptr(9), nil, ""},
		{nil, acp.Ptr(1), "a\n"}, {acp.Ptr(1), acp.Ptr(0), ""}, {acp.Ptr(0), acp.Ptr(2), "a\nb\n"},
	} {
		if got := acpLines(s, c.line, c.limit); got != c.want {
			t.Errorf("acpLines(%v, %v) = %q, want %q", c.line, c.limit, got, c.want)
		}
	}
}

func TestACPTerminalDefaultHost(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	evs := h.mustTurn("a", "[term]")
	e := h.event("term")
	if e["wait"] != "<nil>" || e["code"] != float64(7) || e["exited"] != true || e["release"] != "<nil>" {
		t.Fatalf("terminal = %v", e)
	}
	// 10 bytes kept, cut at a character boundary from the front.
	if e["output"] != "0123456789" || e["truncated"] != true {
		t.Errorf("output = %q truncated %v", e["output"], e["truncated"])
	}
	if !strings.Contains(e["afterRelease"].(string), "no terminal") {
		t.Errorf("output after release = %v", e["afterRelease"])
	}
	// The terminal is drawn in the call that runs it, with its command,
	// directory, output and exit code as the agent saw them.
	var last *message.TerminalState
	for _, u := range acpOf[ToolUpdate](evs) {
		if u.CallID == "call_t" && len(u.Content) == 1 && u.Content[0].Type == "terminal" && u.Content[0].TerminalID == e["id"] {
			last = u.Content[0].Terminal
		}
	}
	if last == nil || last.Command != "sh -c 'printf '\\''héllo wörld 0123456789'\\''; exit 7'" || last.Cwd != h.dir ||
		last.Output != "0123456789" || !last.Truncated || !last.Exited || last.ExitCode == nil || *last.ExitCode != 7 {
		t.Errorf("the terminal as drawn in call_t: %+v (updates %+v)", last, acpOf[ToolUpdate](evs))
	}
	for _, c := range acpOf[ToolCall](evs) {
		if strings.HasPrefix(c.Tool.CallID, "chipchat-term-") {
			t.Errorf("a terminal run for a call got its own item too: %+v", c.Tool)
		}
	}
	// Without a running call, the terminal is its own item, ended as the
	// command did.
	evs = h.mustTurn("a", "[kill]")
	if k := h.event("kill"); k["runningBefore"] != true || k["kill"] != "<nil>" || k["signal"] != "SIGKILL" {
		t.Errorf("kill = %v", k)
	}
	own := acpOf[ToolCall](evs)
	if len(own) != 1 || own[0].Tool.CallID != "chipchat-term-2" || own[0].Tool.Kind != "execute" || own[0].Tool.Title != "sleep 30" ||
		own[0].Tool.Status != message.ToolInProgress || own[0].Tool.Content[0].Terminal.Cwd != h.dir {
		t.Fatalf("the terminal's own item: %+v", own)
	}
	ups := acpOf[ToolUpdate](evs)
	if len(ups) == 0 || ups[len(ups)-1].Status == nil || *ups[len(ups)-1].Status != message.ToolFailed ||
		ups[len(ups)-1].Content[0].Terminal.Signal != "SIGKILL" {
		t.Errorf("the killed terminal's item: %+v", ups)
	}
}

// recordingHost is an injected TerminalHost.
type recordingHost struct {
	mu    sync.Mutex
	specs []TerminalSpec
}

func (r *recordingHost) Start(s TerminalSpec) (Terminal, error) {
	r.mu.Lock()
	r.specs = append(r.specs, s)
	r.mu.Unlock()
	return ExecTerminals{}.Start(s)
}

func TestACPTerminalInjectedHost(t *testing.T) {
	host := &recordingHost{}
	h := newACPHarness(t, ACPOptions{Terminals: host})
	h.mustTurn("a", "[term]")
	host.mu.Lock()
	defer host.mu.Unlock()
	if len(host.specs) != 1 {
		t.Fatalf("specs = %+v", host.specs)
	}
	s := host.specs[0]
	// The name is the running tool call's title once its tool_call has been
	// handled; the SDK handles terminal/create concurrently with the
	// notifications before it, so it may still be the command line.
	if s.Name != "Run printf" && s.Name != "sh -c printf 'héllo wörld 0123456789'; exit 7" {
		t.Errorf("name = %q", s.Name)
	}
	if s.Command != "sh" || len(s.Args) != 2 || s.Dir != h.dir || s.OutputLimit != 10 || s.ID != h.event("term")["id"] || s.SessionID != h.a.SessionID("a") {
		t.Errorf("spec = %+v", s)
	}
}

func TestTerminalBuffer(t *testing.T) {
	b := NewTerminalBuffer(4)
	b.Write([]byte("ab"))
	if s, tr := b.Output(); s != "ab" || tr {
		t.Errorf("%q %v", s, tr)
	}
	b.Write([]byte("cdé")) // "abcdé" is 6 bytes; the last 4 are "cdé"
	if s, tr := b.Output(); s != "cdé" || !tr {
		t.Errorf("%q %v, want the last 4 bytes from a character start", s, tr)
	}
	for i := 0; i < 100; i++ {
		b.Write([]byte("xyz"))
	}
	if s, tr := b.Output(); len(s) > 4 || !strings.HasSuffix(s, "z") || !tr {
		t.Errorf("%q %v", s, tr)
	}
	// A cut in the middle of a multi-byte character moves past it.
	b = NewTerminalBuffer(3)
	b.Write([]byte("a€")) // € is 3 bytes: the last 3 bytes are exactly €
	if s, _ := b.Output(); s != "€" {
		t.Errorf("%q", s)
	}
	b = NewTerminalBuffer(2)
	b.Write([]byte("a€"))
	if s, tr := b.Output(); s != "" || !tr {
		t.Errorf("%q %v: no whole character fits", s, tr)
	}
}

func TestACPCloseKillsTheAgent(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "hi")
	pid := int(h.event("initialize")["pid"].(float64))
	if err := h.a.Close(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for acpProcessAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("agent process %d still alive after Close", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := h.turn("a", "hi"); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("turn after Close: %v", err)
	}
}

func TestACPEmptyCommand(t *testing.T) {
	if _, err := NewACP("  ", ACPOptions{}); err == nil {
		t.Error("NewACP accepted an empty command")
	}
}

// acpProcessAlive reports whether pid runs (a zombie counts as dead).
func acpProcessAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

func TestACPToolCallAfterItsPermissionRequest(t *testing.T) {
	// The request came first and made the item; the late tool_call updates
	// it instead of starting a second one.
	turn := newACPTurn(context.Background())
	turn.mu.Lock()
	turn.updateTool(acp.ToolCallUpdate{ToolCallId: "c", Title: acp.Ptr("Edit x")})
	turn.mu.Unlock()
	turn.update(acp.StartToolCall("c", "Edit", acp.WithStartKind(acp.ToolKindEdit), acp.WithStartRawInput(map[string]any{"p": 1})))
	var evs []Event
	turn.flush(func(e Event) { evs = append(evs, e) })
	// The late tool_call's update joined the queued ToolCall.
	if len(evs) != 1 {
		t.Fatalf("events = %+v", evs)
	}
	c, ok := evs[0].(ToolCall)
	if !ok || c.Tool.Kind != "edit" || string(c.Tool.RawInput) != `{"p":1}` || c.Tool.Status != "pending" {
		t.Errorf("event = %+v, want one ToolCall with the kind and input", evs[0])
	}
	if tool := turn.tools["c"]; tool.Kind != "edit" || tool.Title != "Edit" {
		t.Errorf("tool = %+v", tool)
	}
}

func TestACPRawInputKeepsItsText(t *testing.T) {
	// A command's raw input reads as the agent wrote it: <, > and & are not
	// written as \u003c, \u003e, \u0026 (the prompt and the store show it).
	turn := newACPTurn(context.Background())
	turn.update(acp.StartToolCall("c", "Run", acp.WithStartRawInput(map[string]any{"command": "a && b <in >out"})))
	var evs []Event
	turn.flush(func(e Event) { evs = append(evs, e) })
	if c, ok := evs[0].(ToolCall); !ok || string(c.Tool.RawInput) != `{"command":"a && b <in >out"}` {
		t.Errorf("event = %+v", evs[0])
	}
	// Cut to its head and tail, it is still literal.
	long := json.RawMessage(`"` + strings.Repeat("<&>", 100) + `"`)
	if got := string(acpCapRaw(long, 200)); !strings.HasPrefix(got, `"\"<&><&>`) || strings.Contains(got, `\u00`) {
		t.Errorf("acpCapRaw = %s", got)
	}
}

func TestACPLoadFailsStartsANewSession(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	evs, err := h.run(Turn{ThreadID: "a", Prompt: "hi", SessionID: "sess-gone"})
	if err != nil {
		t.Fatal(err)
	}
	n := acpOf[Notice](evs)
	if len(n) != 1 || !strings.Contains(n[0].Text, "could not resume") || !strings.Contains(n[0].Text, "sess-gone") {
		t.Errorf("notices = %v", n)
	}
	ss := acpOf[SessionStarted](evs)
	if len(ss) != 1 || ss[0].ID == "sess-gone" || ss[0].ID != h.event("new")["session"] {
		t.Errorf("SessionStarted = %v, want the new session", ss)
	}
	if !strings.Contains(acpText(evs), "Hello world") {
		t.Errorf("text = %q", acpText(evs))
	}
}

func TestACPSignInStops(t *testing.T) {
	h := newACPHarness(t, ACPOptions{}, "CHIPCHAT_ACP_AUTH=1")
	// Unanswered: cancelling the turn ends it.
	ctx, cancel := context.WithCancel(context.Background())
	asked := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- h.a.Run(ctx, Turn{ThreadID: "a", Prompt: "hi", Dir: h.dir}, func(e Event) {
			if _, ok := e.(SignIn); ok {
				close(asked)
			}
		})
	}()
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("no SignIn event")
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v, want context.Canceled", err)
	}
	// A method that waits: its notice, then esc (cancel) stops it.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	go func() {
		errc <- h.a.Run(ctx, Turn{ThreadID: "a", Prompt: "hi", Dir: h.dir}, func(e Event) {
			switch e := e.(type) {
			case SignIn:
				e.Reply <- Answer{OptionID: "wait"}
			case Notice:
				if strings.Contains(e.Text, "esc stops it") {
					cancel()
				}
			}
		})
	}()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting sign-in did not stop")
	}
	h.waitEvent("authenticate-cancelled")
}

func TestACPPermissionLeftOpenByTheTurn(t *testing.T) {
	// The prompt ended with a question open and nobody answered it: the
	// agent gets an answer instead of waiting forever.
	h := newACPHarness(t, ACPOptions{})
	ctx := context.Background()
	if err := h.a.Run(ctx, Turn{ThreadID: "a", Prompt: "[ask-and-end]", Dir: h.dir}, func(Event) {}); err != nil {
		t.Fatal(err)
	}
	if e := h.waitEvent("permission"); e["outcome"] != "cancelled" && e["outcome"] != "reject" {
		t.Errorf("the agent received %v, want cancelled (or reject, if asked after the turn)", e["outcome"])
	}
}

func TestACPSettingWhileTheAgentIsDown(t *testing.T) {
	h := newACPHarness(t, ACPOptions{})
	h.mustTurn("a", "hi")
	if _, err := h.turn("a", "[crash]"); err == nil {
		t.Fatal("no error from the crash")
	}
	// The agent is down: the settings wait for the session, and the state
	// already shows them.
	ctx := context.Background()
	if err := h.a.SetMode(ctx, "a", "plan"); err != nil {
		t.Fatal(err)
	}
	if err := h.a.SetConfigOption(ctx, "a", "effort", "high"); err != nil {
		t.Fatal(err)
	}
	var modes Modes
	var opts ConfigOptions
	for _, e := range h.a.SessionState("a") {
		switch e := e.(type) {
		case Modes:
			modes = e
		case ConfigOptions:
			opts = e
		}
	}
	if modes.Current != "plan" || len(opts.Options) == 0 || opts.Options[0].Current != "high" {
		t.Errorf("state while down: %+v %+v", modes, opts)
	}
	if len(h.events("set-mode")) != 0 {
		t.Fatal("set_mode sent to a dead agent")
	}
	h.a.quietAfter = func(time.Duration) <-chan time.Time {
		c := make(chan time.Time)
		close(c)
		return c
	}
	h.mustTurn("a", "hi again")
	if e := h.event("set-mode"); e["mode"] != "plan" {
		t.Errorf("set-mode after the restart = %v", e)
	}
	if e := h.event("set-config"); !strings.Contains(e["req"].(string), `"value":"high"`) {
		t.Errorf("set-config after the restart = %v", e)
	}
}

// HandleExtensionMethod serves _session/steering (claude-agent-acp's
// shape) into the running "[steerable]" prompt.
func (f *fakeACPAgent) HandleExtensionMethod(_ context.Context, method string, params json.RawMessage) (any, error) {
	if method != "_session/steering" {
		return nil, acp.NewMethodNotFound(method)
	}
	var p struct {
		SessionID string             `json:"sessionId"`
		Prompt    []acp.ContentBlock `json:"prompt"`
		Meta      map[string]any     `json:"_meta"`
	}
	if err := json.Unmarshal(params, &p); err != nil || len(p.Prompt) == 0 || p.Prompt[0].Text == nil {
		return nil, acp.NewInvalidParams(map[string]any{"error": "steer params"})
	}
	f.record(map[string]any{"ev": "steer", "session": p.SessionID, "text": p.Prompt[0].Text.Text, "meta": p.Meta})
	f.mu.Lock()
	ch := f.steer
	f.mu.Unlock()
	if ch == nil {
		return map[string]any{"outcome": "promptRequired", "reason": "noRunningTurn"}, nil
	}
	ch <- p.Prompt[0].Text.Text
	return map[string]any{"outcome": "injected"}, nil
}

func (f *fakeACPAgent) UnstableLogout(context.Context, acp.UnstableLogoutRequest) (acp.UnstableLogoutResponse, error) {
	f.record(map[string]any{"ev": "logout"})
	f.mu.Lock()
	f.authed = false
	f.mu.Unlock()
	return acp.UnstableLogoutResponse{}, nil
}
