package ui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

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

// MCPServerConfig is one [[mcp_servers]] entry: stdio (command, args,
// env) or http (url, headers).
type MCPServerConfig struct {
	Name    string            `toml:"name"`
	Command string            `toml:"command"`
	Args    []string          `toml:"args"`
	Env     map[string]string `toml:"env"`
	URL     string            `toml:"url"`
	Headers map[string]string `toml:"headers"`
}

// checkMCPServers refuses an entry without a name, with both or neither of
// command and url, a name used twice or chipchat's own.
func checkMCPServers(list []MCPServerConfig) error {
	seen := map[string]bool{}
	for i, s := range list {
		where := fmt.Sprintf("[[mcp_servers]] #%d", i+1)
		if strings.TrimSpace(s.Name) == "" {
			return fmt.Errorf("%s: give it a name", where)
		}
		where = fmt.Sprintf("[[mcp_servers]] %q", s.Name)
		switch {
		case s.Command == "" && s.URL == "":
			return fmt.Errorf("%s: give a command (stdio) or a url (http)", where)
		case s.Command != "" && s.URL != "":
			return fmt.Errorf("%s: a command (stdio) or a url (http), not both", where)
		case s.Command == "" && (len(s.Args) > 0 || len(s.Env) > 0):
			return fmt.Errorf("%s: args and env are for a stdio server (command)", where)
		case s.URL == "" && len(s.Headers) > 0:
			return fmt.Errorf("%s: headers are for an http server (url)", where)
		case s.URL != "" && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://"):
			return fmt.Errorf("%s: url %q is not http:// or https://", where, s.URL)
		case s.Name == mcpserver.ServerName:
			return fmt.Errorf("%s: the name %q is chipchat's own server's", where, s.Name)
		case seen[s.Name]:
			return fmt.Errorf("%s: the name is used twice", where)
		}
		seen[s.Name] = true
	}
	return nil
}

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
