package ui

import (
	"path/filepath"
	"slices"

	"github.com/chipchat/chipchat/mcpserver"
	"github.com/chipchat/chipchat/terminal"
)

// MCP servers (issue 12 item 6): the config's [[mcp_servers]] and
// chipchat's own `chipchat mcp` are passed to every ACP session
// (in session/new and session/load; package main converts them for the
// ACP backend, with chipchat mcp's spec and the panes socket). The app
// runs the panes socket `chipchat mcp` reads the terminals through
// (ListenPanes), keeps its list of terminals current on the UI goroutine
// (syncPanes, after a tab opens or closes) and closes it on quit.
//
//	[[mcp_servers]]                  # stdio
//	name = "files"
//	command = "npx"
//	args = ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
//	env = { DEBUG = "1" }
//
//	[[mcp_servers]]                  # http (agents that take them)
//	name = "docs"
//	url = "https://example.com/mcp"
//	headers = { Authorization = "Bearer …" }

// PanesServer is the app's end of chipchat mcp's panes socket: the
// listener and the list of terminals it reads.
type PanesServer struct {
	srv    *mcpserver.PaneServer
	terms  mcpserver.Terminals
	synced []*terminal.Terminal // what terms holds (the UI goroutine's copy)
}

// ListenPanes starts the panes socket at mcpserver.SocketPath (I/O: call
// it before the program starts). Close it with the app (App.Close does).
func ListenPanes() (*PanesServer, error) {
	path, err := mcpserver.SocketPath()
	if err != nil {
		return nil, err
	}
	// sockets of chipchats killed before they removed theirs (cleanup.go)
	removeStale(filepath.Dir(path), "panes-", ".sock")
	p := &PanesServer{}
	srv, err := mcpserver.ListenPanes(path, p.terms.Read)
	if err != nil {
		return nil, err
	}
	p.srv = srv
	removeOnExit(path)
	return p, nil
}

// Path is the socket's path.
func (p *PanesServer) Path() string { return p.srv.Path() }

// Close stops the socket and removes it.
func (p *PanesServer) Close() error {
	forgetOnExit(p.srv.Path())
	return p.srv.Close()
}

// syncPanes tells the panes socket which terminals the pane holds (the UI
// goroutine, after a tab opens or closes).
func (a *App) syncPanes() {
	if a.acp.mcp != nil {
		a.acp.mcp.synced = slices.Clone(a.pane.Terminals())
		a.acp.mcp.terms.Set(a.acp.mcp.synced)
	}
}

// syncPanesIfChanged is syncPanes when the pane's tabs changed since (the
// user opened or closed a terminal): called at each message, it costs a
// comparison of the few tabs.
func (a *App) syncPanesIfChanged() {
	if a.acp.mcp != nil && !slices.Equal(a.acp.mcp.synced, a.pane.Terminals()) {
		a.syncPanes()
	}
}

// closeACP ends what the app started for the ACP client: the agent
// terminals' channel and the panes socket (App.Close).
func (a *App) closeACP() {
	if a.acp.terms != nil {
		a.acp.terms.close()
	}
	if a.acp.mcp != nil {
		_ = a.acp.mcp.Close()
	}
}
