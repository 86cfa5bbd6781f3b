package remote

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrForwardRefused is the kind of the *Error of a forwarding the server
// refused (sshd's AllowTcpForwarding no, or a Match block that says so).
var ErrForwardRefused = errors.New("refuses port forwarding")

// Forward asks the master to listen on a TCP port of the remote's
// loopback (127.0.0.1, a port sshd chooses) and to carry each connection
// made there to the unix socket local on this machine
// (`ssh -O forward -R 127.0.0.1:0:LOCAL`, which prints the port). The
// forwarding lasts as long as the master (until Unforward, a lost
// master, or Close); over a new master it must be asked again.
//
// A TCP port and not a remote unix socket: the agents take an MCP
// server's address as an http URL, which names no unix socket; a TCP
// port on the loopback is reachable by every user of the remote, so what
// is served there must check a secret of its own (the bearer token of
// mcpserver.HTTPEndpoint).
//
// A server that refuses is an *Error of kind ErrForwardRefused with
// ssh's line; the master goes on.
func (c *Conn) Forward(ctx context.Context, local string) (int, error) {
	if strings.ContainsAny(local, ":\n") || local == "" {
		return 0, fmt.Errorf("remote: cannot forward to the socket path %q", local)
	}
	out, err := c.control(ctx, "forward", "127.0.0.1:0:"+local)
	if err != nil {
		return 0, err
	}
	port, ok := parseForwardPort(out)
	if !ok {
		return 0, &Error{Host: c.t.Host, Kind: ErrSSH, Line: "ssh -O forward printed no port: " + clip(clean(strings.TrimSpace(string(out))))}
	}
	return port, nil
}

// Unforward ends the forwarding Forward made to local. (The master
// knows it by the port asked for, 0: `-O cancel` of the port sshd chose
// says "port not forwarded".)
func (c *Conn) Unforward(ctx context.Context, local string) error {
	_, err := c.control(ctx, "cancel", "127.0.0.1:0:"+local)
	return err
}

// control runs `ssh -O op -R spec` against the master (starting it first
// when it does not run) within the Conn's timeout.
func (c *Conn) control(ctx context.Context, op, spec string) ([]byte, error) {
	if err := c.Connect(ctx); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	cmd := c.command(ctx, append(c.sshArgs(true), "-O", op, "-R", spec), "")
	stdout, stderr, err := runPiped(ctx, cmd)
	if err == nil && lineWith(stderr, "request failed") == "" {
		return stdout, nil
	}
	if err == nil {
		// ssh -O cancel exits 0 when the master refused.
		return nil, &Error{Host: c.t.Host, Kind: ErrSSH, Line: lineWith(stderr, "request failed")}
	}
	if ctx.Err() == nil {
		if l := lineWith(stderr, "forwarding request failed"); l != "" {
			return nil, &Error{Host: c.t.Host, Kind: ErrForwardRefused, Line: l}
		}
	}
	e := c.sshError(ctx, "ssh -O "+op, c.o.Timeout, stderr, err)
	var ee *ExitError
	if errors.As(e, &ee) {
		// ssh -O exits 255 on every failure: all of them are ssh's.
		return nil, &Error{Host: c.t.Host, Kind: ErrSSH, Line: lastLine(stderr)}
	}
	return nil, e
}

// lineWith is the first line of b that holds s, cleaned; "" when none.
func lineWith(b []byte, s string) string {
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, s) {
			return clean(strings.TrimSpace(l))
		}
	}
	return ""
}

// parseForwardPort reads the port ssh -O forward printed: one decimal
// number on a line of its own (a login banner cannot come first: -O talks
// to the master only).
func parseForwardPort(out []byte) (int, bool) {
	s := strings.TrimSpace(string(out))
	if s == "" || len(s) > 5 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > 65535 {
		return 0, false
	}
	return n, true
}

// MasterPID is the process id of the running master (ssh -O check), so a
// caller can tell a master from the one that replaced it: forwardings do
// not survive a master.
func (c *Conn) MasterPID(ctx context.Context) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	_, stderr, err := runPiped(ctx, c.command(ctx, append(c.sshArgs(true), "-O", "check"), ""))
	if err != nil {
		return 0, c.sshError(ctx, "ssh -O check", c.o.Timeout, stderr, err)
	}
	pid, ok := parseMasterPID(stderr)
	if !ok {
		return 0, &Error{Host: c.t.Host, Kind: ErrSSH, Line: "ssh -O check said " + clip(lastLine(stderr))}
	}
	return pid, nil
}

// parseMasterPID reads ssh -O check's "Master running (pid=N)".
func parseMasterPID(b []byte) (int, bool) {
	_, rest, ok := strings.Cut(string(b), "Master running (pid=")
	if !ok {
		return 0, false
	}
	num, _, ok := strings.Cut(rest, ")")
	if !ok || num == "" || num[0] == '0' || len(num) > 10 || strings.Trim(num, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(num)
	return n, err == nil && n > 0
}
