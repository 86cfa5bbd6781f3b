package main

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"
)

// A chip copied in a local thread and pasted into a remote project's
// thread carries its bytes there: chipchat in the local start directory
// attaches an image, sends and copies the message (OSC 52 to tmux's
// buffer); chipchat --remote pastes it (bracketed paste) and sends, and
// the remote agent finds the image's exact bytes staged on its side.
func TestEndToEndRemotePasteCarriesTheBytes(t *testing.T) {
	e := newRemoteEnv(t)
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde-paste"
	writeFile(t, filepath.Join(e.local, "pasted.png"), png)
	sum := sha256.Sum256([]byte(png))
	hexSum := hex.EncodeToString(sum[:])

	a := startTmuxSize(t, e.command(t), 140, 50) // the local project
	a.run("set-option", "-g", "set-clipboard", "on")
	a.waitFor("enter send")
	a.text("local look ")
	a.keys("C-o")
	a.waitFor("Attach a file")
	a.text("pasted.png")
	a.keys("Enter")
	a.waitFor("attached pasted.png")
	a.keys("Enter")
	a.waitFor(`<context kind="image"`)
	a.keys("Tab", "Up", "Up", "y")
	a.waitFor("copied")
	buf := a.run("show-buffer")
	if !strings.Contains(buf, "t3-context://v1/image/") {
		t.Fatalf("the copy in tmux's buffer: %q", buf)
	}
	a.keys("C-q")
	a.waitFor("EXITED=0")

	b := startTmuxSize(t, e.command(t, "--remote", "box"), 140, 50)
	b.waitFor("enter send")
	b.run("set-buffer", "--", buf)
	b.run("paste-buffer", "-p", "-t", b.name)
	b.waitFor("pasted.png")
	b.keys("Enter")
	b.waitFor("pwd="+e.proj, "att pasted.png "+hexSum[:16])
	b.keys("C-q")
	b.waitFor("EXITED=0")
}
