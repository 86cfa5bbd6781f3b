//go:build unix

package clipboard

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/internal/testenv"
)

// startSway runs a headless sway (wlroots, with wlr-data-control) for the
// test and points WAYLAND_DISPLAY and XDG_RUNTIME_DIR at it; it skips,
// without sway or wl-clipboard it fails in CI and skips elsewhere. sway refuses to run as
// root, so as root it runs as uid/gid 65534 (the test, as root, still
// reaches the socket).
func startSway(t *testing.T) {
	t.Helper()
	testenv.NeedCommands(t, "apt-get install sway wl-clipboard; .ci/run does", "sway", "wl-copy", "wl-paste")
	// Not t.TempDir: its parent is 0700 root, closed to the sway user.
	dir, err := os.MkdirTemp("", "chipchat-wl-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	conf := filepath.Join(dir, "config")
	if err := os.WriteFile(conf, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sway", "-c", conf)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if os.Getuid() == 0 {
		for _, p := range []string{dir, conf} {
			if err := os.Chown(p, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: 65534, Gid: 65534, NoSetGroups: true}
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "HOME", "WAYLAND_SOCKET":
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "XDG_RUNTIME_DIR="+dir, "HOME="+dir,
		"WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman")
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { // wl-copy's server and the owners end with sway
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		socks, _ := filepath.Glob(filepath.Join(dir, "wayland-*"))
		for _, s := range socks {
			if !strings.HasSuffix(s, ".lock") {
				t.Setenv("XDG_RUNTIME_DIR", dir)
				t.Setenv("WAYLAND_DISPLAY", filepath.Base(s))
				t.Setenv("DISPLAY", "")
				return
			}
		}
		select {
		case <-exited:
			t.Fatalf("sway exited: %s", log.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("sway did not create its socket: %s", log.String())
		}
	}
}

// wlPaste runs the real wl-paste with args.
func wlPaste(t *testing.T, args ...string) []byte {
	t.Helper()
	out, err := exec.Command("wl-paste", args...).Output()
	if err != nil {
		t.Fatalf("wl-paste %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// System.Write on Wayland starts chipchat's own owner (here the test
// binary as "__clipboard-serve"), which sets the clipboard through
// wlr-data-control with the text, the HTML carrier and the fragment JSON
// at once, after the writer is gone, until another client takes it.
func TestWaylandOwnerServesEveryTarget(t *testing.T) {
	startSway(t)
	sys := helperSystem(t)
	rec := &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, "t1", "Terminal 1 lines 1-2"),
		TerminalID: "term-1", TerminalLabel: "Terminal 1", LineStart: 1, LineEnd: 2, Text: "a < b\n& c"}
	f := &contextref.Fragment{Source: contextref.FragmentSource{EnvironmentID: "env_a", ThreadID: "thr_1"}, Records: []contextref.Record{rec}}
	text := "see <b>" + contextref.LinkFor(rec) + "</b> — ü"
	c := &Clipboard{Cache: &Cache{Dir: t.TempDir()}, System: sys}
	if tool := sys.Tool(); tool != "wl-copy" {
		t.Fatalf("Tool() = %q", tool)
	}
	res := c.Write(text, f)
	wantTargets := []string{"text/plain", HTMLMIME, contextref.FragmentMIME}
	if res.Err() != nil || res.System != "wayland" || !reflect.DeepEqual(res.Targets, wantTargets) {
		t.Fatalf("write: %+v", res)
	}
	owner := sys.lastOwner.Load()
	if owner == nil {
		t.Fatal("no owner recorded")
	}
	t.Cleanup(func() { _ = syscall.Kill(owner.pid, syscall.SIGKILL) })
	want, _ := f.Marshal()

	listed := strings.Split(strings.TrimSpace(string(wlPaste(t, "--list-types"))), "\n")
	for _, target := range []string{"text/plain", "text/plain;charset=utf-8", "UTF8_STRING", "STRING", "TEXT", HTMLMIME, contextref.FragmentMIME} {
		found := false
		for _, l := range listed {
			found = found || l == target
		}
		if !found {
			t.Errorf("--list-types %q lacks %q", listed, target)
		}
	}
	if got := string(wlPaste(t, "--no-newline")); got != text {
		t.Errorf("wl-paste --no-newline = %q, want %q", got, text)
	}
	for _, target := range []string{"text/plain", "text/plain;charset=utf-8", "UTF8_STRING"} {
		if got := string(wlPaste(t, "--no-newline", "--type", target)); got != text {
			t.Errorf("%s = %q, want %q", target, got, text)
		}
	}
	checkServedFragment(t, func(target string) []byte { return wlPaste(t, "--no-newline", "--type", target) }, text, want)

	// A second copy replaces the first owner, which exits.
	text2 := "again " + contextref.LinkFor(rec)
	if res := c.Write(text2, f); res.System != "wayland" {
		t.Fatalf("second write: %+v", res)
	}
	waitExit(t, owner)
	owner = sys.lastOwner.Load()
	if got := string(wlPaste(t, "--no-newline")); got != text2 {
		t.Errorf("after the second copy: %q", got)
	}

	// Another program takes the clipboard: the owner exits.
	cp := exec.Command("wl-copy", "x")
	if err := cp.Run(); err != nil {
		t.Fatal(err)
	}
	waitExit(t, owner)
	if got := string(wlPaste(t, "--no-newline")); got != "x" {
		t.Errorf("after wl-copy x: %q", got)
	}
}

// A payload larger than a pipe buffer and the socket's messages arrives
// whole; ServeWayland returns nil when another client takes the clipboard.
func TestServeWaylandLargePayload(t *testing.T) {
	startSway(t)
	big := strings.Repeat("0123456789abcdef", 1<<16) + "end" // 1 MiB + 3
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- ServeWayland("", "", map[string][]byte{"UTF8_STRING": []byte(big), HTMLMIME: []byte("<pre>h</pre>")}, func() { close(ready) })
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("ServeWayland: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("ServeWayland never set the selection")
	}
	if got := string(wlPaste(t, "--no-newline", "--type", "text/plain")); got != big {
		t.Errorf("text/plain: %d bytes, want %d", len(got), len(big))
	}
	if got := string(wlPaste(t, "--no-newline", "--type", HTMLMIME)); got != "<pre>h</pre>" {
		t.Errorf("text/html: %q", got)
	}
	if err := exec.Command("wl-copy", "x").Run(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeWayland after losing the selection: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeWayland kept running after losing the selection")
	}
}

// When the Wayland owner cannot start, Write falls back to wl-copy with one
// target; a compositor that is not there is an error, not a hang.
func TestWriteWaylandOwnerFallsBackToWlCopy(t *testing.T) {
	dir := fakeTools(t)
	t.Setenv("WAYLAND_DISPLAY", "wayland-none")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	sys := helperSystem(t)
	sys.RichTarget = HTMLMIME
	c := &Clipboard{Cache: &Cache{Dir: t.TempDir()}, System: sys}
	text := "hello " + contextref.LinkFor(termRec("ctx_t"))
	r := c.Write(text, frag("env_a", termRec("ctx_t")))
	if r.Err() != nil || r.System != "wl-copy" || r.Target != HTMLMIME {
		t.Fatalf("result %+v", r)
	}
	if got := strings.TrimSpace(readFile(t, filepath.Join(dir, "wl-copy.args"))); got != "--type text/html" {
		t.Errorf("wl-copy args %q", got)
	}
	_, err := startServe(sys.Exe, sys.serveArgs, serveDoc{Mode: serveWayland, Display: "wayland-none", RuntimeDir: t.TempDir(), Items: map[string][]byte{"text/plain": []byte("x")}})
	if err == nil || !strings.Contains(err.Error(), "wayland: connect") {
		t.Fatalf("owner without a compositor: %v", err)
	}
}

func TestWaylandSocketPath(t *testing.T) {
	for _, tc := range []struct{ display, dir, want string }{
		{"wayland-1", "/run/user/1", "/run/user/1/wayland-1"},
		{"", "/run/user/1", "/run/user/1/wayland-0"},
		{"/tmp/sock", "", "/tmp/sock"},
	} {
		if got, err := waylandSocketPath(tc.display, tc.dir); err != nil || got != tc.want {
			t.Errorf("waylandSocketPath(%q, %q) = %q, %v", tc.display, tc.dir, got, err)
		}
	}
	if _, err := waylandSocketPath("wayland-0", ""); err == nil {
		t.Error("no runtime dir accepted")
	}
}
