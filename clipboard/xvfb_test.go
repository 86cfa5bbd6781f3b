package clipboard

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/internal/testenv"
)

// startXvfb runs a headless X server for the test and points DISPLAY at it;
// without Xvfb or xclip it fails in CI and skips elsewhere.
func startXvfb(t *testing.T) {
	t.Helper()
	testenv.NeedCommands(t, "apt-get install xvfb xclip; .ci/run does", "Xvfb", "xclip")
	display := fmt.Sprintf(":%d", 90+os.Getpid()%500)
	x := exec.Command("Xvfb", display, "-nolisten", "tcp")
	x.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := x.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // xclip's selection servers end with the X server
		_ = syscall.Kill(-x.Process.Pid, syscall.SIGKILL)
		_ = x.Wait()
	})
	t.Setenv("DISPLAY", display)
	t.Setenv("WAYLAND_DISPLAY", "")
	// Wait until X answers (an empty clipboard is an error too, but not
	// "Can't open display").
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, _ := exec.Command("xclip", "-selection", "clipboard", "-o", "-t", "TARGETS").CombinedOutput()
		if !strings.Contains(string(out), "Can't open display") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("Xvfb did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The HTML carrier goes on a real X clipboard through xclip and comes back
// as the same fragment, both as the raw text/html target and through
// System.Read (which lists the targets and prefers the carrier).
func TestHTMLCarrierRoundTripsThroughXclip(t *testing.T) {
	startXvfb(t)
	rec := &contextref.TerminalRecord{Base: contextref.NewBase(contextref.KindTerminal, "t1", "Terminal 1 lines 1-2"),
		TerminalID: "term-1", TerminalLabel: "Terminal 1", LineStart: 1, LineEnd: 2, Text: "a < b\n& c"}
	frag := &contextref.Fragment{Source: contextref.FragmentSource{EnvironmentID: "env_a", ThreadID: "thr_1"}, Records: []contextref.Record{rec}}
	text := "see " + contextref.LinkFor(rec)
	c := &Clipboard{Cache: &Cache{Dir: t.TempDir()}, System: &System{RichTarget: HTMLMIME}}
	res := c.Write(text, frag)
	if res.Err() != nil || res.System != "xclip" || res.Target != HTMLMIME {
		t.Fatalf("write: %+v", res)
	}
	var html []byte
	deadline := time.Now().Add(5 * time.Second)
	for {
		out, err := exec.Command("xclip", "-selection", "clipboard", "-o", "-t", "text/html").Output()
		if err == nil && len(out) > 0 {
			html = out
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the clipboard never held text/html: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	back, err := contextref.DecodeFragmentHTML(string(html))
	if err != nil {
		t.Fatalf("carrier %q: %v", html, err)
	}
	want, _ := frag.Marshal()
	if got, _ := back.Marshal(); string(got) != string(want) {
		t.Fatalf("round trip:\n got %s\nwant %s", got, want)
	}
	clip, err := (&System{}).Read()
	if err != nil || clip.Fragment == nil {
		t.Fatalf("System.Read: %+v, %v", clip, err)
	}
	if got, _ := clip.Fragment.Marshal(); string(got) != string(want) {
		t.Fatalf("System.Read fragment:\n got %s\nwant %s", got, want)
	}
}
