package agent

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// helperPipe is ServeHelper on one end of two pipes and a helperClient
// on the other, as over ssh.
func helperPipe(t *testing.T) *helperClient {
	t.Helper()
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		err := ServeHelper(reqR, respW)
		respW.CloseWithError(io.EOF)
		served <- err
	}()
	h := &helperClient{stdin: reqW, label: "box", waiting: map[uint64]chan helperResponse{}, done: make(chan struct{})}
	br := bufio.NewReader(respR)
	var hello helperResponse
	if err := skipToSync(br); err != nil {
		t.Fatal(err)
	}
	if err := readHelperFrame(br, &hello); err != nil || hello.Text != helperHello {
		t.Fatalf("hello %+v, %v", hello, err)
	}
	go func() {
		for {
			var resp helperResponse
			if err := readHelperFrame(br, &resp); err != nil {
				h.end(err)
				return
			}
			h.deliver(resp)
		}
	}()
	t.Cleanup(func() {
		reqW.Close()
		if err := <-served; err != nil {
			t.Errorf("ServeHelper: %v", err)
		}
	})
	return h
}

// The helper answers reads and writes as acpFS does here, concurrently,
// with the same refusals and whether the user is told of them.
func TestHelperProtocolServesACPFS(t *testing.T) {
	h := helperPipe(t)
	proj := t.TempDir()
	out := t.TempDir()
	os.WriteFile(filepath.Join(proj, "a.txt"), []byte("one\ntwo\n"), 0o644)
	os.WriteFile(filepath.Join(out, "secret"), []byte("s\n"), 0o644)
	os.Symlink(filepath.Join(out, "secret"), filepath.Join(proj, "link"))
	roots := []string{proj}
	w, tell, err := h.writeText(roots, filepath.Join(proj, "a.txt"), "three\n")
	if err != nil || tell || w.Old == nil || *w.Old != "one\ntwo\n" || w.Name != "a.txt" {
		t.Fatalf("write: %+v %v %v", w, tell, err)
	}
	line, limit := 1, 1
	text, _, err := h.readText(roots, filepath.Join(proj, "a.txt"), &line, &limit)
	if err != nil || text != "three\n" {
		t.Fatalf("read: %q %v", text, err)
	}
	local := newACPFS(nil)
	defer local.close()
	os.WriteFile(filepath.Join(proj, "bin"), []byte{0xff, 0}, 0o644)
	for _, p := range []string{filepath.Join(proj, "link"), filepath.Join(proj, "missing"), "/etc/passwd", filepath.Join(proj, "bin")} {
		_, tellH, errH := h.readText(roots, p, nil, nil)
		_, tellL, errL := local.readText(roots, p, nil, nil)
		if errH == nil || errL == nil || errH.Error() != errL.Error() || tellH != tellL {
			t.Errorf("read %s: helper %v (%v), here %v (%v)", p, errH, tellH, errL, tellL)
		}
	}
	for _, p := range []string{filepath.Join(proj, "link"), "/etc/passwd", filepath.Join(proj, ".git", "config"), proj} {
		_, tellH, errH := h.writeText(roots, p, "x")
		_, tellL, errL := local.writeText(roots, p, "x")
		if errH == nil || errL == nil || errH.Error() != errL.Error() || tellH != tellL {
			t.Errorf("write %s: helper %v (%v), here %v (%v)", p, errH, tellH, errL, tellL)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(out, "secret")); string(b) != "s\n" {
		t.Errorf("the file outside holds %q", b)
	}
}

// A helper that ends fails the requests waiting and every later one,
// saying it ended.
func TestHelperClientEnds(t *testing.T) {
	h := helperPipe(t)
	h.end(errors.New("chipchat's helper on box ended: gone"))
	_, tell, err := h.readText([]string{t.TempDir()}, "/x", nil, nil)
	if err == nil || !tell || !strings.Contains(err.Error(), "helper on box ended: gone") {
		t.Errorf("after the end: %v (tell %v)", err, tell)
	}
}

// A frame longer than the limit is refused before its body is read.
func TestHelperFrameLimit(t *testing.T) {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, uint32(helperMaxFrame+1))
	var req helperRequest
	if err := readHelperFrame(&b, &req); !errors.Is(err, errHelperFrame) {
		t.Errorf("%v, want a bad frame", err)
	}
}

