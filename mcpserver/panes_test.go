package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/terminal"
)

// fakeTerminals makes terminals with text written to their screens (no
// process runs).
func fakeTerminals(texts ...string) []*terminal.Terminal {
	var out []*terminal.Terminal
	for i, text := range texts {
		n := fmt.Sprint(i + 1)
		t := terminal.NewTerminal("term-"+n, "Terminal "+n, 60, 6, 500)
		t.Do(func(s *terminal.Screen) { s.Write([]byte(text)) })
		out = append(out, t)
	}
	return out
}

func listen(t *testing.T, read PaneFunc) *PaneServer {
	t.Helper()
	path := filepath.Join(t.TempDir(), "panes.sock")
	s, err := ListenPanes(path, read)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestPaneServer(t *testing.T) {
	var terms Terminals
	terms.Set(fakeTerminals("$ make\r\nok\r\n$ ", "\x1b[31mred\x1b[m \x1b]8;;http://x\athe link\x1b]8;;\a\r\n\x07bell\r\n"))
	s := listen(t, terms.Read)
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v, want a socket with 0600", fi.Mode())
	}
	ctx := context.Background()

	all, err := ReadPanes(ctx, s.Path(), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].ID != "term-1" || all[1].Label != "Terminal 2" {
		t.Fatalf("all panes: %+v", all)
	}
	if got := strings.Join(all[0].Lines, "\n"); got != "$ make\nok\n$" {
		t.Fatalf("pane 1 text %q", got)
	}
	if got := strings.Join(all[1].Lines, "\n"); got != "red the link\nbell" {
		t.Fatalf("pane 2 text %q (control sequences must be gone)", got)
	}
	for _, name := range []string{"term-2", "Terminal 2", "terminal 2", "2"} {
		one, err := ReadPanes(ctx, s.Path(), name, 1)
		if err != nil || len(one) != 1 || one[0].ID != "term-2" || len(one[0].Lines) != 1 || one[0].Lines[0] != "bell" {
			t.Fatalf("pane %q: %+v, %v", name, one, err)
		}
	}
	_, err = ReadPanes(ctx, s.Path(), "Terminal 9", 10)
	if err == nil || !strings.Contains(err.Error(), `no terminal named "Terminal 9"`) || !strings.Contains(err.Error(), "Terminal 2 (term-2)") {
		t.Fatalf("unknown pane: %v", err)
	}
	if errors.Is(err, ErrNoApp) {
		t.Fatal("an answer from the app is not ErrNoApp")
	}

	// a bad request gets an error answer, not a hang
	c, err := net.Dial("unix", s.Path())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "{not json\n")
	line, err := bufio.NewReader(c).ReadString('\n')
	c.Close()
	if err != nil || !strings.Contains(line, `"error":"bad request`) {
		t.Fatalf("bad request answer %q, %v", line, err)
	}

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(s.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket left after Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := ReadPanes(ctx, s.Path(), "", 0); !errors.Is(err, ErrNoApp) {
		t.Fatalf("after Close: %v, want ErrNoApp", err)
	}
}

func TestPaneServerNoTerminals(t *testing.T) {
	var terms Terminals
	s := listen(t, terms.Read)
	if _, err := ReadPanes(context.Background(), s.Path(), "", 0); err == nil || !strings.Contains(err.Error(), "no terminal open") {
		t.Fatalf("no terminals: %v", err)
	}
}

func TestReadPanesNoApp(t *testing.T) {
	ctx := context.Background()
	if _, err := ReadPanes(ctx, "", "", 0); !errors.Is(err, ErrNoApp) {
		t.Fatalf("no path: %v", err)
	}
	dir := t.TempDir()
	if _, err := ReadPanes(ctx, filepath.Join(dir, "none.sock"), "", 0); !errors.Is(err, ErrNoApp) {
		t.Fatalf("no socket: %v", err)
	}
	// a socket file nobody listens on (an app that crashed)
	stale := filepath.Join(dir, "stale.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if _, err := ReadPanes(ctx, stale, "", 0); !errors.Is(err, ErrNoApp) {
		t.Fatalf("stale socket: %v", err)
	}
	// ListenPanes takes the stale socket's place
	s, err := ListenPanes(stale, func(string, int) ([]PaneText, error) { return []PaneText{{ID: "x", Lines: []string{}}}, nil })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if p, err := ReadPanes(ctx, stale, "", 0); err != nil || len(p) != 1 {
		t.Fatalf("after replacing the stale socket: %+v, %v", p, err)
	}
	// but not a live one, nor a file that is no socket
	if _, err := ListenPanes(stale, func(string, int) ([]PaneText, error) { return nil, nil }); err == nil {
		t.Fatal("ListenPanes took a socket in use")
	}
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, nil, 0o600)
	if _, err := ListenPanes(plain, func(string, int) ([]PaneText, error) { return nil, nil }); err == nil {
		t.Fatal("ListenPanes replaced a plain file")
	}
}

