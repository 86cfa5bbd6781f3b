package main

import (
	"sort"
	"time"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/mcpserver"
	"github.com/chipchat/chipchat/review"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/ui"
)

// The wiring between the app and the agent backend: package ui never
// speaks agent's types (DESIGN.md section 2), so what the backend needs
// of the app's config (the payload limits, the MCP servers) is converted
// here, and the conversation the app draws is built here over the backend.

// payloadLimits is the config's [limits] as the backends take them.
func payloadLimits(l config.Limits) agent.Limits {
	return agent.Limits{InlineFileBytes: l.InlineFileBytes, InlineTurnBytes: l.InlineTurnBytes,
		HistoryBytes: l.HistoryBytes, ThreadContextBytes: l.ThreadContextBytes, ResumeHistoryBytes: l.ResumeHistoryBytes, ReplyBytes: l.ReplyBytes}
}

// newChat is the conversation of the project opt names (ui.OpenThread's
// options), over backend, with the config's limits.
// On the real clock its events are paced (chat.PaceInterval: 30 batches a
// second at most), so a fast stream costs at most that many frames; an
// injected clock (the golden screens) is not paced. A remote project's
// mentions are read there; its review comments are not checked for
// staleness yet (the check reads the file here).
func newChat(st *store.Store, as *assets.Store, backend agent.Backend, projectID int64, opt ui.Options, rp *remoteProject) *chat.Service {
	var every time.Duration
	if opt.Clock == nil {
		every = chat.PaceInterval
	}
	o := chat.Options{Store: st, Assets: as, Backend: backend, ProjectID: projectID, Dir: opt.Dir, Clock: opt.Clock,
		ExcerptMaxAge: opt.Config.Limits.ExcerptAge(), PrepareRecords: review.PrepareRecords(opt.Dir), Limits: payloadLimits(opt.Config.Limits),
		EventEvery: every}
	if rp != nil {
		o.Snapshot, o.PrepareRecords = rp.snapshot, nil
	}
	return chat.New(o)
}

// mcpServers is what every ACP session gets: chipchat's own `chipchat
// mcp` (for dataDir's threads of projectKey, reading the app's panes
// through panes when it is not nil), then the config's [[mcp_servers]].
func mcpServers(cfg config.Config, dataDir, projectKey string, panes *mcpserver.Panes) ([]agent.MCPServer, error) {
	socket := ""
	if panes != nil {
		socket = panes.Path()
	}
	sp, err := mcpserver.Spec(dataDir, projectKey, socket)
	if err != nil {
		return nil, err
	}
	out := []agent.MCPServer{{Name: sp.Name, Command: sp.Command, Args: sp.Args, Env: sp.Env}}
	for _, s := range cfg.MCPServers {
		out = append(out, agent.MCPServer{Name: s.Name, Command: s.Command, Args: append([]string(nil), s.Args...),
			Env: sortedPairs(s.Env, "="), URL: s.URL, Headers: sortedPairs(s.Headers, ": ")})
	}
	return out, nil
}

// sortedPairs is m as "k<sep>v", sorted by key.
func sortedPairs(m map[string]string, sep string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+sep+v)
	}
	sort.Strings(out)
	return out
}
