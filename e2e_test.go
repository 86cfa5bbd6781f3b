package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/testenv"
	"github.com/chipchat/chipchat/store"
)

// End-to-end: the real binary in tmux, driven by keys, judged by what the
// screen shows.

type tmuxSession struct {
	t      *testing.T
	socket string
	name   string
}

// startTmux runs command in a detached 120×40 tmux session on a private
// server. Without tmux the test is skipped, except in CI where it fails.
func startTmux(t *testing.T, command string) *tmuxSession {
	t.Helper()
	return startTmuxSize(t, command, 120, 40)
}

// startTmuxSize is startTmux with another window size.
func startTmuxSize(t *testing.T, command string, w, h int) *tmuxSession {
	t.Helper()
	testenv.NeedCommands(t, ".ci/run installs it", "tmux")
	s := &tmuxSession{t: t, socket: fmt.Sprintf("chipchat-e2e-%d-%d", os.Getpid(), time.Now().UnixNano()), name: "e2e"}
	s.run("new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-s", s.name, command)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

func (s *tmuxSession) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys sends tmux key names (Enter, C-o, Tab …); text sends literal text.
func (s *tmuxSession) keys(keys ...string) {
	s.t.Helper()
	s.run(append([]string{"send-keys", "-t", s.name}, keys...)...)
}

func (s *tmuxSession) text(text string) {
	s.t.Helper()
	s.run("send-keys", "-t", s.name, "-l", text)
}

func (s *tmuxSession) screen() string {
	s.t.Helper()
	return s.run("capture-pane", "-p", "-t", s.name)
}

// waitFor polls the screen until every want is on it.
func (s *tmuxSession) waitFor(want ...string) string {
	s.t.Helper()
	return s.waitUntil(fmt.Sprintf("%q", want), func(scr string) bool {
		for _, w := range want {
			if !strings.Contains(scr, w) {
				return false
			}
		}
		return true
	})
}

// waitUntil polls the screen until ok holds for it; what names the
// awaited state in the failure.
func (s *tmuxSession) waitUntil(what string, ok func(scr string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		scr := s.screen()
		if ok(scr) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %s:\n%s", what, scr)
		}
		time.Sleep(50 * time.Millisecond) // the polling pace
	}
}

// waitForRow polls until a row of the screen is row, blanks around it
// aside: a command's output, not the command line that typed it.
func (s *tmuxSession) waitForRow(row string) string {
	s.t.Helper()
	return s.waitUntil(fmt.Sprintf("the row %q", row), func(scr string) bool {
		for _, l := range strings.Split(scr, "\n") {
			if strings.TrimSpace(l) == row {
				return true
			}
		}
		return false
	})
}

