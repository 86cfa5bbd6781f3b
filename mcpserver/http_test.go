package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// unixClient is an HTTP client whose every connection goes to the unix
// socket path (as the forwarded remote port's do), sending token as its
// bearer token unless "".
func unixClient(path, token string) *http.Client {
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", path)
	}}
	return &http.Client{Transport: bearer{tr, token}}
}

type bearer struct {
	rt    http.RoundTripper
	token string
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.rt.RoundTrip(r)
}

func listenHTTP(t *testing.T, opt Options) *HTTPEndpoint {
	t.Helper()
	dir, err := os.MkdirTemp("", "mcp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	e, err := ListenHTTP(filepath.Join(dir, "mcp.sock"), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// The endpoint serves t3_thread_read over streamable HTTP to a client
// with a token it minted; without a token, or with one it did not mint,
// every request is 401 and no MCP session opens.
func TestHTTPEndpointNeedsItsBearerToken(t *testing.T) {
	opt, th, add := oneThread(t)
	add("the other thread's words")
	e := listenHTTP(t, opt)
	if fi, err := os.Stat(e.Path()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the socket: %v, %v", fi, err)
	}
	token := e.NewToken()
	if other := e.NewToken(); other == token || len(token) != 64 {
		t.Fatalf("tokens %q, %q", token, other)
	}
	url := "http://127.0.0.1:41234" + HTTPPath

	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: unixClient(e.Path(), token)}, nil)
	if err != nil {
		t.Fatalf("connect with the token: %v", err)
	}
	defer cs.Close()
	page, res := callIn(t, cs, map[string]any{"threadId": th.ID})
	if res.IsError || len(page.Messages) != 1 || page.Messages[0].Text != "the other thread's words" {
		t.Fatalf("t3_thread_read over HTTP: %+v %+v", page, res.Content)
	}

	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for name, tok := range map[string]string{"no token": "", "another token": strings.Repeat("ab", 32), "a cut token": token[:63]} {
		req, _ := http.NewRequest("POST", url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := unixClient(e.Path(), tok).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || strings.Contains(string(body), "chipchat") && strings.Contains(string(body), "serverInfo") {
			t.Errorf("%s: status %d, body %q; want 401", name, resp.StatusCode, body)
		}
	}

	// A session opened with one token is not served to another.
	req, _ := http.NewRequest("POST", url, strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := unixClient(e.Path(), token).Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize with the token: %v %v", resp, err)
	}
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatal("no session id")
	}
	list, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
	req, _ = http.NewRequest("POST", url, strings.NewReader(string(list)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err = unixClient(e.Path(), e.NewToken()).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK || strings.Contains(string(body), ToolThreadRead) {
		t.Fatalf("another token's request in the session: %d %q", resp.StatusCode, body)
	}

	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(e.Path()); !os.IsNotExist(err) {
		t.Fatalf("the socket is left after Close: %v", err)
	}
}
