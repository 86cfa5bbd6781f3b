package main

import (
	"fmt"
	"os"
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
	s.pickFile("main", "main.go")
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
	// The whole projection: the chip's file reached the agent inline.
	scr = s.waitFor("[Mention: main.go; ref=mention-main-go-", `<attached_file name="main.go"`, "</attached_file>", "main.go (text/x-go, 13 B): inline as text")
	if strings.Contains(scr, `unavailable="true"`) || strings.Contains(scr, "not available") {
		t.Fatalf("the pasted chip lost its record:\n%s", scr)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// Two chipchat processes with two data dirs: A copies a sent message that
// holds a terminal-excerpt chip and an image chip; B pastes it. Both chips
// resolve in B (the fragment comes through the shared fragment cache, the
// image bytes are fetched from A's asset store into B's).
func TestEndToEndPasteBetweenProcesses(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "shot.png"), "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde")
	home := filepath.Join(root, "home")
	env := fmt.Sprintf("env HOME=%q XDG_CONFIG_HOME=%q XDG_STATE_HOME=%q SHELL=/bin/sh PS1='$ ' TERM=xterm-256color",
		home, filepath.Join(home, ".config"), filepath.Join(home, ".state"))
	dataA, dataB := filepath.Join(root, "dataA"), filepath.Join(root, "dataB")
	a := startTmux(t, fmt.Sprintf("cd %q && %s %q --data-dir %q; echo EXITED=$?; sleep 600", proj, env, bin, dataA))
	a.run("set-option", "-g", "set-clipboard", "on")
	a.waitFor("agent echo", "enter send")

	// A: an image chip and a terminal excerpt, sent.
	a.keys("C-o")
	a.waitFor("Attach a file")
	a.text("shot.png")
	a.keys("Enter")
	a.waitFor("attached shot.png")
	a.text(" and ")
	a.keys("C-t")
	a.waitFor("Terminal 1")
	a.text("echo excerpt-line")
	a.keys("Enter")
	a.waitForRow("excerpt-line") // the output, not the command line

	a.keys("M-o") // capture the last command's output
	a.waitFor("captured Terminal 1")
	a.keys("Enter")
	// (the pane takes half the height: the reply's top may be scrolled off)
	a.waitFor(`<context kind="terminal"`, "</t3_context>")
	// A: copy the sent message from the transcript.
	a.keys("Tab", "Up", "Up", "y")
	a.waitFor("copied")
	if buf := a.run("show-buffer"); !strings.Contains(buf, "t3-context://v1/image/") || !strings.Contains(buf, "t3-context://v1/terminal/") {
		t.Fatalf("A's copy in tmux's buffer: %q", buf)
	}

	// B: another process, another data dir, pastes it (bracketed paste).
	b := startTmux(t, fmt.Sprintf("cd %q && %s %q --data-dir %q; echo EXITED=$?; sleep 600", proj, env, bin, dataB))
	b.waitFor("agent echo", "enter send")
	buf := a.run("show-buffer")
	b.run("set-buffer", "--", buf)
	b.run("paste-buffer", "-p", "-t", b.name)
	b.waitFor("shot.png", "Terminal 1")
	b.keys("Enter")
	scr := b.waitFor("Echo agent", `<context kind="image"`, `<context kind="terminal"`, "| excerpt-line", "shot.png (image/png")
	if strings.Contains(scr, `unavailable="true"`) {
		t.Fatalf("a pasted chip did not resolve in B:\n%s", scr)
	}
	// The image bytes now live in B's asset store.
	found := false
	_ = filepath.WalkDir(filepath.Join(dataB, "assets"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".tmp") {
			found = true
		}
		return nil
	})
	if !found {
		t.Fatal("B's asset store holds no image bytes")
	}
	a.keys("C-q")
	b.keys("C-q")
	a.waitFor("EXITED=0")
	b.waitFor("EXITED=0")
}
