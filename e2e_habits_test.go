package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// End-to-end tests of issue 15: the habits of Claude Code and Codex users
// (prompt history, ! shell chips) and the rough edges a newcomer hit.

// composerLine is the screen row above the hint bar: the composer's last
// row.
func composerLine(scr string) string {
	rows := strings.Split(strings.TrimRight(scr, "\n"), "\n")
	if len(rows) < 2 {
		return ""
	}
	return rows[len(rows)-2]
}

// waitForComposer polls until the composer's last row shows want.
func (s *tmuxSession) waitForComposer(want string) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		scr := s.screen()
		if strings.Contains(composerLine(scr), want) {
			return scr
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the composer never showed %q:\n%s", want, scr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func habitsCommand(proj, home, data, bin string, args ...string) string {
	return fmt.Sprintf("cd %q && env HOME=%q XDG_CONFIG_HOME=%q XDG_STATE_HOME=%q SHELL=/bin/sh PS1='$ ' TERM=xterm-256color %q --data-dir %q %s; echo EXITED=$?; sleep 600",
		proj, home, filepath.Join(home, ".config"), filepath.Join(home, ".state"), bin, data, strings.Join(args, " "))
}

// The done-when: three prompts with chips, quit, restart, up three
// times shows the first with its chip; ctrl+r finds the second by a word;
// !echo hi makes a terminal chip holding hi, which the echo agent's
// projection shows once sent.
func TestEndToEndHistoryAndShellChips(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	for _, f := range []string{"alpha.txt", "bravo.txt", "charlie.txt"} {
		writeFile(t, filepath.Join(proj, f), "file "+f+"\n")
	}
	command := habitsCommand(proj, home, data, bin)
	s := startTmuxSize(t, command, 120, 50)
	s.waitFor("agent echo", "enter send")

	for _, p := range []struct{ words, file string }{{"first apple", "alpha"}, {"second banana", "bravo"}, {"third cherry", "charlie"}} {
		s.text(p.words + " ")
		s.pickFile(p.file, p.file+".txt")
		s.keys("Enter")
		s.keys("Enter")
		s.waitFor("[Mention: " + p.file + ".txt; ref=")
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")

	s.run("respawn-pane", "-k", "-t", s.name, command)
	s.waitFor("agent echo", "enter send")
	for _, want := range []string{"third cherry", "second banana", "first apple"} {
		s.keys("Up")
		s.waitForComposer(want)
	}
	scr := s.screen()
	if line := composerLine(scr); !strings.Contains(line, "first apple") || !strings.Contains(line, "alpha.txt") {
		t.Fatalf("up three times: the composer shows %q, want the first prompt with its chip:\n%s", line, scr)
	}
	// down twice and once more: the empty draft again
	s.keys("Down", "Down", "Down")
	s.waitFor("Write a message")

	s.keys("C-r")
	s.waitFor("type words to search") // the search's hints ("history" is in the composer's too)
	s.text("banana")
	s.waitFor("1 of 3")
	s.keys("Enter")
	scr = s.waitFor("enter send")
	if line := composerLine(scr); !strings.Contains(line, "second banana") || !strings.Contains(line, "bravo.txt") {
		t.Fatalf("ctrl+r banana: the composer shows %q:\n%s", line, scr)
	}
	s.keys("C-c") // clears the draft
	s.waitFor("draft cleared")

	s.text("!")
	s.waitFor("! shell mode")
	s.text("echo hi")
	s.keys("Enter")
	s.waitForComposer("Shell 1 lines 1-2") // a terminal-excerpt chip at the caret
	s.text(" what does it say?")
	s.keys("Enter")
	s.waitFor("[Terminal: Shell 1 lines", `<context kind="terminal"`, "$ echo hi", "| hi")
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// Rough edge 4: launched from proj/sub, @ lists the project (the git root),
// not only sub/.
func TestEndToEndProjectDirIsTheGitRoot(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(proj, "toplevel.go"), "package main\n")
	writeFile(t, filepath.Join(proj, "sub", "inner.go"), "package sub\n")
	s := startTmux(t, habitsCommand(filepath.Join(proj, "sub"), home, data, bin))
	s.waitFor("agent echo", "enter send")
	s.pickFile("toplev", "toplevel.go") // listed from the git root

	s.keys("C-q") // quit acts from the picker too (an esc right before it would read as alt+ctrl+q)
	s.waitFor("EXITED=0")
}

// Rough edge 1: ctrl+o after a word puts the chip after a space, and the
// thread's title reads "see notes.txt".
func TestEndToEndAttachDoesNotGlue(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "notes.txt"), "milk\n")
	s := startTmux(t, habitsCommand(proj, home, data, bin))
	s.waitFor("agent echo", "enter send")
	s.text("see")
	s.keys("C-o")
	s.waitFor("Attach a file")
	s.text("notes.txt")
	s.keys("Enter")
	s.waitFor("attached notes.txt")
	s.keys("Enter")
	scr := s.waitFor("[File: notes.txt; ref=", "see notes.txt")
	if strings.Contains(scr, "seenotes") {
		t.Fatalf("the chip is glued to the word:\n%s", scr)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// Rough edge 2: a 13-line draft in a 12-row window keeps the caret line
// and the hint bar on the screen.
func TestEndToEndTallDraftInAShortWindow(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "x"), "x\n")
	s := startTmuxSize(t, habitsCommand(proj, home, data, bin), 80, 12)
	s.waitFor("agent echo")
	for i := 1; i <= 13; i++ {
		s.text(fmt.Sprintf("line %d", i))
		if i < 13 {
			s.keys("C-j")
		}
	}
	scr := s.waitFor("line 13", "F1 keys")
	if !strings.Contains(composerLine(scr), "line 13") {
		t.Fatalf("the caret line is not above the hint bar:\n%s", scr)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// Rough edges 7 and 10: after alt+o the hint bar is the composer's (so
// ctrl+t opens the terminal, as it says); alt+w closes the terminal and
// alt+h hides and shows the pane; "F1 keys" fits at 80 columns.
func TestEndToEndTerminalPaneKeysAndHints(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "x"), "x\n")
	s := startTmuxSize(t, habitsCommand(proj, home, data, bin), 80, 40)
	s.waitFor("agent echo", "F1 keys") // the help hint fits at 80 columns
	s.keys("C-t")
	s.waitFor("Terminal 1", "keys go to the shell")
	s.text("echo captured-output")
	s.keys("Enter")
	s.waitForRow("captured-output") // the output, not the command line
	s.keys("M-o")
	s.waitFor("captured Terminal 1")
	scr := s.waitFor("enter send") // the composer's hints once the toast goes
	if strings.Contains(scr, "ctrl+t composer") {
		t.Fatalf("after alt+o the hint bar still offers the composer:\n%s", scr)
	}
	s.keys("M-h")
	s.waitFor("terminal pane hidden")
	if strings.Contains(s.screen(), "$ echo captured-output") {
		t.Fatalf("alt+h did not hide the pane:\n%s", s.screen())
	}
	s.keys("M-h")
	s.waitFor("Terminal 1", "keys go to the shell")
	s.keys("M-w")
	s.waitFor("closed Terminal 1")
	if strings.Contains(s.screen(), "keys go to the shell") {
		t.Fatalf("alt+w left the pane focused:\n%s", s.screen())
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// Rough edge 9: ctrl+n and --new leave no empty thread behind, and the
// thread list marks the open thread and shows ids.
func TestEndToEndNoEmptyThreadsAndTheListMarksTheOpenOne(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj, home, data := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "data")
	writeFile(t, filepath.Join(proj, "x"), "x\n")
	s := startTmux(t, habitsCommand(proj, home, data, bin))
	s.waitFor("agent echo", "enter send")
	s.text("kept thread")
	s.keys("Enter")
	s.waitFor("Echo agent")
	for i := 0; i < 3; i++ {
		if i > 0 {
			// The toast lasts 4 s: once it is gone, "new thread" again is
			// this ctrl+n's.
			s.waitFor("enter send")
		}
		s.keys("C-n")
		s.waitFor("new thread")
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
	for i := 0; i < 2; i++ {
		s.run("respawn-pane", "-k", "-t", s.name, habitsCommand(proj, home, data, bin, "--new"))
		s.waitFor("agent echo", "enter send")
		s.keys("C-q")
		s.waitFor("EXITED=0")
	}
	s.run("respawn-pane", "-k", "-t", s.name, habitsCommand(proj, home, data, bin))
	s.waitFor("kept thread")
	s.keys("C-l")
	scr := s.waitFor("thr_", "● kept thread")
	if n := strings.Count(scr, "thr_"); n != 1 {
		t.Fatalf("the list has %d threads, want the one with a message:\n%s", n, scr)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}

// Rough edge 10: chipchat --version.
func TestEndToEndVersion(t *testing.T) {
	out, err := exec.Command(chipchatBinary(t), "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "chipchat ") || strings.Count(string(out), "\n") != 1 {
		t.Fatalf("--version: %q, %v", out, err)
	}
}
