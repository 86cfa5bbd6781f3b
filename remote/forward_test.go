package remote

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/sshtest"
)

// serveSocket listens on a unix socket that answers each connection with
// greeting and closes it.
func serveSocket(t *testing.T, greeting string) string {
	t.Helper()
	path := filepath.Join(shortDir(t), "l.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			io.WriteString(c, greeting)
			c.Close()
		}
	}()
	return path
}

// readPort reads what the remote's 127.0.0.1:port answers (the server
// is this machine, so the test dials the port sshd listens on itself).
func readPort(port int) (string, error) {
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), 5*time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	b, err := io.ReadAll(c)
	return string(b), err
}

// Forward makes sshd listen on a loopback port of the remote whose
// connections reach the local socket over the master; Unforward ends it.
func TestForwardCarriesARemotePortToALocalSocket(t *testing.T) {
	s, c := newConn(t, Options{})
	ctx := context.Background()
	local := serveSocket(t, "hello from this machine")
	port, err := c.Forward(ctx, local)
	if err != nil {
		t.Fatalf("Forward: %v\n%s", err, s.Log())
	}
	got, err := readPort(port)
	if err != nil || got != "hello from this machine" {
		t.Fatalf("the remote port %d answered %q, %v", port, got, err)
	}
	if !strings.Contains(s.Log(), "127.0.0.1") {
		t.Logf("sshd log:\n%s", s.Log())
	}
	pid, err := c.MasterPID(ctx)
	if err != nil || pid <= 0 {
		t.Fatalf("MasterPID: %d, %v", pid, err)
	}
	if err := c.Unforward(ctx, local); err != nil {
		t.Fatalf("Unforward: %v", err)
	}
	if got, err := readPort(port); err == nil && got != "" {
		t.Fatalf("the port still answers after Unforward: %q", got)
	}
}

// A server that refuses forwarding gives one line of kind
// ErrForwardRefused with ssh's own words, and the master goes on.
func TestForwardRefusedByTheServer(t *testing.T) {
	s := sshtest.StartWith(t, sshtest.Options{SSHDConfig: "AllowTcpForwarding no\nAllowStreamLocalForwarding no"})
	proj := filepath.Join(s.Home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	c := dial(t, s, proj, Options{ConfigFile: s.ConfigFile})
	ctx := context.Background()
	_, err := c.Forward(ctx, serveSocket(t, "x"))
	if !errors.Is(err, ErrForwardRefused) {
		t.Fatalf("Forward on a server that refuses: %v, want ErrForwardRefused", err)
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, "refuses port forwarding") || !strings.Contains(msg, "forwarding") || !strings.Contains(msg, sshtest.HostAlias) {
		t.Fatalf("the refusal is %q", msg)
	}
	if _, err := c.Run(ctx, []string{"true"}, nil); err != nil || !c.Alive(ctx) {
		t.Fatalf("the master after the refusal: alive %v, run %v", c.Alive(ctx), err)
	}
}

func TestParseForwardPort(t *testing.T) {
	for in, want := range map[string]int{"42965\n": 42965, "1": 1, " 65535 \n": 65535, "": 0, "0": 0, "65536": 0, "12a": 0, "-1": 0, "1\n2": 0, "+80": 0} {
		if got, ok := parseForwardPort([]byte(in)); got != want || ok != (want != 0) {
			t.Errorf("parseForwardPort(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
}

func FuzzParseForwardPort(f *testing.F) {
	f.Add([]byte("42965\n"))
	f.Add([]byte("0"))
	f.Add([]byte("99999"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, ok := parseForwardPort(b)
		if ok != (n > 0) || n > 65535 {
			t.Fatalf("parseForwardPort(%q) = %d, %v", b, n, ok)
		}
		if ok && strconv.Itoa(n) != strings.TrimLeft(strings.TrimSpace(string(b)), "0") {
			t.Fatalf("parseForwardPort(%q) = %d: not the number printed", b, n)
		}
	})
}

func TestParseMasterPID(t *testing.T) {
	for in, want := range map[string]int{"Master running (pid=13312)\r\n": 13312, "x\nMaster running (pid=7)": 7, "Master running (pid=)": 0,
		"Master running (pid=12": 0, "Master running (pid=-3)": 0, "No ControlPath": 0, "Master running (pid=0)": 0} {
		if got, ok := parseMasterPID([]byte(in)); got != want || ok != (want != 0) {
			t.Errorf("parseMasterPID(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
}

func FuzzParseMasterPID(f *testing.F) {
	f.Add([]byte("Master running (pid=13312)\r\n"))
	f.Add([]byte("Master running (pid=99999999999)"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, ok := parseMasterPID(b)
		if ok != (n > 0) {
			t.Fatalf("parseMasterPID(%q) = %d, %v", b, n, ok)
		}
		if ok && !strings.Contains(string(b), "(pid="+strconv.Itoa(n)+")") {
			t.Fatalf("parseMasterPID(%q) = %d: not the pid printed", b, n)
		}
	})
}
