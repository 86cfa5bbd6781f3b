package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// End-to-end tests of issue 25 ("First hour of a new user"): keys that did
// nothing while the screen promised something, lists that went stale,
// screens that lied. Each drives the real binary in tmux as a user would.

// firstHour starts chipchat with the echo agent in a fresh project, HOME
// and data directory under one temporary root, at w×h.
func firstHour(t *testing.T, w, h int, files ...string) (s *tmuxSession, proj, home string) {
	t.Helper()
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj, home = filepath.Join(root, "proj"), filepath.Join(root, "home")
	for _, f := range append([]string{"main.go"}, files...) {
		writeFile(t, filepath.Join(proj, f), "package main\n")
	}
	s = startTmuxSize(t, habitsCommand(proj, home, filepath.Join(root, "data"), bin), w, h)
	s.waitFor("agent echo", "enter send")
	return s, proj, home
}

// Item 1: in ! shell mode $, @, # and / are characters of the command
// line: no picker opens, and enter runs the line.
func TestEndToEndShellModeTriggersArePlain(t *testing.T) {
	s, _, home := firstHour(t, 120, 40)
	s.text("!")
	s.text("/bin/echo $HOME costs @main #1 $5")
	scr := s.waitFor("costs @main #1 $5")
	for _, picker := range []string{"─ $ skill", "─ @ file", "─ # thread", "─ / command"} {
		if strings.Contains(scr, picker) {
			t.Fatalf("shell mode opened a picker (%s):\n%s", picker, scr)
		}
	}
	s.keys("Enter")
	s.waitForRow(home + " costs @main") // sh: "#1 $5" is a comment
}

// Item 3: a message sent while the transcript is scrolled up is on screen:
// sending scrolls the transcript to the new turn.
func TestEndToEndSentMessageIsOnScreen(t *testing.T) {
	s, _, _ := firstHour(t, 120, 40)
	for i := 1; i <= 6; i++ {
		s.text(fmt.Sprintf("message number %d with some words", i))
		s.keys("Enter")
		s.waitFor(fmt.Sprintf("── %d user · this message ──", 2*i))
	}
	s.keys("Tab")
	s.waitFor("esc back")
	s.keys("k", "k", "k")
	s.keys("Escape")
	s.waitFor("enter send")
	s.text("VISIBLE-ZEBRA")
	s.waitForComposer("VISIBLE-ZEBRA")
	s.keys("Enter")
	s.waitUntil("the message sent, in the transcript", func(scr string) bool {
		return strings.Contains(scr, "VISIBLE-ZEBRA") && strings.Contains(composerLine(scr), "Write a message")
	})
}

// Item 7: @ lists files created after start (git's view: an ignored one is
// not offered) and offers directories, marked "/".
func TestEndToEndFilePickerSeesNewFilesAndDirectories(t *testing.T) {
	s, proj, _ := firstHour(t, 120, 40, ".gitignore")
	writeFile(t, filepath.Join(proj, ".gitignore"), "build/\n")
	if out, err := exec.Command("git", "-C", proj, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	s.text("@")
	s.waitFor("─ @ file — ")
	s.keys("BSpace")
	s.waitUntil("the picker closed", func(scr string) bool { return !strings.Contains(scr, "─ @ file") })
	writeFile(t, filepath.Join(proj, "later", "notes-later.md"), "# later\n")
	writeFile(t, filepath.Join(proj, "build", "out-later.md"), "# built\n")
	s.text("@later")
	scr := s.waitFor("─ @ file later — 2 of ", "later/notes-later.md")
	if !strings.Contains(scr, "│ later/ ") {
		t.Fatalf("the directory is not offered as later/:\n%s", scr)
	}
	if strings.Contains(scr, "out-later.md") {
		t.Fatalf("an ignored file is offered:\n%s", scr)
	}
}

// pickerRows are the rows of the picker box whose title starts with
// title, top to bottom, trimmed of the box.
func pickerRows(scr, title string) []string {
	var rows []string
	in := false
	for _, l := range strings.Split(scr, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "╭─ "+title):
			in = true
		case in && strings.HasPrefix(t, "╰"):
			return rows
		case in:
			rows = append(rows, strings.TrimSpace(strings.Trim(t, "│")))
		}
	}
	return rows
}

// Item 8: ctrl+r lists a quote as its words (never its link) and ranks a
// whole word above scattered letters.
func TestEndToEndHistorySearchShowsLabelsAndRanksWords(t *testing.T) {
	s, _, _ := firstHour(t, 120, 50)
	for i, p := range []string{"add the meeting notes to the wiki", "Hello, can you explain what this project does?"} {
		s.text(p)
		s.keys("Enter")
		s.waitFor(fmt.Sprintf("── %d user · this message ──", 2*i+2))
	}
	s.keys("Tab")
	s.keys("End")
	s.keys("v")
	s.waitFor("Selection · 1 word ")
	s.keys("q")
	s.waitFor("❝ Echo")
	s.text("please")
	s.keys("Enter")
	s.waitFor("[assistant-quote-1] please")
	s.keys("C-r")
	scr := s.waitFor("─ history — 3 of 3")
	if strings.Contains(scr, "t3-citation") || !strings.Contains(scr, "[❝ Echo] please") {
		t.Fatalf("the quote is not listed as its words:\n%s", scr)
	}
	s.text("notes")
	scr = s.waitFor("─ history notes — ")
	if rows := pickerRows(scr, "history notes"); len(rows) == 0 || !strings.HasPrefix(rows[0], "add the meeting notes") {
		t.Fatalf("the whole word does not rank first: %q\n%s", rows, scr)
	}
}

