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
)

// serveHelperEnv makes TestHelperServe run ServeMain: the X11 owner tests
// start the test binary itself as the "__clipboard-serve" process.
const serveHelperEnv = "CHIPCHAT_TEST_CLIPBOARD_SERVE"

func TestHelperServe(t *testing.T) {
	if os.Getenv(serveHelperEnv) != "1" {
		t.Skip("helper process for the X11 owner tests")
	}
	os.Exit(ServeMain(os.Stdin, os.Stderr))
}

// helperSystem is a System whose X11 owner is this test binary.
func helperSystem(t *testing.T) *System {
	t.Setenv(serveHelperEnv, "1")
	return &System{Exe: os.Args[0], serveArgs: []string{"-test.run=^TestHelperServe$"}}
}

func TestSelectionTargets(t *testing.T) {
	s := newSelection(x11Items("plain", "<pre>h</pre>", []byte(`{"v":1}`)))
	want := []string{"TARGETS", "TIMESTAMP", "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING", "TEXT", HTMLMIME, contextref.FragmentMIME}
	if got := s.targets(); !reflect.DeepEqual(got, want) {
		t.Fatalf("targets\n got %q\nwant %q", got, want)
	}
	for _, tc := range []struct{ target, typ, data string }{
		{"UTF8_STRING", "UTF8_STRING", "plain"},
		{"text/plain;charset=utf-8", "text/plain;charset=utf-8", "plain"},
		{"text/plain", "text/plain", "plain"},
		{"STRING", "STRING", "plain"},
		{"TEXT", "UTF8_STRING", "plain"},
		{HTMLMIME, HTMLMIME, "<pre>h</pre>"},
		{contextref.FragmentMIME, contextref.FragmentMIME, `{"v":1}`},
	} {
		typ, data, ok := s.convert(tc.target)
		if !ok || typ != tc.typ || string(data) != tc.data {
			t.Errorf("convert(%q) = %q, %q, %v; want %q, %q", tc.target, typ, data, ok, tc.typ, tc.data)
		}
	}
	for _, target := range []string{"image/png", "MULTIPLE", ""} {
		if _, _, ok := s.convert(target); ok {
			t.Errorf("convert(%q) answered", target)
		}
	}
	// A given text target wins over the aliases; no text, no aliases.
	s = newSelection(map[string][]byte{"STRING": []byte("latin"), "UTF8_STRING": []byte("utf")})
	if _, d, _ := s.convert("TEXT"); string(d) != "utf" {
		t.Errorf("TEXT = %q", d)
	}
	if _, d, _ := s.convert("STRING"); string(d) != "latin" {
		t.Errorf("STRING = %q", d)
	}
	s = newSelection(map[string][]byte{HTMLMIME: []byte("h")})
	if got := s.targets(); !reflect.DeepEqual(got, []string{"TARGETS", "TIMESTAMP", HTMLMIME}) {
		t.Errorf("html only: %q", got)
	}
}

func TestServeMainBadDocument(t *testing.T) {
	var stderr bytes.Buffer
	if code := ServeMain(strings.NewReader("{"), &stderr); code != 2 || !strings.Contains(stderr.String(), ServeCommand) {
		t.Fatalf("code %d, stderr %q", code, stderr.String())
	}
}

// When the owner cannot start, Write falls back to xclip with one target.
func TestWriteOwnerFallsBackToXclip(t *testing.T) {
	dir := fakeTools(t)
	t.Setenv("DISPLAY", ":99")
	c := &Clipboard{Cache: &Cache{Dir: t.TempDir()}, System: &System{Exe: "/bin/false", RichTarget: HTMLMIME}}
	text := "hello " + contextref.LinkFor(termRec("ctx_t"))
	r := c.Write(text, frag("env_a", termRec("ctx_t")))
	if r.Err() != nil || r.System != "xclip" || r.Target != HTMLMIME {
		t.Fatalf("result %+v", r)
	}
	if got := strings.TrimSpace(readFile(t, filepath.Join(dir, "xclip.args"))); got != "-selection clipboard -in -t text/html" {
		t.Errorf("xclip args %q", got)
	}
	if _, err := startOwner("/bin/false", nil, ":99", nil); err == nil || !strings.Contains(err.Error(), "without owning") {
		t.Errorf("startOwner(/bin/false): %v", err)
	}
}

// xclipOut reads one target of the X clipboard with the real xclip.
func xclipOut(t *testing.T, target string) []byte {
	t.Helper()
	out, err := exec.Command("xclip", "-selection", "clipboard", "-o", "-t", target).Output()
	if err != nil {
		t.Fatalf("xclip -o -t %s: %v", target, err)
	}
	return out
}

// takeClipboard makes xclip own the clipboard.
func takeClipboard(t *testing.T) {
	t.Helper()
	cmd := exec.Command("xclip", "-selection", "clipboard", "-i")
	cmd.Stdin = strings.NewReader("x")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
}

func waitExit(t *testing.T, p *ownerProc) {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
		t.Fatalf("owner %d still runs after losing the selection", p.pid)
	}
	if err := syscall.Kill(p.pid, 0); err != syscall.ESRCH {
		t.Fatalf("owner %d left behind: %v", p.pid, err)
	}
}

