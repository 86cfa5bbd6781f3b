// Package hostileagent is an ACP agent, built from the SDK's agent side,
// that attacks its client: a test binary re-executes itself as the agent
// (Main) and sends it prompts naming the attacks, so the client's real
// stdio, JSON-RPC and request handling are what is tested.
//
// A prompt is a JSON array of Ops; the agent runs them in order through
// the client's fs and terminal methods (as the prompt's session, or as
// Op.Session: another session, or one that does not exist) and answers
// with one agent_message_chunk, the JSON array of Results. Op "race" runs Race (a directory and a symlink
// out of the project swapped in a loop while the client reads and writes
// through the swapped path) with the client's ReadTextFile and
// WriteTextFile as the operations.
//
// It imports only the SDK and golang.org/x/sys: a client's test compares
// what the agent says with what reached the disk.
package hostileagent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/internal/acpnoop"
)

// Env is the variable that makes a test binary run Main.
const Env = "CHIPCHAT_HOSTILE_AGENT"

// Op is one attack.
type Op struct {
	// "read", "write", "race", "terminal", "tool" or "caps" (Result.Head
	// says what initialize offered: "read=true write=true terminal=false")
	Op string `json:"op"`
	// Session, when set, is the session id the request names instead of
	// the prompt's.
	Session string `json:"session,omitempty"`
	Path    string `json:"path,omitempty"`
	Line    *int   `json:"line,omitempty"`
	Limit   *int   `json:"limit,omitempty"`
	Content string `json:"content,omitempty"`
	// Race: the project directory, the directory outside it, the number
	// of write/read pairs.
	Project string `json:"project,omitempty"`
	Outside string `json:"outside,omitempty"`
	N       int    `json:"n,omitempty"`
	// Repeat makes one large Content of Content repeated this many times
	// (a 50 MB write costs no 50 MB prompt).
	Repeat int `json:"repeat,omitempty"`
	// Terminal: terminal/create of Command with Args in Cwd (Path unused);
	// Wait waits for its exit and reads its output; Release releases it
	// after.
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	Wait    bool     `json:"wait,omitempty"`
	Release bool     `json:"release,omitempty"`
	// Tool: a tool_call (ToolID, Kind, Title, Status, Path as its
	// location), or its update (Status, and TerminalID as its content)
	// when ToolID was sent before.
	ToolID     string `json:"toolId,omitempty"`
	TerminalID string `json:"terminalId,omitempty"`
	// TerminalIDFrom, when positive, is the index of an earlier op of the
	// prompt whose result's TerminalID this update names.
	TerminalIDFrom int    `json:"terminalIdFrom,omitempty"`
	Kind           string `json:"kind,omitempty"`
	Title          string `json:"title,omitempty"`
	Status         string `json:"status,omitempty"`
}

