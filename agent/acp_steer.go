package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	acp "github.com/coder/acp-go-sdk"
)

// acpSteerMethod is the steering extension's request (claude-agent-acp):
// a message injected into the session's running turn.
const acpSteerMethod = "_session/steering"

// ErrNoTurn is what Steer answers when the thread has no running turn the
// agent could take the message into.
var ErrNoTurn = errors.New("no turn is running")

// Steerer is a backend that can put a message into a running turn.
type Steerer interface {
	// CanSteer reports whether the thread's agent takes messages mid-turn
	// (false before it started).
	CanSteer(threadID string) bool
	// Steer puts text into the thread's running turn: ErrNotOffered when
	// the agent has no steering, ErrNoTurn when no turn runs.
	Steer(ctx context.Context, threadID, text string) error
}

var _ Steerer = (*ACP)(nil)

// acpSteers reports whether the agent advertises steering: the initialize
// answer's _meta.steering.supported.
func acpSteers(p *acpProc) bool {
	st, _ := p.initMeta["steering"].(map[string]any)
	ok, _ := st["supported"].(bool)
	return ok
}

// CanSteer reports whether the running agent advertises steering.
func (a *ACP) CanSteer(string) bool {
	a.mu.Lock()
	p := a.proc
	a.mu.Unlock()
	return p != nil && !p.dead() && acpSteers(p)
}

// Steer sends text into the thread's running turn (_session/steering, with
// idleBehavior promptRequired: an idle session is not started on its own);
// what the agent answers streams into that turn.
func (a *ACP) Steer(ctx context.Context, threadID, text string) error {
	a.mu.Lock()
	p := a.proc
	sid := a.sessions[threadID]
	running := sid != "" && a.turns[sid] != nil
	a.mu.Unlock()
	if p == nil || p.dead() {
		return ErrNoTurn
	}
	if !acpSteers(p) {
		return ErrNotOffered
	}
	if !running {
		return ErrNoTurn
	}
	raw, err := p.conn.CallExtension(ctx, acpSteerMethod, map[string]any{
		"sessionId": sid,
		"prompt":    []acp.ContentBlock{acp.TextBlock(text)},
		"_meta":     map[string]any{"steering": map[string]any{"idleBehavior": "promptRequired"}},
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return p.wrapErr(acpSteerMethod, err)
	}
	var resp struct {
		Outcome string `json:"outcome"`
	}
	_ = json.Unmarshal(raw, &resp)
	switch resp.Outcome {
	case "injected":
		return nil
	case "promptRequired":
		return ErrNoTurn
	}
	return fmt.Errorf("acp: %s: the agent answered %q", acpSteerMethod, oneLine(resp.Outcome))
}

// LoggerOut is a backend that can sign out of its agent.
type LoggerOut interface {
	// Logout signs out (ErrNotOffered when the agent cannot).
	Logout(ctx context.Context) error
}

var _ LoggerOut = (*ACP)(nil)

// Logout signs out of the agent with ACP's logout, when it offers it
// (agentCapabilities.auth.logout), starting the agent if it is not
// running; the next session request asks for a sign-in again.
func (a *ACP) Logout(ctx context.Context) error {
	p, err := a.ensureProc(ctx, "")
	if err != nil {
		return err
	}
	if p.caps.Auth.Logout == nil {
		return ErrNotOffered
	}
	if _, err := p.conn.UnstableLogout(ctx, acp.UnstableLogoutRequest{}); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return p.wrapErr("logout", err)
	}
	return nil
}
