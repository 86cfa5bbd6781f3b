package paste

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// storedMsg is what the test's Store returns.
type storedMsg struct {
	data []byte
	err  error
}

type rig struct {
	t   *testing.T
	f   *Filter
	w   *os.File
	got chan tea.Msg
}

func newRig(t *testing.T, opts Options) *rig {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	g := &rig{t: t, w: w, got: make(chan tea.Msg, 16)}
	if opts.Store == nil {
		opts.Store = func(r io.Reader) tea.Msg {
			b, err := io.ReadAll(r)
			return storedMsg{b, err}
		}
	}
	g.f = NewFilter(r, opts)
	// The writer goroutine may be slower than a terminal: wait for the rest
	// of a bracket as long as it takes.
	g.f.wait = func(f *os.File, _ time.Duration) bool { return waitReadable(f, 10*time.Second) }
	g.f.SetSend(func(m tea.Msg) { g.got <- m })
	return g
}

// events reads the filter until the writer is closed and splits what it
// passed into plain byte runs (as strings) and translated messages.
func (g *rig) events() []any {
	g.t.Helper()
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := g.f.Read(buf)
		if n > len(buf) {
			g.t.Fatalf("Read returned %d > %d", n, len(buf))
		}
		out = append(out, buf[:n]...)
		if err != nil {
			break
		}
	}
	var evs []any
	for len(out) > 0 {
		i := bytes.Index(out, []byte(markerPrefix))
		if i < 0 {
			evs = append(evs, string(out))
			break
		}
		if i > 0 {
			evs = append(evs, string(out[:i]))
		}
		j := bytes.Index(out[i:], []byte("\x1b\\"))
		if j < 0 {
			g.t.Fatalf("unterminated marker in %q", out[i:])
		}
		m := g.f.Translate(nil, uv.UnknownApcEvent(out[i:i+j+2]))
		if _, ok := m.(ProgressMsg); !ok {
			evs = append(evs, m)
		}
		out = out[i+j+2:]
	}
	return evs
}

// write sends chunks to the filter (in a goroutine: a pipe holds 64 KiB)
// and closes.
func (g *rig) write(chunks ...string) {
	go func() {
		for _, c := range chunks {
			if _, err := g.w.Write([]byte(c)); err != nil {
				return
			}
		}
		g.w.Close()
	}()
}

func paste(s string) string { return "\x1b[200~" + s + "\x1b[201~" }

func TestSmallPastePassesAsPasteMsgInOrder(t *testing.T) {
	g := newRig(t, Options{})
	g.write("ab\x1b[A", paste("line one\rline two"), "cd")
	evs := g.events()
	want := []any{"ab\x1b[A", tea.PasteMsg{Content: "line one\rline two"}, "cd"}
	if !equalEvents(evs, want) {
		t.Fatalf("events %q, want %q", evs, want)
	}
}

func TestPasteSplitAnywhere(t *testing.T) {
	stream := "x" + paste("héllo\r\nworld \x1b[201 not the end") + "\x1b" + "y" + paste("") + "z"
	for size := 1; size <= 7; size++ {
		var chunks []string
		for i := 0; i < len(stream); i += size {
			chunks = append(chunks, stream[i:min(i+size, len(stream))])
		}
		g := newRig(t, Options{})
		g.write(chunks...)
		evs := joinText(g.events())
		want := []any{"x", tea.PasteMsg{Content: "héllo\r\nworld \x1b[201 not the end"}, "\x1by", tea.PasteMsg{}, "z"}
		if !equalEvents(evs, want) {
			t.Fatalf("chunks of %d: events %q, want %q", size, evs, want)
		}
	}
}

// A lone ESC (the escape key) is not held back waiting for a paste.
func TestLoneEscapePasses(t *testing.T) {
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	f := NewFilter(r, Options{})
	w.Write([]byte("\x1b"))
	buf := make([]byte, 4096)
	n, err := f.Read(buf) // returns after the short wait, with the ESC
	if err != nil || string(buf[:n]) != "\x1b" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}
}

