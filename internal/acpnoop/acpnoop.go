// Package acpnoop is the part of acp-go-sdk's Agent interface a test
// agent has nothing to say to — cancel, close, list, resume, config
// options and modes — answered empty, for the suite's fake ACP agents
// (internal/hostileagent, internal/mcpagent) to embed. Test code only.
package acpnoop

import (
	"context"

	acp "github.com/coder/acp-go-sdk"
)

// Agent answers those calls empty: embed it and write the rest.
type Agent struct{}

func (Agent) Cancel(context.Context, acp.CancelNotification) error { return nil }

func (Agent) CloseSession(context.Context, acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, nil
}

func (Agent) ListSessions(context.Context, acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	return acp.ListSessionsResponse{}, nil
}

func (Agent) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, nil
}

func (Agent) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, nil
}

func (Agent) SetSessionMode(context.Context, acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	return acp.SetSessionModeResponse{}, nil
}
