package main

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/internal/sshtest"
	"github.com/chipchat/chipchat/remote"
)

// post sends an MCP initialize to server's URL with its headers (or
// none) and returns the status.
func initializeStatus(t *testing.T, s agent.MCPServer, withHeaders bool) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, err := http.NewRequest("POST", s.URL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if withHeaders {
		for _, h := range s.Headers {
			k, v, _ := strings.Cut(h, ":")
			req.Header.Set(k, strings.TrimSpace(v))
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", s.URL, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Each session gets chipchat's endpoint at the remote's forwarded port
// with a token of its own (the remote is this machine: the test dials
// the port sshd listens on); a master that replaced a lost one forwards
// again; an agent without HTTP MCP servers is told why the tools are off.
func TestRemoteMCPServersPerSession(t *testing.T) {
	srv, rp := newTestRemote(t)
	m, err := newRemoteMCP(rp.conn, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.close)
	ctx := context.Background()
	one, notes := m.servers(ctx, true)
	two, _ := m.servers(ctx, true)
	if len(one) != 1 || len(two) != 1 || len(notes) != 0 {
		t.Fatalf("servers: %v %v, notes %q", one, two, notes)
	}
	if one[0].URL != two[0].URL || !strings.HasPrefix(one[0].URL, "http://127.0.0.1:") || one[0].Headers[0] == two[0].Headers[0] {
		t.Fatalf("two sessions: %+v and %+v: want one forwarded URL, two tokens", one[0], two[0])
	}
	if got := initializeStatus(t, one[0], true); got != http.StatusOK {
		t.Fatalf("initialize with the session's token through the forwarded port: %d", got)
	}
	if got := initializeStatus(t, one[0], false); got != http.StatusUnauthorized {
		t.Fatalf("initialize without the token: %d, want 401", got)
	}

	srv.KillMaster(t, filepath.Join(remote.RuntimeDir(), "chipchat-ssh", "%C"))
	three, notes := m.servers(ctx, true)
	if len(three) != 1 || len(notes) != 0 {
		t.Fatalf("after the master was lost: %+v %q", three, notes)
	}
	if got := initializeStatus(t, three[0], true); got != http.StatusOK {
		t.Fatalf("initialize over the new master's forwarding: %d", got)
	}

	none, notes := m.servers(ctx, false)
	if len(none) != 0 || len(notes) != 1 || !strings.Contains(notes[0], "takes no HTTP MCP servers") {
		t.Fatalf("an agent without HTTP: %v %q", none, notes)
	}
}

// A server that refuses forwarding: no server, and the notice says why
// in ssh's words.
func TestRemoteMCPForwardingRefused(t *testing.T) {
	srv := sshtest.StartWith(t, sshtest.Options{SSHDConfig: "AllowTcpForwarding no"})
	rp := openTestRemote(t, srv)
	m, err := newRemoteMCP(rp.conn, t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.close)
	got, notes := m.servers(context.Background(), true)
	if len(got) != 0 || len(notes) != 1 || !strings.HasPrefix(notes[0], toolsOff) || !strings.Contains(notes[0], "refuses port forwarding") ||
		!strings.Contains(notes[0], "forwarding request failed") {
		t.Fatalf("servers on a server that refuses: %v %q", got, notes)
	}
}