func TestLargePasteIsStreamed(t *testing.T) {
	body := strings.Repeat("0123456789abcdef", 4096) // 64 KiB
	g := newRig(t, Options{Threshold: 1000})
	g.write("a", paste(body[:30000]), paste(body[30000:]), "b")
	evs := g.events()
	for _, e := range evs {
		if p, ok := e.(tea.PasteMsg); ok {
			t.Fatalf("a large paste reached the program as a PasteMsg of %d bytes", len(p.Content))
		}
	}
	if cap(g.f.small) > 1000+4096 {
		t.Fatalf("the filter held %d bytes of a paste", cap(g.f.small))
	}
	var kinds []string
	for _, e := range evs {
		switch e := e.(type) {
		case string:
			kinds = append(kinds, e)
		case StartedMsg:
			kinds = append(kinds, "started")
		case EndedMsg:
			if e.Refused {
				t.Fatal("refused without a limit")
			}
			kinds = append(kinds, "ended")
		}
	}
	if strings.Join(kinds, " ") != "a started ended started ended b" {
		t.Fatalf("events %v", kinds)
	}
	var stored []string
	for range 2 {
		m := (<-g.got).(storedMsg)
		if m.err != nil {
			t.Fatal(m.err)
		}
		stored = append(stored, string(m.data))
	}
	if !(stored[0] == body[:30000] && stored[1] == body[30000:] || stored[1] == body[:30000] && stored[0] == body[30000:]) {
		t.Fatalf("stored %d and %d bytes", len(stored[0]), len(stored[1]))
	}
}

func TestLargePastePastLimitIsRefusedAtOnce(t *testing.T) {
	g := newRig(t, Options{Threshold: 100, Limit: 5000})
	var refusedAt int64
	readErr := make(chan error, 1)
	g.f.opts.Store = func(r io.Reader) tea.Msg {
		_, err := io.Copy(io.Discard, r)
		readErr <- err
		return storedMsg{err: err}
	}
	g.write(paste(strings.Repeat("z", 20000)), "after")
	evs := g.events()
	var names []string
	for _, e := range evs {
		switch e := e.(type) {
		case string:
			names = append(names, e)
		case StartedMsg:
			names = append(names, "started")
		case RefusedMsg:
			refusedAt = e.Bytes
			names = append(names, "refused")
			if e.Limit != 5000 {
				t.Errorf("limit %d", e.Limit)
			}
		case EndedMsg:
			if !e.Refused || e.Bytes != 20000 {
				t.Errorf("ended %+v", e)
			}
			names = append(names, "ended")
		}
	}
	if strings.Join(names, " ") != "started refused ended after" {
		t.Fatalf("events %v", names)
	}
	if refusedAt <= 5000 || refusedAt > 5000+4096 {
		t.Fatalf("refused after %d bytes, want as soon as it passed 5000", refusedAt)
	}
	if err := <-readErr; !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Store's reader ended with %v", err)
	}
	select {
	case m := <-g.got:
		t.Fatalf("a refused paste's Store message was sent: %v", m)
	case <-time.After(50 * time.Millisecond):
	}
}

func joinText(evs []any) []any {
	var out []any
	for _, e := range evs {
		if s, ok := e.(string); ok && len(out) > 0 {
			if prev, ok := out[len(out)-1].(string); ok {
				out[len(out)-1] = prev + s
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

func equalEvents(a, b []any) bool {
	a = joinText(a)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzFilter: whatever the chunking, keys pass in order and each paste
// arrives whole, small ones as PasteMsg and large ones through Store.
func FuzzFilter(f *testing.F) {
	f.Add("keys", "pasted\rtext", "more", uint8(3), uint16(8))
	f.Add("\x1b", "\x1b[201", "\x1b[20", uint8(1), uint16(2))
	f.Add("", strings.Repeat("q", 300), "", uint8(17), uint16(64))
	f.Fuzz(func(t *testing.T, before, body, after string, chunk uint8, threshold uint16) {
		if strings.Contains(before+body+after, "\x1b[20") || strings.Contains(before+after, "\x1b_") || strings.HasSuffix(before, "\x1b") || strings.HasSuffix(body, "\x1b") {
			return // brackets and markers inside the text are not what is fuzzed
		}
		th := int(threshold) + 1
		stream := before + paste(body) + after
		size := int(chunk%32) + 1
		var chunks []string
		for i := 0; i < len(stream); i += size {
			chunks = append(chunks, stream[i:min(i+size, len(stream))])
		}
		g := newRig(t, Options{Threshold: th})
		g.write(chunks...)
		evs := joinText(g.events())
		var text strings.Builder
		var pasted []string
		large := false
		for _, e := range evs {
			switch e := e.(type) {
			case string:
				text.WriteString(e)
			case tea.PasteMsg:
				pasted = append(pasted, e.Content)
			case StartedMsg:
				large = true
			}
		}
		if text.String() != before+after {
			t.Fatalf("keys %q, want %q", text.String(), before+after)
		}
		if large {
			m := (<-g.got).(storedMsg)
			if string(m.data) != body {
				t.Fatalf("stored %q, want %q", m.data, body)
			}
			return
		}
		if len(pasted) != 1 || pasted[0] != strings.ToValidUTF8(body, "") {
			t.Fatalf("pasted %q, want %q", pasted, body)
		}
	})
}
