package ui

// MCP servers (issue 12 item 6): the config's [[mcp_servers]] and
// chipchat's own `chipchat mcp` are passed to every ACP session
// (in session/new and session/load; package main converts them for the
// ACP backend, with chipchat mcp's spec and the panes socket). The app
// runs the panes socket `chipchat mcp` reads the terminals through
// (mcpserver.Panes, opened by main), keeps its list of terminals current
// on the UI goroutine (panes.syncSocket, at each message) and closes it
// on quit.
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

// syncSocket tells the panes socket which terminals the pane holds (the
// UI goroutine, at each message; cheap when they did not change).
func (p *panes) syncSocket() { p.mcp.Sync(p.pane.Terminals()) }

// close ends what the app started for the ACP client: the agent
// terminals' channel and the panes socket (App.Close).
func (p *panes) close() {
	p.host.Close()
	if p.mcp != nil {
		_ = p.mcp.Close()
	}
}
