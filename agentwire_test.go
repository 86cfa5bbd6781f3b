package main

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/mcpserver"
)

// Every session gets chipchat's own server first, then the config's
// [[mcp_servers]]: stdio with its env, http with its headers, each sorted
// by name.
func TestMCPServers(t *testing.T) {
	cfg := config.Default()
	cfg.MCPServers = []config.MCPServerConfig{
		{Name: "files", Command: "npx", Args: []string{"-y", "server-filesystem", "/tmp"}, Env: map[string]string{"B": "2", "A": "1"}},
		{Name: "docs", URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer x"}},
	}
	got, err := mcpServers(cfg, t.TempDir(), "/proj", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Name != mcpserver.ServerName || got[0].Args[0] != mcpserver.Command {
		t.Fatalf("servers %+v", got)
	}
	if !strings.Contains(strings.Join(got[0].Args, " "), "--project /proj") {
		t.Errorf("chipchat mcp args %q", got[0].Args)
	}
	if f := got[1]; f.Name != "files" || f.Command != "npx" || strings.Join(f.Args, " ") != "-y server-filesystem /tmp" || strings.Join(f.Env, ",") != "A=1,B=2" {
		t.Errorf("stdio server %+v", f)
	}
	if d := got[2]; d.Name != "docs" || d.URL != "https://example.com/mcp" || len(d.Headers) != 1 || d.Headers[0] != "Authorization: Bearer x" || d.Command != "" {
		t.Errorf("http server %+v", d)
	}
}

// The config's [limits] reach the backends field by field; the default
// reply_bytes is the agent's.
func TestPayloadLimits(t *testing.T) {
	l := config.Limits{InlineFileBytes: 1, InlineTurnBytes: 2, HistoryBytes: 3, ThreadContextBytes: 4, ResumeHistoryBytes: 5, ReplyBytes: 6}
	want := agent.Limits{InlineFileBytes: 1, InlineTurnBytes: 2, HistoryBytes: 3, ThreadContextBytes: 4, ResumeHistoryBytes: 5, ReplyBytes: 6}
	if got := payloadLimits(l); got != want {
		t.Errorf("payload %+v, want %+v", got, want)
	}
	if got := payloadLimits(config.Default().Limits).ReplyBytes; got != agent.DefaultReplyBytes {
		t.Errorf("default reply_bytes reaches the backends as %d, want %d", got, agent.DefaultReplyBytes)
	}
}