// Item 9: the delete confirmation shows the whole title, age and count;
// after deleting the open thread the list and the header agree.
func TestEndToEndDeleteThreadAsksWithTheWholeTitle(t *testing.T) {
	s, _, _ := firstHour(t, 120, 40)
	title := "Explain how the parser recovers from a missing brace in nested blocks"
	s.text(title)
	s.keys("Enter")
	s.waitFor("Echo agent")
	s.keys("C-n")
	s.waitFor("new thread")
	s.text(title + " (fork)")
	s.keys("Enter")
	s.waitFor("chipchat · "+title+" (fork)", "── 2 user · this message ──")
	s.keys("C-l")
	s.waitFor("● " + title + " (fork)")
	s.text("fork")
	s.waitFor("─ threads fork — ") // the whole word ranks the fork first
	s.keys("C-d")
	s.waitFor(`Delete the thread "`+title+` (fork)", updated just now, 2`, "messages? (y/n)")
	s.keys("y")
	// The list is read again after the delete: the fork's row goes (the
	// filter still matches the original's letters: 1 of 1).
	scr := s.waitFor("thread deleted", "chipchat · "+title+" ·", "● "+title, "─ threads fork — 1 of 1")
	if strings.Contains(scr, "(new thread)") || strings.Contains(scr, "(fork)") {
		t.Fatalf("after deleting, the list does not agree with the header:\n%s", scr)
	}
}

// Item 10: a toast goes with what it describes: "long paste kept … alt+e
// expands it" is gone once alt+e expanded the paste.
func TestEndToEndToastEndsWithWhatItSays(t *testing.T) {
	s, _, _ := firstHour(t, 120, 40)
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "pasted line %d\n", i)
	}
	s.run("set-buffer", "--", b.String())
	s.run("paste-buffer", "-p", "-t", s.name)
	s.waitFor("long paste kept as pasted-text-1.txt", "expands it")
	s.keys("M-e")
	scr := s.waitFor("pasted line 40")
	if strings.Contains(scr, "expands it") {
		t.Fatalf("the toast outlived the chip it describes:\n%s", scr)
	}
}

// Item 15: F1 at 80 columns keeps a wrapped description indented, and
// paging down stops at its end with the screen full.
func TestEndToEndHelpAt80Columns(t *testing.T) {
	s, _, _ := firstHour(t, 80, 24)
	s.keys("F1")
	scr := s.waitFor("cancel the running")
	rows := strings.Split(scr, "\n")
	for i, r := range rows {
		if strings.Contains(r, "cancel the running") {
			if i+1 >= len(rows) || !strings.Contains(rows[i+1], "turn from anywhere") || !strings.HasPrefix(rows[i+1], "     ") {
				t.Fatalf("the wrapped description restarts at the left edge:\n%s", scr)
			}
			break
		}
	}
	for range 60 {
		s.keys("PageDown")
	}
	s.waitUntil("the help's end", func(scr string) bool { return strings.Contains(scr, "/chipchat:") })
	scr = s.screen()
	blank := 0
	for _, r := range strings.Split(scr, "\n")[1:18] {
		if strings.TrimSpace(r) == "" {
			blank++
		}
	}
	if blank > 2 {
		t.Fatalf("paging down scrolled past the help's end (%d blank rows):\n%s", blank, scr)
	}
}

// tinyPNG is a valid 1×1 PNG.
var tinyPNG = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
	0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
	0x42, 0x60, 0x82,
}

// Item 22: a dropped image path (quoted, as terminals paste it) becomes an
// image chip; ctrl+z gives the pasted text back; another path stays text.
func TestEndToEndDroppedImagePathBecomesAChip(t *testing.T) {
	s, proj, _ := firstHour(t, 120, 40)
	shot := filepath.Join(filepath.Dir(proj), "my shots", "shot.png")
	if err := os.MkdirAll(filepath.Dir(shot), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shot, tinyPNG, 0o644); err != nil {
		t.Fatal(err)
	}
	s.text("look ")
	s.run("set-buffer", "--", "'"+shot+"' ")
	s.run("paste-buffer", "-p", "-t", s.name)
	scr := s.waitFor("⊡ shot.png")
	if strings.Contains(composerLine(scr), "my shots") {
		t.Fatalf("the path stayed beside the chip:\n%s", scr)
	}
	s.keys("C-z")
	s.waitForComposer("look '" + shot + "'")
	s.keys("C-u")
	notes := filepath.Join(proj, "main.go")
	s.run("set-buffer", "--", notes)
	s.run("paste-buffer", "-p", "-t", s.name)
	s.waitForComposer(notes)
}

// Item 13's rest: attaching a missing file says "no file PATH", once.
func TestEndToEndAttachMissingFileSaysNoFileOnce(t *testing.T) {
	s, proj, _ := firstHour(t, 120, 40)
	missing := filepath.Join(proj, "nope.txt")
	s.keys("C-o")
	s.waitFor("Attach a file")
	s.text(missing)
	s.keys("Enter")
	scr := s.waitFor("no file " + missing)
	if n := strings.Count(scr, "no file "+missing); n != 1 || strings.Contains(scr, "stat ") {
		t.Fatalf("the missing file is reported %d times, or as the raw error:\n%s", n, scr)
	}
}
