package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Copy a message with a chip in one thread, paste it in another: the chip
// comes back as a chip (its record travels through chipchat's fragment
// cache), not as link text. The copy reaches tmux's buffer over OSC 52, and
// tmux pastes it back with bracketed paste, as a user's paste would.
func TestEndToEndCopyPasteAcrossThreads(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "main.go"), "package main\n")
	home := filepath.Join(root, "home")
	command := fmt.Sprintf("cd %q && env HOME=%q XDG_CONFIG_HOME=%q XDG_STATE_HOME=%q TERM=xterm-256color %q --data-dir %q; echo EXITED=$?; sleep 600",
		proj, home, filepath.Join(home, ".config"), filepath.Join(home, ".state"), bin, filepath.Join(root, "data"))
	s := startTmux(t, command)
	s.run("set-option", "-g", "set-clipboard", "on")
	s.waitFor("agent echo", "enter send")

	s.text("see ")
	s.text("@")
	s.waitFor("@ file")
	s.text("main")
	s.waitFor("main.go")
	s.keys("Enter")
	s.text("please")
	s.keys("M-a") // select all
	s.keys("C-c") // copy the selection
	s.waitFor("copied")
	buf := s.run("show-buffer")
	if !strings.Contains(buf, "t3-context://v1/mention/") {
		t.Fatalf("tmux's buffer did not get the canonical Markdown over OSC 52: %q", buf)
	}

	s.keys("C-n")
	s.waitFor("new thread")
	s.run("paste-buffer", "-p", "-t", s.name) // bracketed paste of the copied text
	scr := s.waitFor("@ main.go", "please")
	if strings.Contains(scr, "t3-context://") {
		t.Fatalf("the pasted link stayed text instead of becoming a chip:\n%s", scr)
	}
	s.keys("Enter")
	scr = s.waitFor("[Mention: main.go; ref=mention-main-go-")
	if strings.Contains(scr, `unavailable="true"`) {
		t.Fatalf("the pasted chip lost its record:\n%s", scr)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}
