package agent

import (
	"context"

	acp "github.com/coder/acp-go-sdk"
)

// acpReopen opens a session the agent made before (in an earlier process).
type acpReopen func(ctx context.Context, p *acpProc, sid, cwd string, servers []acp.McpServer, extra []string, emit func(Event)) error

// reopener is how p reopens a stored session, and the method's name:
// session/resume when the agent offers it (nothing is replayed), else
// session/load (its replay dropped), else nil.
func (a *ACP) reopener(p *acpProc) (acpReopen, string) {
	switch {
	case p.caps.SessionCapabilities.Resume != nil:
		return a.resume, "session/resume"
	case p.caps.LoadSession:
		return a.load, "session/load"
	}
	return nil, ""
}

// resume reopens sid with session/resume: the agent sends no history, so
// nothing is dropped and nothing is waited for.
func (a *ACP) resume(ctx context.Context, p *acpProc, sid, cwd string, servers []acp.McpServer, extra []string, emit func(Event)) error {
	return a.reopen(ctx, p, sid, cwd, servers, extra, emit, true)
}

// load reopens sid with session/load, dropping the history the agent
// replays before it answers and, until the session has been quiet for
// LoadQuiet, after.
func (a *ACP) load(ctx context.Context, p *acpProc, sid, cwd string, servers []acp.McpServer, extra []string, emit func(Event)) error {
	return a.reopen(ctx, p, sid, cwd, servers, extra, emit, false)
}

// reopen is resume (session/resume) or load (session/load, its replay
// dropped while s.loading and until the session settles).
func (a *ACP) reopen(ctx context.Context, p *acpProc, sid, cwd string, servers []acp.McpServer, extra []string, emit func(Event), resume bool) error {
	a.mu.Lock()
	s := a.session(sid)
	s.cwd = cwd
	if !resume {
		s.loading = true
		defer func() {
			a.mu.Lock()
			s.loading = false
			a.mu.Unlock()
		}()
	}
	a.mu.Unlock()
	var (
		modes   *acp.SessionModeState
		options []acp.SessionConfigOption
		models  *acp.SessionModelState
	)
	err := a.withAuth(ctx, p, emit, func() error {
		if resume {
			resp, err := p.conn.ResumeSession(ctx, acp.ResumeSessionRequest{SessionId: acp.SessionId(sid), Cwd: cwd, McpServers: servers, AdditionalDirectories: extra})
			modes, options, models = resp.Modes, resp.ConfigOptions, resp.Models
			return err
		}
		resp, err := p.conn.LoadSession(ctx, acp.LoadSessionRequest{SessionId: acp.SessionId(sid), Cwd: cwd, McpServers: servers, AdditionalDirectories: extra})
		modes, options, models = resp.Modes, resp.ConfigOptions, resp.Models
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	a.mu.Lock()
	s.setInitial(modes, options, models)
	a.mu.Unlock()
	if !resume {
		if err := a.settle(ctx, s); err != nil {
			return err
		}
	}
	p.setLive(sid)
	return nil
}

// acpUsage is a usage_update as a Usage: the context used and its size,
// and the session's cost when the agent sends it.
func acpUsage(u acp.SessionUsageUpdate) Usage {
	out := Usage{ContextUsed: int64(u.Used), ContextSize: int64(u.Size)}
	if u.Cost != nil && u.Cost.Currency != "" {
		out.Cost, out.Currency = u.Cost.Amount, u.Cost.Currency
	}
	return out
}

// acpClientMeta is the _meta of the client capabilities: terminal auth
// (Claude's adapter's own key) and boolean config options
// (session.configOptions.boolean, which the SDK's ClientCapabilities has
// no field for).
func acpClientMeta() map[string]any {
	return map[string]any{
		"terminal-auth": true,
		"session":       map[string]any{"configOptions": map[string]any{"boolean": map[string]any{}}},
	}
}