// System.Write on X11 starts chipchat's own selection owner (here the test
// binary as "__clipboard-serve"), which serves the text, the HTML carrier
// and the fragment JSON at once, after the writer is gone, until another
// client takes the clipboard.
func TestX11OwnerServesEveryTarget(t *testing.T) {
	startXvfb(t)
	sys := helperSystem(t)
	rec := &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, "t1", "Terminal 1 lines 1-2"),
		TerminalID: "term-1", TerminalLabel: "Terminal 1", LineStart: 1, LineEnd: 2, Text: "a < b\n& c"}
	f := &contextref.Fragment{Source: contextref.FragmentSource{EnvironmentID: "env_a", ThreadID: "thr_1"}, Records: []contextref.Record{rec}}
	text := "see <b>" + contextref.LinkFor(rec) + "</b> — ü"
	c := &Clipboard{Cache: &Cache{Dir: t.TempDir()}, System: sys}
	res := c.Write(text, f)
	wantTargets := []string{"text/plain", HTMLMIME, contextref.FragmentMIME}
	if res.Err() != nil || res.System != "x11" || !reflect.DeepEqual(res.Targets, wantTargets) {
		t.Fatalf("write: %+v", res)
	}
	owner := sys.lastOwner.Load()
	if owner == nil {
		t.Fatal("no owner recorded")
	}
	t.Cleanup(func() { _ = syscall.Kill(owner.pid, syscall.SIGKILL) })
	want, _ := f.Marshal()

	listed := strings.Fields(strings.ReplaceAll(string(xclipOut(t, "TARGETS")), contextref.FragmentMIME, "FRAGMENT"))
	for _, target := range []string{"TARGETS", "TIMESTAMP", "UTF8_STRING", "STRING", "TEXT", "text/plain", "text/plain;charset=utf-8", HTMLMIME, "FRAGMENT"} {
		found := false
		for _, l := range listed {
			found = found || l == target
		}
		if !found {
			t.Errorf("TARGETS %q lacks %q", listed, target)
		}
	}
	for _, target := range []string{"text/plain", "UTF8_STRING", "text/plain;charset=utf-8", "TEXT"} {
		if got := string(xclipOut(t, target)); got != text {
			t.Errorf("%s = %q, want %q", target, got, text)
		}
	}
	checkServedFragment(t, func(target string) []byte { return xclipOut(t, target) }, text, want)

	// A second copy replaces the first owner, which exits.
	text2 := "again " + contextref.LinkFor(rec)
	if res := c.Write(text2, f); res.System != "x11" {
		t.Fatalf("second write: %+v", res)
	}
	waitExit(t, owner)
	owner = sys.lastOwner.Load()
	if got := string(xclipOut(t, "UTF8_STRING")); got != text2 {
		t.Errorf("after the second copy: %q", got)
	}

	// Another program takes the clipboard: the owner exits.
	takeClipboard(t)
	waitExit(t, owner)
	if got := string(xclipOut(t, "UTF8_STRING")); got != "x" {
		t.Errorf("after xclip -i: %q", got)
	}
}

// Payloads larger than one X request go with INCR; ServeX11 returns nil
// when it loses the selection.
func TestServeX11LargePayloadINCR(t *testing.T) {
	startXvfb(t)
	big := strings.Repeat("0123456789abcdef", 1<<16) + "end" // 1 MiB + 3
	html := "<pre>" + strings.Repeat("h", 700_000) + "</pre>"
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- ServeX11("", map[string][]byte{"UTF8_STRING": []byte(big), HTMLMIME: []byte(html)}, func() { close(ready) })
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("ServeX11: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("ServeX11 never owned the selection")
	}
	if got := string(xclipOut(t, "UTF8_STRING")); got != big {
		t.Errorf("UTF8_STRING: %d bytes, want %d", len(got), len(big))
	}
	if got := string(xclipOut(t, HTMLMIME)); got != html {
		t.Errorf("text/html: %d bytes, want %d", len(got), len(html))
	}
	if got := string(xclipOut(t, "STRING")); got != big {
		t.Errorf("STRING: %d bytes, want %d", len(got), len(big))
	}
	takeClipboard(t)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeX11 after losing the selection: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeX11 kept running after losing the selection")
	}
}

// checkServedFragment reads the owner's text/html and fragment targets
// with the platform's paste tool (read) and through System.Read: each
// must give back the fragment that was written (want, its JSON).
func checkServedFragment(t *testing.T, read func(target string) []byte, text string, want []byte) {
	t.Helper()
	back, err := contextref.DecodeFragmentHTML(string(read(HTMLMIME)))
	if err != nil {
		t.Fatalf("text/html: %v", err)
	}
	if got, _ := back.Marshal(); string(got) != string(want) {
		t.Errorf("text/html fragment:\n got %s\nwant %s", got, want)
	}
	back, err = contextref.DecodeFragmentJSON(read(contextref.FragmentMIME))
	if err != nil {
		t.Fatalf("%s: %v", contextref.FragmentMIME, err)
	}
	if got, _ := back.Marshal(); string(got) != string(want) {
		t.Errorf("fragment target:\n got %s\nwant %s", got, want)
	}
	clip, err := (&System{}).Read()
	if err != nil || clip.Fragment == nil || clip.Text != text {
		t.Fatalf("System.Read: %+v, %v", clip, err)
	}
	if got, _ := clip.Fragment.Marshal(); string(got) != string(want) {
		t.Errorf("System.Read fragment:\n got %s\nwant %s", got, want)
	}
}
