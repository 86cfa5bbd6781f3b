package agent

import (
	"context"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// ACPQuitCloseWait is the longest Close waits for the agent to answer the
// session/close of its live sessions before it stops the process, so that
// quitting stays fast.
const ACPQuitCloseWait = 100 * time.Millisecond

// SessionCloser is a backend that can end the agent's own session of a
// thread (a deleted thread's).
type SessionCloser interface {
	// CloseSession ends the thread's session with the agent, when the
	// agent offers it and the session is open in its running process, and
	// forgets it either way.
	CloseSession(ctx context.Context, threadID string) error
}

var _ SessionCloser = (*ACP)(nil)

// CloseSession forgets the thread's session and, when the agent offers
// session/close (sessionCapabilities.close) and the session is open in the
// running process, closes it there.
func (a *ACP) CloseSession(ctx context.Context, threadID string) error {
	a.mu.Lock()
	p := a.proc
	sid := a.sessions[threadID]
	delete(a.sessions, threadID)
	delete(a.pending, threadID)
	a.mu.Unlock()
	if p == nil || sid == "" || p.caps.SessionCapabilities.Close == nil || !p.isLive(sid) || p.dead() {
		return nil
	}
	_, err := p.conn.CloseSession(ctx, acp.CloseSessionRequest{SessionId: acp.SessionId(sid)})
	p.mu.Lock()
	delete(p.live, sid)
	p.mu.Unlock()
	a.mu.Lock()
	delete(a.state, sid)
	a.mu.Unlock()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return p.wrapErr("session/close", err)
	}
	return nil
}

// closeSessions sends session/close for every session open in p, when the
// agent offers it, and waits for the answers ACPQuitCloseWait at most.
func (a *ACP) closeSessions(p *acpProc) {
	if p.caps.SessionCapabilities.Close == nil || p.dead() {
		return
	}
	p.mu.Lock()
	var sids []string
	for sid := range p.live {
		sids = append(sids, sid)
	}
	p.mu.Unlock()
	if len(sids) == 0 {
		return
	}
	after := a.closeAfter
	if after == nil {
		after = time.After
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for _, sid := range sids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = p.conn.CloseSession(ctx, acp.CloseSessionRequest{SessionId: acp.SessionId(sid)})
		}()
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-after(ACPQuitCloseWait):
	}
}
