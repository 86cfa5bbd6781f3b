package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/mcpserver"
	"github.com/chipchat/chipchat/remote"
)

// chipchat's MCP tools for an agent on a remote project (issue 28 item 6):
// the app serves them itself over streamable HTTP on a unix socket here
// (mcpserver.HTTPEndpoint), the master forwards a loopback port of the
// remote to it (remote.Conn.Forward), and each session/new names that
// port as an http MCP server with a bearer token of the session's own. An
// agent that takes no HTTP MCP servers, or a server that refuses
// forwarding, leaves the tools off with a notice that says why.

// toolsOff starts the notice of tools left off.
const toolsOff = "chipchat's tools (t3_thread_read, terminal_read) are off for this agent: "

// remoteMCP is the endpoint and its forwarding over the current master.
type remoteMCP struct {
	conn     *remote.Conn
	endpoint *mcpserver.HTTPEndpoint

	mu     sync.Mutex
	port   int // the remote's forwarded port; 0 before the first forwarding
	master int // the pid of the master that forwards it
}

// newRemoteMCP starts the endpoint for rp's agent, reading dataDir's
// threads, the app answering on panesSocket which of them it may read.
func newRemoteMCP(conn *remote.Conn, dataDir, panesSocket string) (*remoteMCP, error) {
	path, err := mcpserver.HTTPSocketPath()
	if err != nil {
		return nil, err
	}
	removeStale(filepath.Dir(path), "mcp-", ".sock")
	e, err := mcpserver.ListenHTTP(path, mcpserver.Options{DataDir: dataDir, PanesSocket: panesSocket})
	if err != nil {
		return nil, err
	}
	exitFiles.Add(path)
	return &remoteMCP{conn: conn, endpoint: e}, nil
}

// remoteTools opens the panes socket and the endpoint for rp's agent and
// returns them with the agent's SessionMCPServers; when either cannot
// open, the sessions get a notice saying why the tools are off.
func remoteTools(rp *remoteProject, dataDir string) (*mcpserver.Panes, *remoteMCP, func(context.Context, bool) ([]agent.MCPServer, []string)) {
	off := func(err error) func(context.Context, bool) ([]agent.MCPServer, []string) {
		return func(context.Context, bool) ([]agent.MCPServer, []string) {
			return nil, []string{toolsOff + err.Error()}
		}
	}
	panes, err := openPanes()
	if err != nil {
		return nil, nil, off(err)
	}
	m, err := newRemoteMCP(rp.conn, dataDir, panes.Path())
	if err != nil {
		return panes, nil, off(err)
	}
	return panes, m, m.servers
}

// servers is agent.ACPOptions.SessionMCPServers: chipchat's endpoint as
// the remote sees it, with a new token.
func (m *remoteMCP) servers(ctx context.Context, http bool) ([]agent.MCPServer, []string) {
	if !http {
		return nil, []string{toolsOff + "it takes no HTTP MCP servers (mcpCapabilities.http), and chipchat's own server cannot run on " + m.conn.Target().Host}
	}
	port, err := m.forwarded(ctx)
	if err != nil {
		return nil, []string{toolsOff + err.Error()}
	}
	return []agent.MCPServer{{
		Name:    mcpserver.ServerName,
		URL:     "http://127.0.0.1:" + strconv.Itoa(port) + mcpserver.HTTPPath,
		Headers: []string{"Authorization: Bearer " + m.endpoint.NewToken()},
	}}, nil
}

// forwarded is the remote port forwarded to the endpoint by the running
// master, asking the master for it when this master has none (the first
// session, or a master that replaced a lost one).
func (m *remoteMCP) forwarded(ctx context.Context) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	pid, err := m.conn.MasterPID(ctx)
	if err == nil && m.port != 0 && pid == m.master {
		return m.port, nil
	}
	port, err := m.conn.Forward(ctx, m.endpoint.Path())
	if err != nil {
		return 0, err
	}
	if pid, err = m.conn.MasterPID(ctx); err != nil {
		return 0, fmt.Errorf("after forwarding: %w", err)
	}
	m.port, m.master = port, pid
	return port, nil
}

// close stops the endpoint (the master's end takes the forwarding).
func (m *remoteMCP) close() {
	_ = m.endpoint.Close()
	exitFiles.Forget(m.endpoint.Path())
}

// close ends what newBackend opened for the app (when it failed).
func (p acpParts) close() {
	if p.mcp != nil {
		p.mcp.close()
	}
	if p.panes != nil {
		_ = p.panes.Close()
	}
}
