// Package mcpagent is an ACP agent, built from the SDK's agent side, that
// calls the MCP servers its client names in session/new: a test binary
// re-executes itself as the agent (Main; on a remote project it runs
// there, over the master) and sends it prompts, so what reaches an MCP
// tool is what a real agent's call would reach.
//
// It advertises mcpCapabilities.http. A prompt is one command:
//
//   - `servers`: the reply lists the session's MCP servers, one line
//     each: name, kind (http or stdio), the URL's host and whether an
//     Authorization header came (never its value).
//   - `call SERVER TOOL {json}`: it calls TOOL of SERVER (an http one,
//     over MCP's streamable HTTP with the server's headers) and the reply
//     is "result: " and the tool's text, or "error: " and why.
//   - `bare SERVER`: it posts an MCP initialize to SERVER's URL without
//     its headers and replies "status: N" (a bearer-token check says
//     401).
//
// It imports only the ACP and MCP SDKs.
package mcpagent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/chipchat/chipchat/internal/acpnoop"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Env is the variable that makes a test binary run Main.
const Env = "CHIPCHAT_MCP_AGENT"

// Main runs the agent on stdin and stdout until the client goes away.
func Main() {
	ag := &agent{servers: map[acp.SessionId][]acp.McpServer{}}
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
	servers       map[acp.SessionId][]acp.McpServer
}

func (a *agent) Initialize(context.Context, acp.InitializeRequest) (acp.InitializeResponse, error) {
	return acp.InitializeResponse{
		ProtocolVersion:   acp.ProtocolVersionNumber,
		AgentInfo:         &acp.Implementation{Name: "mcpagent", Version: "1"},
		AuthMethods:       []acp.AuthMethod{},
		AgentCapabilities: acp.AgentCapabilities{McpCapabilities: acp.McpCapabilities{Http: true}},
	}, nil
}

func (a *agent) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

func (a *agent) NewSession(_ context.Context, r acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	id := acp.SessionId(fmt.Sprintf("mcpagent-%d", a.n))
	a.servers[id] = r.McpServers
	return acp.NewSessionResponse{SessionId: id}, nil
}

func (a *agent) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	text := ""
	for _, b := range p.Prompt {
		if b.Text != nil {
			text += b.Text.Text
		}
	}
	a.mu.Lock()
	servers := a.servers[p.SessionId]
	a.mu.Unlock()
	reply := a.answer(ctx, strings.TrimSpace(text), servers)
	if err := a.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: acp.UpdateAgentMessageText(reply)}); err != nil {
		return acp.PromptResponse{}, err
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

// answer runs the prompt's command (the client may add text around it:
// the command is the first line that starts with one).
func (a *agent) answer(ctx context.Context, text string, servers []acp.McpServer) string {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		word, rest, _ := strings.Cut(line, " ")
		switch word {
		case "servers":
			return listServers(servers)
		case "call":
			name, rest, _ := strings.Cut(rest, " ")
			tool, args, _ := strings.Cut(rest, " ")
			return call(ctx, find(servers, name), tool, args)
		case "bare":
			return bare(ctx, find(servers, strings.TrimSpace(rest)))
		}
	}
	return "mcpagent: no command in the prompt (servers, call SERVER TOOL {json}, bare SERVER)"
}

func find(servers []acp.McpServer, name string) *acp.McpServerHttpInline {
	for _, s := range servers {
		if s.Http != nil && s.Http.Name == name {
			return s.Http
		}
	}
	return nil
}

func listServers(servers []acp.McpServer) string {
	if len(servers) == 0 {
		return "servers: none"
	}
	var b strings.Builder
	b.WriteString("servers:")
	for _, s := range servers {
		switch {
		case s.Http != nil:
			host := "?"
			if u, err := url.Parse(s.Http.Url); err == nil {
				host = u.Hostname()
			}
			auth := "no token"
			for _, h := range s.Http.Headers {
				if strings.EqualFold(h.Name, "Authorization") && strings.HasPrefix(h.Value, "Bearer ") {
					auth = "bearer token"
				}
			}
			fmt.Fprintf(&b, "\n%s http %s %s", s.Http.Name, host, auth)
		case s.Stdio != nil:
			fmt.Fprintf(&b, "\n%s stdio", s.Stdio.Name)
		}
	}
	return b.String()
}

// headers adds the server's headers to every request.
type headers struct {
	rt http.RoundTripper
	h  []acp.HttpHeader
}

func (t headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for _, h := range t.h {
		r.Header.Set(h.Name, h.Value)
	}
	return t.rt.RoundTrip(r)
}

func call(ctx context.Context, s *acp.McpServerHttpInline, tool, args string) string {
	if s == nil {
		return "error: no such http MCP server in this session"
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		return "error: the arguments are not a JSON object: " + err.Error()
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	tr := &mcp.StreamableClientTransport{Endpoint: s.Url, HTTPClient: &http.Client{Transport: headers{http.DefaultTransport, s.Headers}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpagent", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		return "error: connect: " + err.Error()
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: in})
	if err != nil {
		return "error: " + err.Error()
	}
	var out strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			out.WriteString(t.Text)
		}
	}
	if res.IsError {
		return "error: the tool said " + out.String()
	}
	return "result: " + out.String()
}

func bare(ctx context.Context, s *acp.McpServerHttpInline) string {
	if s == nil {
		return "error: no such http MCP server in this session"
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bare","version":"1"}}}`
	req, err := http.NewRequestWithContext(ctx, "POST", s.Url, strings.NewReader(body))
	if err != nil {
		return "error: " + err.Error()
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "error: " + err.Error()
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return fmt.Sprintf("status: %d", resp.StatusCode)
}