func TestSocketPath(t *testing.T) {
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	p, err := SocketPath()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(run, "chipchat", fmt.Sprintf("panes-%d.sock", os.Getpid())); p != want {
		t.Fatalf("path %s, want %s", p, want)
	}
	if fi, err := os.Stat(filepath.Dir(p)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("socket directory: %v, %v", fi.Mode(), err)
	}
	state := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("XDG_STATE_HOME", state)
	if p, err := SocketPath(); err != nil || filepath.Dir(p) != filepath.Join(state, "chipchat") {
		t.Fatalf("without a runtime dir: %s, %v", p, err)
	}
	t.Setenv("XDG_RUNTIME_DIR", "/"+strings.Repeat("d", 120))
	if _, err := SocketPath(); err == nil || !strings.Contains(err.Error(), "longer than a unix socket allows") {
		t.Fatalf("long path: %v", err)
	}
}

func TestFitPanes(t *testing.T) {
	mk := func(id string, n, width int) PaneText {
		p := PaneText{ID: id, FirstLine: 100}
		for i := range n {
			p.Lines = append(p.Lines, fmt.Sprintf("%0*d", width, i))
		}
		return p
	}
	// small panes are untouched
	small := []PaneText{mk("a", 3, 5)}
	if got := fitPanes(small, 1000); got[0].Truncated || len(got[0].Lines) != 3 {
		t.Fatalf("small: %+v", got)
	}
	// a small and a big pane: the small keeps everything, the big its newest
	// lines, and the whole fits
	got := fitPanes([]PaneText{mk("small", 2, 9), mk("big", 1000, 99)}, 10000)
	total := 0
	for _, p := range got {
		for _, l := range p.Lines {
			total += len(l) + 1
		}
	}
	if total > 10000 {
		t.Fatalf("fitted to %d bytes, budget 10000", total)
	}
	if got[0].Truncated || len(got[0].Lines) != 2 {
		t.Fatalf("small pane cut: %+v", got[0])
	}
	big := got[1]
	if !big.Truncated || big.Lines[len(big.Lines)-1] != fmt.Sprintf("%099d", 999) || big.FirstLine != 100+1000-int64(len(big.Lines)) {
		t.Fatalf("big pane: %d lines from %d, truncated %v", len(big.Lines), big.FirstLine, big.Truncated)
	}
	if len(big.Lines) < 95 {
		t.Fatalf("big pane kept %d lines; the budget holds ~98", len(big.Lines))
	}
	// one line longer than the budget: its end is kept, on a rune boundary
	long := PaneText{ID: "l", Lines: []string{"old", strings.Repeat("é", 100)}}
	got = fitPanes([]PaneText{long}, 51)
	if l := got[0].Lines; len(l) != 1 || len(l[0]) > 50 || !strings.HasPrefix(l[0], "é") || got[0].FirstLine != 1 {
		t.Fatalf("long line: %q from %d", l, got[0].FirstLine)
	}
}

// The server answers any request with one decodable line.
func FuzzPaneAnswer(f *testing.F) {
	f.Add([]byte(`{"terminal":"term-1","lines":5}` + "\n"))
	f.Add([]byte(`{"lines":-1}`))
	f.Add([]byte("\n"))
	f.Add([]byte(`{"terminal":"\u0000","lines":99999999999}`))
	f.Add([]byte(`{"thread":"thr_1"}`))
	var terms Terminals
	terms.Set(fakeTerminals("a\r\nb\r\n"))
	s := &PaneServer{read: terms.Read}
	s.SetScope(func(id string) (bool, error) { return id == "thr_1", nil })
	f.Fuzz(func(t *testing.T, req []byte) {
		out := s.answer(bufio.NewReader(bytes.NewReader(req)))
		if len(out) == 0 || out[len(out)-1] != '\n' || bytes.Count(out, []byte("\n")) != 1 {
			t.Fatalf("answer %q is not one line", out)
		}
		thread := bytes.Contains(req, []byte("thread"))
		resp, err := decodeAnswer(out[:len(out)-1], thread)
		var ae appError
		if err != nil && !errors.As(err, &ae) {
			resp, err = decodeAnswer(out[:len(out)-1], !thread) // "thread" was not the member
		}
		if err != nil && !errors.As(err, &ae) {
			t.Fatalf("answer %q does not decode: %v", out, err)
		}
		for _, p := range resp.Panes {
			if len(p.Lines) > MaxLines {
				t.Fatalf("%d lines", len(p.Lines))
			}
		}
	})
}

// Decoding an answer never panics and gives what was asked (panes, or
// whether a thread is readable) or an error.
func FuzzDecodeAnswer(f *testing.F) {
	f.Add([]byte(`{"panes":[{"id":"term-1","label":"T","running":true,"firstLine":3,"lines":["x"]}]}`))
	f.Add([]byte(`{"error":"no"}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"readable":false}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if resp, err := decodeAnswer(line, false); err == nil && resp.Panes == nil {
			t.Fatal("no panes and no error")
		}
		if resp, err := decodeAnswer(line, true); err == nil && resp.Readable == nil {
			t.Fatal("no readable and no error")
		}
	})
}
