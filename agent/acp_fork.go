package agent

import (
	"context"
	"path/filepath"

	acp "github.com/coder/acp-go-sdk"
)

// SessionForker is a backend that can copy the agent's own session of a
// thread into a new session (ACP's session/fork, unstable in acp-go-sdk
// v0.13.0): a whole-thread fork keeps the agent's memory of the thread.
type SessionForker interface {
	// ForkSession copies session sessionID (of the project in dir) into a
	// new session and returns its id; ErrNotOffered when the agent does
	// not offer session/fork (sessionCapabilities.fork). It starts the
	// agent.
	ForkSession(ctx context.Context, dir, sessionID string) (string, error)
}

var _ SessionForker = (*ACP)(nil)

// ForkSession sends session/fork. The new session is not open in the
// process: the forked thread's first turn resumes (or loads) it as after a
// restart.
func (a *ACP) ForkSession(ctx context.Context, dir, sessionID string) (string, error) {
	p, err := a.ensureProc(ctx, dir)
	if err != nil {
		return "", err
	}
	if p.caps.SessionCapabilities.Fork == nil || sessionID == "" {
		return "", ErrNotOffered
	}
	cwd := p.dir
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			cwd = abs
		}
	}
	resp, err := p.conn.UnstableForkSession(ctx, acp.UnstableForkSessionRequest{SessionId: acp.SessionId(sessionID), Cwd: cwd})
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", p.wrapErr("session/fork", err)
	}
	if resp.SessionId == "" {
		return "", p.wrapErr("session/fork", errForkNoID)
	}
	return string(resp.SessionId), nil
}

type acpForkError string

func (e acpForkError) Error() string { return string(e) }

const errForkNoID = acpForkError("the agent answered without a session id")