// pickFile types @ and query, and waits until the file picker's title
// shows the query with a single match and the list shows file. (The hint
// bar says "@ file" all along: the picker's title is the sign.)
func (s *tmuxSession) pickFile(query, file string) {
	s.t.Helper()
	s.text("@")
	s.waitFor("─ @ file — ")
	s.text(query)
	s.waitFor("─ @ file "+query+" — 1 of ", file)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A message with chips and an attached file is sent; a half-typed draft is
// autosaved (seen in the store), chipchat is killed, and the restart shows
// the thread and the draft with its caret; a key typed right before
// ctrl+q is saved by the quit.
func TestEndToEndSendKillRestartQuit(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "main.go"), "package main\n")
	writeFile(t, filepath.Join(proj, "notes.txt"), "remember the milk\n")
	writeFile(t, filepath.Join(proj, ".agents", "skills", "review", "SKILL.md"), "---\nname: review\ndescription: Review a diff\n---\nBe thorough.\n")
	home := filepath.Join(root, "home")
	data := filepath.Join(root, "data")
	command := fmt.Sprintf("cd %q && env HOME=%q XDG_CONFIG_HOME=%q TERM=xterm-256color %q --data-dir %q; echo EXITED=$?; sleep 600",
		proj, home, filepath.Join(home, ".config"), bin, data)

	s := startTmux(t, command)
	s.waitFor("chipchat · New thread · agent echo", "enter send")

	// Prose, an @ mention chip, a $ skill chip, an attached file.
	s.text("Please check ")
	s.pickFile("main", "main.go")
	s.keys("Enter")
	s.text("with ")
	s.text("$")
	s.waitFor("Review a diff")
	s.keys("Tab")
	s.text("and ")
	s.keys("C-o")
	s.waitFor("Attach a file")
	s.text("notes")
	s.keys("Tab")
	s.waitFor("> notes.txt")
	s.keys("Enter")
	s.waitFor("attached notes.txt")
	s.keys("Enter")

	// The echo reply shows the provider projection: markers and envelope.
	scr := s.waitFor("Echo agent", "[Mention: main.go; ref=", "[Skill: $review; ref=", "[File: notes.txt; ref=att_",
		`<t3_context version="1">`, `<context kind="file" id="att_`, "</t3_context>", "notes.txt (text/plain, 18 B)")
	if strings.Contains(scr, "<context kind=\"skill\"") {
		t.Fatalf("skill records get a marker but no entry:\n%s", scr)
	}

	// A half-typed draft with a chip, caret two atoms from the end, is
	// autosaved: the store, read beside the running process, shows it. (A
	// caret move alone is not a change of the draft and waits for the next
	// one or the quit, so the caret gets there by typing: "drft", two to
	// the left, "a".)
	s.text("half ")
	s.pickFile("notes", "notes.txt")
	s.keys("Enter")
	s.text("drft")
	typed := waitDraft(t, data, proj, "the typed draft", func(d store.Draft) bool {
		return strings.HasPrefix(d.Markdown, "half ") && strings.HasSuffix(d.Markdown, " drft")
	})
	s.keys("Left", "Left")
	s.text("a")
	want := typed.Caret
	want.Col-- // two back, one typed: two atoms before the end
	waitDraft(t, data, proj, fmt.Sprintf("the draft with its caret at %+v", want), func(d store.Draft) bool {
		return strings.HasSuffix(d.Markdown, " draft") && d.Caret == want
	})
	// SIGKILL leaves no time to save: what comes back is what autosave
	// wrote.
	if err := syscall.Kill(chipchatPID(t, data), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	s.waitFor("EXITED=137")

	// Start again: the thread, its chips and the draft with its caret.
	s.run("respawn-pane", "-k", "-t", s.name, command)
	scr = s.waitFor("Please check", "main.go", "$ review", "notes.txt", "Echo agent", "half", "draft")
	if !strings.Contains(scr, "Please check") || strings.Contains(scr, "New thread") {
		t.Fatalf("the thread did not come back with its title:\n%s", scr)
	}
	s.text("X")
	s.waitFor("draXft")
	// A key and ctrl+q in one write: the quit comes long before the
	// autosave's first pause (80 ms), so the key is on disk only if
	// quitting saves the draft.
	s.keys("Y", "C-q")
	s.waitFor("EXITED=0")
	if d, _ := storedDraft(t, data, proj); !strings.HasSuffix(d, " draXYft") {
		t.Fatalf("quitting right after a key did not save it: the draft is %q", d)
	}
}

func TestEndToEndTerminalExcerpt(t *testing.T) {
	testenv.NeedCommands(t, ".ci/run installs procps", "pgrep")
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	home := filepath.Join(root, "home")
	command := fmt.Sprintf("cd %q && env HOME=%q XDG_CONFIG_HOME=%q SHELL=/bin/sh PS1='$ ' TERM=xterm-256color %q --data-dir %q; echo EXITED=$?; sleep 600",
		proj, home, filepath.Join(home, ".config"), bin, filepath.Join(root, "data"))
	// Tall enough that the transcript, sharing the height with the pane,
	// shows the whole echo reply.
	s := startTmuxSize(t, command, 120, 60)
	s.waitFor("agent echo", "enter send")

	// Open the pane, run a command.
	s.keys("C-t")
	s.waitFor("Terminal 1", "keys go to the shell")
	s.text(`printf 'alpha\nbeta\ngamma\n'`)
	s.keys("Enter")
	s.waitForRow("gamma") // the output (the command line shows gamma at once)

	// Copy mode: from the prompt up two lines, select one more, capture.
	s.keys("C-Space")
	s.waitFor("copy mode: ")
	s.keys("k", "k", "v", "k", "y")
	s.waitFor("captured Terminal 1 lines 2-3")

	// The chip is in the composer at the caret; send it.
	s.text(" why?")
	s.keys("Enter")
	s.waitFor("[Terminal: Terminal 1 lines 2-3; ref=", `<context kind="terminal"`, "terminal: Terminal 1", "2 | alpha", "3 | beta", "</t3_context>")

	// Quitting ends the shell and everything it started: no orphans.
	marker := fmt.Sprintf("%d", 4000000+os.Getpid()%1000000)
	s.keys("C-t")
	s.text("sleep " + marker + " &")
	s.keys("Enter")
	waitProc := func(want bool) {
		deadline := time.Now().Add(5 * time.Second)
		for {
			found := exec.Command("pgrep", "-f", "sleep "+marker).Run() == nil
			if found == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("process sleep %s running: %v, want %v", marker, found, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitProc(true)
	s.keys("C-q")
	s.waitFor("EXITED=0")
	waitProc(false)
}
