// Package delayrelay is a relay that adds latency, for tests of a remote
// project over a slow link: used as ssh's ProxyCommand (a test binary
// re-executes itself as Main), it connects to a TCP address and copies
// stdin to the connection and the connection to stdout, each byte
// delivered a fixed delay after it was read, in order. Bandwidth is not
// limited: what is read is in flight at once (a link's latency, not a
// slow pipe), so 50 ms each way is 100 ms of round trip.
//
// It imports only the standard library.
package delayrelay

import (
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

// Env is the variable that makes a test binary run Main; its value is the
// delay each way (a time.ParseDuration string, e.g. "50ms").
const Env = "CHIPCHAT_DELAY_RELAY"

// AddrEnv names the TCP address Main connects to (host:port).
const AddrEnv = "CHIPCHAT_DELAY_RELAY_ADDR"

// Main relays stdin and stdout to the address of AddrEnv with the delay
// of Env each way, and exits: 0 once both directions ended, 1 on a bad
// setting or a failed connection (said on stderr, which ssh shows).
func Main() {
	delay, err := time.ParseDuration(os.Getenv(Env))
	if err != nil || delay < 0 {
		fmt.Fprintf(os.Stderr, "delayrelay: %s=%q: not a delay\n", Env, os.Getenv(Env))
		os.Exit(1)
	}
	conn, err := net.Dial("tcp", os.Getenv(AddrEnv))
	if err != nil {
		fmt.Fprintf(os.Stderr, "delayrelay: %v\n", err)
		os.Exit(1)
	}
	Relay(os.Stdin, os.Stdout, conn, delay)
	os.Exit(0)
}

// Relay copies in to conn and conn to out, each delayed by delay, until
// both directions end: when in ends, conn's write side is closed (a TCP
// half-close); when conn ends, Relay returns once what was read is
// written (ssh ends its ProxyCommand then).
func Relay(in io.Reader, out io.Writer, conn net.Conn, delay time.Duration) {
	up := make(chan struct{})
	go func() {
		defer close(up)
		Copy(conn, in, delay)
		if tc, ok := conn.(interface{ CloseWrite() error }); ok {
			tc.CloseWrite()
		} else {
			conn.Close()
		}
	}()
	Copy(out, conn, delay)
	conn.Close()
	// The way up may be blocked reading stdin, which ssh closes as it
	// ends; the session is over either way.
	select {
	case <-up:
	case <-time.After(delay + time.Second):
	}
}

// chunk is bytes read and when they may be written.
type chunk struct {
	due time.Time
	b   []byte
}

// Copy copies src to dst, every byte written no sooner than delay after
// it was read, in order, until src ends or dst fails. It returns the
// number of bytes written.
func Copy(dst io.Writer, src io.Reader, delay time.Duration) int64 {
	ch := make(chan chunk, 1024)
	go func() {
		defer close(ch)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				ch <- chunk{time.Now().Add(delay), buf[:n]}
			}
			if err != nil {
				return
			}
		}
	}()
	var written int64
	failed := false
	for c := range ch {
		if failed {
			continue // drain, so the reader is not blocked
		}
		if d := time.Until(c.due); d > 0 {
			time.Sleep(d) // the delay is what this package adds
		}
		n, err := dst.Write(c.b)
		written += int64(n)
		if err != nil {
			failed = true
		}
	}
	return written
}