// Result is what one Op got.
type Result struct {
	Err string `json:"err,omitempty"`
	// A read's content: its length, SHA-256 and first 200 bytes.
	Len    int    `json:"len,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	Head   string `json:"head,omitempty"`
	// Race: what it counted.
	Race *RaceResult `json:"race,omitempty"`
	// Terminal: its id, and once waited for, its exit code and output.
	TerminalID string `json:"terminalId,omitempty"`
	ExitCode   *int   `json:"exitCode,omitempty"`
	Output     string `json:"output,omitempty"`
}

// Main runs the agent on stdin and stdout until the client goes away.
func Main() {
	ag := &agent{}
	conn := acp.NewAgentSideConnection(ag, os.Stdout, os.Stdin)
	conn.SetLogger(slog.New(slog.DiscardHandler))
	ag.conn = conn
	<-conn.Done()
}

type agent struct {
	acpnoop.Agent // cancel, close, list, resume, options, modes: empty answers
	conn          *acp.AgentSideConnection
	mu            sync.Mutex
	n             int
	tools         map[string]bool // tool call ids sent
	caps          acp.ClientCapabilities
}

func (a *agent) Initialize(_ context.Context, r acp.InitializeRequest) (acp.InitializeResponse, error) {
	a.mu.Lock()
	a.caps = r.ClientCapabilities
	a.mu.Unlock()
	return acp.InitializeResponse{
		ProtocolVersion: acp.ProtocolVersionNumber,
		AgentInfo:       &acp.Implementation{Name: "hostile", Version: "1"},
		AuthMethods:     []acp.AuthMethod{},
	}, nil
}

func (a *agent) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

func (a *agent) NewSession(context.Context, acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	a.mu.Lock()
	a.n++
	id := fmt.Sprintf("hostile-%d", a.n)
	a.mu.Unlock()
	return acp.NewSessionResponse{SessionId: acp.SessionId(id)}, nil
}

func (a *agent) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	text := ""
	for _, b := range p.Prompt {
		if b.Text != nil {
			text += b.Text.Text
		}
	}
	// The ops are the prompt's outermost JSON array (the client may add
	// text around the user's).
	if i, j := strings.IndexByte(text, '['), strings.LastIndexByte(text, ']'); i >= 0 && j > i {
		text = text[i : j+1]
	}
	var ops []Op
	if err := json.Unmarshal([]byte(text), &ops); err != nil {
		return acp.PromptResponse{}, fmt.Errorf("hostile agent: the prompt is not a JSON array of ops: %w", err)
	}
	results := make([]Result, 0, len(ops))
	for _, op := range ops {
		if i := op.TerminalIDFrom; i > 0 && i < len(results) {
			op.TerminalID = results[i].TerminalID
		}
		results = append(results, a.run(ctx, p.SessionId, op))
	}
	out, _ := json.Marshal(results)
	if err := a.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: acp.UpdateAgentMessageText(string(out))}); err != nil {
		return acp.PromptResponse{}, err
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

func (a *agent) run(ctx context.Context, sid acp.SessionId, op Op) Result {
	if op.Session != "" {
		sid = acp.SessionId(op.Session)
	}
	switch op.Op {
	case "caps":
		a.mu.Lock()
		c := a.caps
		a.mu.Unlock()
		return Result{Head: fmt.Sprintf("read=%v write=%v terminal=%v", c.Fs.ReadTextFile, c.Fs.WriteTextFile, c.Terminal)}
	case "terminal":
		return a.terminal(ctx, sid, op)
	case "tool":
		return a.tool(ctx, sid, op)
	case "read":
		r, err := a.conn.ReadTextFile(ctx, acp.ReadTextFileRequest{SessionId: sid, Path: op.Path, Line: op.Line, Limit: op.Limit})
		if err != nil {
			return Result{Err: errText(err)}
		}
		sum := sha256.Sum256([]byte(r.Content))
		head := r.Content
		if len(head) > 200 {
			head = head[:200]
		}
		return Result{Len: len(r.Content), SHA256: hex.EncodeToString(sum[:]), Head: head}
	case "write":
		content := op.Content
		if op.Repeat > 1 {
			b := make([]byte, 0, len(content)*op.Repeat)
			for range op.Repeat {
				b = append(b, content...)
			}
			content = string(b)
		}
		_, err := a.conn.WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: sid, Path: op.Path, Content: content})
		if err != nil {
			return Result{Err: errText(err)}
		}
		return Result{}
	case "race":
		res, err := Race(ctx, op.Project, op.Outside, op.N, false, Ops{
			Read: func(p string) (string, error) {
				r, err := a.conn.ReadTextFile(ctx, acp.ReadTextFileRequest{SessionId: sid, Path: p})
				return r.Content, err
			},
			Write: func(p, content string) error {
				_, err := a.conn.WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: sid, Path: p, Content: content})
				return err
			},
		})
		if err != nil {
			return Result{Err: err.Error()}
		}
		return Result{Race: &res}
	}
	return Result{Err: "unknown op " + op.Op}
}

// errText is the message of an ACP error (its data, if any, after it).
func errText(err error) string {
	if re, ok := err.(*acp.RequestError); ok {
		return re.Message
	}
	return err.Error()
}

// terminal runs op's command in a client terminal.
func (a *agent) terminal(ctx context.Context, sid acp.SessionId, op Op) Result {
	req := acp.CreateTerminalRequest{SessionId: sid, Command: op.Command, Args: op.Args}
	if op.Cwd != "" {
		req.Cwd = &op.Cwd
	}
	ct, err := a.conn.CreateTerminal(ctx, req)
	if err != nil {
		return Result{Err: errText(err)}
	}
	res := Result{TerminalID: ct.TerminalId}
	if op.Wait {
		w, err := a.conn.WaitForTerminalExit(ctx, acp.WaitForTerminalExitRequest{SessionId: sid, TerminalId: ct.TerminalId})
		if err != nil {
			return Result{TerminalID: ct.TerminalId, Err: errText(err)}
		}
		res.ExitCode = w.ExitCode
		out, err := a.conn.TerminalOutput(ctx, acp.TerminalOutputRequest{SessionId: sid, TerminalId: ct.TerminalId})
		if err != nil {
			return Result{TerminalID: ct.TerminalId, Err: errText(err)}
		}
		res.Output = out.Output
	}
	if op.Release {
		if _, err := a.conn.ReleaseTerminal(ctx, acp.ReleaseTerminalRequest{SessionId: sid, TerminalId: ct.TerminalId}); err != nil {
			res.Err = errText(err)
		}
	}
	return res
}

// tool sends a tool_call, or a tool_call_update for a call sent before.
func (a *agent) tool(ctx context.Context, sid acp.SessionId, op Op) Result {
	a.mu.Lock()
	if a.tools == nil {
		a.tools = map[string]bool{}
	}
	seen := a.tools[op.ToolID]
	a.tools[op.ToolID] = true
	a.mu.Unlock()
	var u acp.SessionUpdate
	id := acp.ToolCallId(op.ToolID)
	if seen {
		var opts []acp.ToolCallUpdateOpt
		if op.Status != "" {
			opts = append(opts, acp.WithUpdateStatus(acp.ToolCallStatus(op.Status)))
		}
		if op.TerminalID != "" {
			opts = append(opts, acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolTerminalRef(op.TerminalID)}))
		}
		u = acp.UpdateToolCall(id, opts...)
	} else {
		opts := []acp.ToolCallStartOpt{acp.WithStartKind(acp.ToolKind(op.Kind))}
		if op.Status != "" {
			opts = append(opts, acp.WithStartStatus(acp.ToolCallStatus(op.Status)))
		}
		if op.Path != "" {
			opts = append(opts, acp.WithStartLocations([]acp.ToolCallLocation{{Path: op.Path}}))
		}
		u = acp.StartToolCall(id, op.Title, opts...)
	}
	if err := a.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: sid, Update: u}); err != nil {
		return Result{Err: err.Error()}
	}
	return Result{}
}
