package delayrelay

import (
	"bytes"
	"crypto/rand"
	"io"
	"net"
	"testing"
	"time"
)

// echoServer accepts one connection and writes back what it reads.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		io.Copy(c, c)
	}()
	return ln.Addr().String()
}

// A message through the relay to an echo server comes back whole, in
// order, and no sooner than the delay both ways; the relay ends once its
// input ends (the server sees the half-close and closes).
func TestRelayDelaysBothWaysInOrder(t *testing.T) {
	const delay = 40 * time.Millisecond
	conn, err := net.Dial("tcp", echoServer(t))
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		Relay(inR, outW, conn, delay)
		outW.Close()
		close(done)
	}()

	// A first byte: the round trip is at least both delays.
	start := time.Now()
	if _, err := inW.Write([]byte{'x'}); err != nil {
		t.Fatal(err)
	}
	one := make([]byte, 1)
	if _, err := io.ReadFull(outR, one); err != nil || one[0] != 'x' {
		t.Fatalf("the echo: %q, %v", one, err)
	}
	if rt := time.Since(start); rt < 2*delay {
		t.Errorf("the round trip took %v, under 2×%v", rt, delay)
	}

	// Then 1 MB in many writes: all back, in order.
	msg := make([]byte, 1<<20)
	rand.Read(msg)
	go func() {
		for b := msg; len(b) > 0; b = b[min(len(b), 1000):] {
			inW.Write(b[:min(len(b), 1000)])
		}
		inW.Close()
	}()
	got, err := io.ReadAll(outR)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, msg) {
		t.Fatalf("the echo of 1 MB differs: %d bytes back", len(got))
	}
	<-done
}

// Copy writes nothing before the delay and everything after it.
func TestCopyHoldsEachChunkForTheDelay(t *testing.T) {
	const delay = 30 * time.Millisecond
	r, w := io.Pipe()
	var dst timedWriter
	end := make(chan int64)
	go func() { end <- Copy(&dst, r, delay) }()
	var sent []time.Time
	for i := range 5 {
		sent = append(sent, time.Now())
		w.Write([]byte{byte('a' + i)})
	}
	w.Close()
	if n := <-end; n != 5 || string(dst.b) != "abcde" {
		t.Fatalf("copied %d bytes %q", n, dst.b)
	}
	for i, at := range dst.at {
		if d := at.Sub(sent[i]); d < delay {
			t.Errorf("byte %d written %v after it was sent, under %v", i, d, delay)
		}
	}
}

type timedWriter struct {
	b  []byte
	at []time.Time
}

func (w *timedWriter) Write(p []byte) (int, error) {
	for range p {
		w.at = append(w.at, time.Now())
	}
	w.b = append(w.b, p...)
	return len(p), nil
}
