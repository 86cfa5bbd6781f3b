package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// SessionMCPServers makes servers for each session: every session/new
// gets its own (here a token counted per call), after MCPServers, told
// whether the agent takes HTTP servers; its notes are the turn's notices.
func TestACPSessionMCPServers(t *testing.T) {
	var mu sync.Mutex
	var calls []bool
	hook := func(_ context.Context, http bool) ([]MCPServer, []string) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, http)
		n := len(calls)
		return []MCPServer{{Name: "chipchat", URL: "http://127.0.0.1:7/mcp", Headers: []string{fmt.Sprintf("Authorization: Bearer tok%d", n)}}},
			[]string{fmt.Sprintf("note %d", n)}
	}
	h := newACPHarness(t, ACPOptions{MCPServers: []MCPServer{{Name: "docs", Command: "srv"}}, SessionMCPServers: hook})
	evs := h.mustTurn("a", "hi")
	h.mustTurn("b", "hi")
	news := h.events("new")
	if len(news) != 2 {
		t.Fatalf("%d session/new, want 2", len(news))
	}
	for i, ev := range news {
		want := fmt.Sprintf(`[{"args":[],"command":"srv","env":[],"name":"docs"},{"headers":[{"name":"Authorization","value":"Bearer tok%d"}],"name":"chipchat","type":"http","url":"http://127.0.0.1:7/mcp"}]`, i+1)
		if ev["mcp"] != want {
			t.Errorf("session %d mcpServers =\n%v\nwant\n%s", i+1, ev["mcp"], want)
		}
	}
	if fmt.Sprint(calls) != "[true true]" {
		t.Errorf("the hook was told http = %v", calls)
	}
	var notes []string
	for _, n := range acpOf[Notice](evs) {
		notes = append(notes, n.Text)
	}
	if !strings.Contains(strings.Join(notes, "|"), "note 1") {
		t.Errorf("notices %q, want the hook's note", notes)
	}
}

// An agent that takes no HTTP servers is told so: the hook hears
// http=false and its note says why; an http server it returns anyway is
// left out.
func TestACPSessionMCPServersWithoutHTTP(t *testing.T) {
	var told []bool
	hook := func(_ context.Context, http bool) ([]MCPServer, []string) {
		told = append(told, http)
		if !http {
			return nil, []string{"chipchat's tools are off: the agent takes no HTTP MCP servers"}
		}
		return []MCPServer{{Name: "chipchat", URL: "http://127.0.0.1:7/mcp"}}, nil
	}
	h := newACPHarness(t, ACPOptions{SessionMCPServers: hook}, "CHIPCHAT_ACP_CAPS=none")
	evs := h.mustTurn("a", "hi")
	if got := h.event("new")["mcp"]; got != "[]" {
		t.Errorf("mcpServers = %v, want none", got)
	}
	if fmt.Sprint(told) != "[false]" {
		t.Errorf("the hook was told http = %v", told)
	}
	var notes []string
	for _, n := range acpOf[Notice](evs) {
		notes = append(notes, n.Text)
	}
	if !strings.Contains(strings.Join(notes, "|"), "takes no HTTP MCP servers") {
		t.Errorf("notices %q", notes)
	}
}
