package mcpserver

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPPath is the endpoint's path in its URL.
const HTTPPath = "/mcp"

// HTTPEndpoint serves the server's tools over MCP's streamable HTTP
// transport (the go-sdk's handler) on a unix socket of this machine, for
// an agent that runs elsewhere: package remote forwards a port of the
// remote machine to the socket. Every request carries a bearer token the
// endpoint minted (NewToken, one per agent session); a request without
// one, or with another, is answered 401 and reaches no tool. An MCP
// session stays with the token that opened it.
type HTTPEndpoint struct {
	srv  *Server
	http *http.Server
	ln   net.Listener
	path string

	mu     sync.Mutex
	tokens map[string]bool
}

// HTTPSocketPath is the endpoint's socket beside the panes socket:
// mcp-<pid>.sock in the same 0700 directory.
func HTTPSocketPath() (string, error) {
	panes, err := SocketPath()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(panes), "mcp-"+strconv.Itoa(os.Getpid())+".sock"), nil
}

// ListenHTTP serves a new Server of opt on the unix socket path (mode
// 0600; a stale socket there is replaced). Close it with the app.
func ListenHTTP(path string, opt Options) (*HTTPEndpoint, error) {
	if len(path) > maxSocketPath {
		return nil, fmt.Errorf("mcpserver: the socket path %s is longer than a unix socket allows (%d bytes)", path, maxSocketPath)
	}
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	e := &HTTPEndpoint{srv: NewServer(opt), ln: ln, path: path, tokens: map[string]bool{}}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return e.srv.MCP() }, nil)
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, auth.RequireBearerToken(e.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h))
	e.http = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go e.http.Serve(ln)
	return e, nil
}

// verify accepts the tokens NewToken minted; the token is the MCP
// session's user, so a session id is of no use with another token.
func (e *HTTPEndpoint) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for t := range e.tokens {
		if subtle.ConstantTimeCompare([]byte(t), []byte(token)) == 1 {
			return &auth.TokenInfo{UserID: t}, nil
		}
	}
	return nil, fmt.Errorf("%w: not a token of this chipchat", auth.ErrInvalidToken)
}

// NewToken mints a bearer token the endpoint accepts from now on (256
// random bits, hex).
func (e *HTTPEndpoint) NewToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	t := hex.EncodeToString(b)
	e.mu.Lock()
	e.tokens[t] = true
	e.mu.Unlock()
	return t
}

// Path is the socket's path.
func (e *HTTPEndpoint) Path() string { return e.path }

// Close stops serving, removes the socket and closes the server's store.
func (e *HTTPEndpoint) Close() error {
	err := e.http.Close()
	_ = os.Remove(e.path)
	if cerr := e.srv.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
