//go:build unix

package agent

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeHost is a Host on this machine that behaves as a remote one would:
// its commands get only the environment given (plus PATH and HOME), a
// marker variable, and staged files live in a directory of its own.
type fakeHost struct {
	stageDir string

	mu     sync.Mutex
	staged []string // the names staged, in order
	argv   [][]string
}

func (h *fakeHost) Label() string { return "fakehost" }

func (h *fakeHost) Command(ctx context.Context, dir string, argv, env []string) (*exec.Cmd, error) {
	h.mu.Lock()
	h.argv = append(h.argv, argv)
	h.mu.Unlock()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "ON_FAKE_HOST=1"}, env...)
	return cmd, nil
}

func (h *fakeHost) Stage(_ context.Context, name, path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	h.mu.Lock()
	n := len(h.staged)
	h.staged = append(h.staged, name)
	h.mu.Unlock()
	dir := filepath.Join(h.stageDir, fmt.Sprint(n))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	p := filepath.Join(dir, name)
	return p, os.WriteFile(p, data, 0o600)
}

// An exec: agent on a Host runs there, in the turn's directory of the
// host, with the attachments and the history staged and laid out under
// $CHIPCHAT_ATTACHMENTS as locally; the host's turn directory goes when
// the command ends.
func TestExecOnHostStagesAttachmentsAndHistory(t *testing.T) {
	remoteDir := t.TempDir()
	src := t.TempDir()
	pic := filepath.Join(src, "blob")
	if err := os.WriteFile(pic, []byte("\x89PNG bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	host := &fakeHost{stageDir: t.TempDir()}
	b, err := NewWith("exec:"+`echo "host=$ON_FAKE_HOST"; pwd; cat "$CHIPCHAT_ATTACHMENTS/ctx_1/shot.png"; echo; cat "$CHIPCHAT_HISTORY"; echo; echo "$CHIPCHAT_ATTACHMENTS"`, Options{Host: host})
	if err != nil {
		t.Fatal(err)
	}
	var c collect
	turn := Turn{Dir: remoteDir, Prompt: "look", Attachments: []Attachment{{ContextID: "ctx_1", Name: "shot.png", MimeType: "image/png", Path: pic}},
		History: []HistoryMessage{{Role: "user", Text: "earlier question"}}}
	if err := b.Run(context.Background(), turn, func(e Event) {
		if d, ok := e.(TextDelta); ok {
			c.emit(d.Text)
		}
	}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(c.text()), "\n")
	if len(lines) != 5 {
		t.Fatalf("output %q", c.text())
	}
	if lines[0] != "host=1" {
		t.Errorf("the command did not run on the host: %q", lines[0])
	}
	if want, _ := filepath.EvalSymlinks(remoteDir); lines[1] != want && lines[1] != remoteDir {
		t.Errorf("ran in %q, want %q", lines[1], remoteDir)
	}
	if lines[2] != "\x89PNG bytes" {
		t.Errorf("attachment bytes on the host = %q", lines[2])
	}
	if !strings.Contains(lines[3], "earlier question") {
		t.Errorf("history on the host = %q", lines[3])
	}
	if _, err := os.Stat(lines[4]); !os.IsNotExist(err) {
		t.Errorf("the host's turn directory %s is still there: %v", lines[4], err)
	}
	if got := strings.Join(host.staged, ","); got != "history.json,shot.png" {
		t.Errorf("staged %q", got)
	}
}

// An acp: agent on a Host is offered neither client fs nor terminals, and
// a read, write or terminal it asks for anyway is refused with a notice:
// serving it here would act on the wrong machine.
func TestACPOnHostRefusesClientFS(t *testing.T) {
	host := &fakeHost{stageDir: t.TempDir()}
	h := newACPHarness(t, ACPOptions{Host: host})
	if err := os.WriteFile(filepath.Join(h.dir, "in.txt"), []byte("one\ntwo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	evs := h.mustTurn("a", "[fs]")
	caps := fmt.Sprint(h.event("initialize")["caps"])
	if strings.Contains(caps, "readTextFile:true") || strings.Contains(caps, "terminal:true") {
		t.Errorf("initialize offered %s", caps)
	}
	if e := h.event("read"); !strings.Contains(e["err"].(string), "fakehost") {
		t.Errorf("read = %v", e)
	}
	if e := h.event("write"); !strings.Contains(e["err"].(string), "fakehost") {
		t.Errorf("write = %v", e)
	}
	if b, _ := os.ReadFile(filepath.Join(h.dir, "in.txt")); string(b) != "one\ntwo\n" {
		t.Errorf("in.txt was written: %q", b)
	}
	var notices []string
	for _, n := range acpOf[Notice](evs) {
		notices = append(notices, n.Text)
	}
	if !strings.Contains(strings.Join(notices, "\n"), "chipchat refused the agent's write of") {
		t.Errorf("notices %q", notices)
	}
	if len(host.argv) == 0 || host.argv[0][0] != "sh" {
		t.Errorf("the agent did not start through the host: %q", host.argv)
	}
}

// droppingHost is a fakeHost whose connection dropped, or not, as the
// test says.
type droppingHost struct {
	*fakeHost
	dropped bool
}

func (h droppingHost) DroppedSince(context.Context, time.Time) bool { return h.dropped }

// A command over a host that ends as ssh does when its connection ends
// (status 255) while the connection dropped says so in words; the same
// status with the connection up is the command's own.
func TestExecOnHostSaysTheConnectionDropped(t *testing.T) {
	for _, dropped := range []bool{true, false} {
		h := droppingHost{&fakeHost{stageDir: t.TempDir()}, dropped}
		err := (Exec{Command: "exit 255", Host: h}).Run(context.Background(), Turn{Dir: t.TempDir()}, func(Event) {})
		said := err != nil && strings.Contains(err.Error(), "the connection to fakehost dropped while the command ran")
		if said != dropped {
			t.Errorf("dropped %v: %v", dropped, err)
		}
		if !dropped && (err == nil || !strings.Contains(err.Error(), "exited with status 255")) {
			t.Errorf("connection up: %v", err)
		}
	}
	// A host without a link: the status alone.
	err := (Exec{Command: "exit 255", Host: &fakeHost{stageDir: t.TempDir()}}).Run(context.Background(), Turn{Dir: t.TempDir()}, func(Event) {})
	if err == nil || !strings.Contains(err.Error(), "exited with status 255") {
		t.Errorf("a host without a link: %v", err)
	}
}

// TestServeHelperProcess is chipchat's helper when this test binary is
// re-executed as one (helperHost).
func TestServeHelperProcess(t *testing.T) {
	runAsAgent("CHIPCHAT_TEST_HELPER", func() { _ = ServeHelper(os.Stdin, os.Stdout) })
}

// helperHost is a fakeHost with chipchat's helper (this test binary), or
// none when err says why.
type helperHost struct {
	*fakeHost
	err error
}

func (h helperHost) Helper(context.Context) (*exec.Cmd, error) {
	if h.err != nil {
		return nil, h.err
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeHelperProcess$")
	cmd.Env = append(os.Environ(), "CHIPCHAT_TEST_HELPER=1")
	return cmd, nil
}

// An acp: agent on a Host with chipchat's helper is offered client fs and
// gets it served there; with no terminal host for that Host its terminals
// are neither offered nor run (not here, on the wrong machine).
func TestACPOnHostWithHelperServesFS(t *testing.T) {
	host := helperHost{fakeHost: &fakeHost{stageDir: t.TempDir()}}
	h := newACPHarness(t, ACPOptions{Host: host})
	if err := os.WriteFile(filepath.Join(h.dir, "in.txt"), []byte("one\ntwo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.mustTurn("a", "[fs]")
	caps := fmt.Sprint(h.event("initialize")["caps"])
	if !strings.Contains(caps, "readTextFile:true") || !strings.Contains(caps, "writeTextFile:true") || strings.Contains(caps, "terminal:true") {
		t.Errorf("initialize offered %s", caps)
	}
	if e := h.event("read"); e["content"] != "two\n" || e["err"] != "<nil>" {
		t.Errorf("read = %v", e)
	}
	if b, _ := os.ReadFile(filepath.Join(h.dir, "in.txt")); string(b) != "one\nTWO\n" {
		t.Errorf("in.txt holds %q", b)
	}
	evs := h.mustTurn("a", "[term]")
	if e := h.event("term"); !strings.Contains(fmt.Sprint(e["err"]), "does not serve terminal/create there") {
		t.Errorf("term = %v", e)
	}
	var notices []string
	for _, n := range acpOf[Notice](evs) {
		notices = append(notices, n.Text)
	}
	if !strings.Contains(strings.Join(notices, "\n"), "chipchat refused the agent's command") {
		t.Errorf("notices %q", notices)
	}
}

// When the Host's helper cannot run, the refusal says why.
func TestACPOnHostWithoutItsHelperSaysWhy(t *testing.T) {
	host := helperHost{fakeHost: &fakeHost{stageDir: t.TempDir()}, err: fmt.Errorf("the remote is darwin/arm64, chipchat here is linux/amd64")}
	h := newACPHarness(t, ACPOptions{Host: host})
	h.mustTurn("a", "[fs]")
	if e := h.event("write"); !strings.Contains(e["err"].(string), "does not serve fs/write_text_file there (the remote is darwin/arm64") {
		t.Errorf("write = %v", e)
	}
}