// helperDir finds a terminal's directory inside the root and refuses one
// that leads out of it through a symlink.
func TestHelperExecDir(t *testing.T) {
	proj, out := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(proj, "sub"), 0o755)
	os.Symlink(out, filepath.Join(proj, "away"))
	real, _ := filepath.EvalSymlinks(filepath.Join(proj, "sub"))
	if d, err := helperDir([]string{proj}, filepath.Join(proj, "sub")); err != nil || d != real {
		t.Errorf("sub: %q %v, want %q", d, err, real)
	}
	if _, err := helperDir([]string{proj}, filepath.Join(proj, "away")); err == nil || !strings.Contains(err.Error(), "outside the project directory") {
		t.Errorf("away: %v", err)
	}
	if _, err := helperDir([]string{proj}, out); err == nil || !strings.Contains(err.Error(), "outside the project directory") {
		t.Errorf("outside: %v", err)
	}
}

// FuzzHelperFrame: any bytes decode without a panic to a request or an
// error; a request decoded encodes to a frame that decodes to the same.
func FuzzHelperFrame(f *testing.F) {
	frame := func(s string) []byte {
		b := binary.BigEndian.AppendUint32(nil, uint32(len(s)))
		return append(b, s...)
	}
	f.Add(frame(`{"id":1,"op":"read","roots":["/p"],"path":"/p/a","line":2,"limit":3}`))
	f.Add(frame(`{"id":2,"op":"write","roots":["/p"],"path":"/p/a","content":"x\n"}`))
	f.Add(frame(`{"id":`))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Add(append(frame(`{"id":3}`), frame(`{"id":4,"op":"read"}`)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		for {
			var req helperRequest
			if err := readHelperFrame(r, &req); err != nil {
				return
			}
			var b bytes.Buffer
			if err := writeHelperFrame(&b, req); err != nil {
				t.Fatalf("re-encoding %+v: %v", req, err)
			}
			var again helperRequest
			if err := readHelperFrame(&b, &again); err != nil {
				t.Fatalf("decoding the re-encoded %+v: %v", req, err)
			}
			if again.ID != req.ID || again.Op != req.Op || again.Path != req.Path || again.Content != req.Content || len(again.Roots) != len(req.Roots) {
				t.Fatalf("%+v became %+v", req, again)
			}
		}
	})
}

// The helper refuses writes into chipchat's directories of its own
// machine, the staging directory ~/.cache/chipchat (its own binary, the
// staged attachments) among them, even in a project that holds them.
func TestHelperProtectsItsStagingDirectory(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "elsewhere"))
	bin := filepath.Join(home, ".cache", "chipchat", "bin", "abc", "chipchat")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	os.WriteFile(bin, []byte("the helper"), 0o755)
	h := helperPipe(t)
	_, tell, err := h.writeText([]string{home}, bin, "pwned")
	if err == nil || !tell || !strings.Contains(err.Error(), "inside chipchat's own directory") {
		t.Errorf("write of the staged helper: %v (tell %v)", err, tell)
	}
	if b, _ := os.ReadFile(bin); string(b) != "the helper" {
		t.Errorf("the staged helper holds %q", b)
	}
}

// What a login shell prints before the helper starts is skipped, however
// it ends (a part of the marker among it too); past helperNoiseMax bytes,
// or at the end of the output, the helper did not start.
func TestHelperSkipsNoiseBeforeItsStart(t *testing.T) {
	for _, noise := range []string{"", "hello from .profile\n", "\x00chipchat-hel\x00\x00chip", strings.Repeat("x", helperNoiseMax)} {
		br := bufio.NewReader(strings.NewReader(noise + helperSync + "after"))
		if err := skipToSync(br); err != nil {
			t.Errorf("%q: %v", noise, err)
			continue
		}
		if rest, _ := io.ReadAll(br); string(rest) != "after" {
			t.Errorf("%q: then %q", noise, rest)
		}
	}
	if err := skipToSync(bufio.NewReader(strings.NewReader(strings.Repeat("x", helperNoiseMax+1) + helperSync))); !errors.Is(err, errHelperFrame) {
		t.Errorf("too much noise: %v", err)
	}
	if err := skipToSync(bufio.NewReader(strings.NewReader("no start"))); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("no start: %v", err)
	}
}

// FuzzHelperStart: any output before the helper's frames is skipped or
// refused without a panic; when skipped, what follows the marker is left
// to read, and no more than helperNoiseMax bytes came before it.
func FuzzHelperStart(f *testing.F) {
	f.Add("noise\n" + helperSync + "rest")
	f.Add("\x00chip\x00" + helperSync)
	f.Add("")
	f.Fuzz(func(t *testing.T, out string) {
		br := bufio.NewReader(strings.NewReader(out))
		if err := skipToSync(br); err != nil {
			return
		}
		rest, _ := io.ReadAll(br)
		head := out[:len(out)-len(rest)]
		if !strings.HasSuffix(head, helperSync) || strings.Index(head, helperSync) != len(head)-len(helperSync) || len(head)-len(helperSync) > helperNoiseMax {
			t.Fatalf("%q skipped as %q", out, head)
		}
	})
}
