package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Thread chips and assistant quotes end to end: in a second thread, #
// lists the first one and inserts its chip; q on a selected sentence of the
// echo agent's reply inserts a quote chip; sent, the echo agent's
// projection has the thread entry (DESIGN.md 3.5) and the citation block
// (3.8) after the envelope.
func TestEndToEndThreadChipAndQuote(t *testing.T) {
	bin := chipchatBinary(t)
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	writeFile(t, filepath.Join(proj, "README"), "x\n")
	home := filepath.Join(root, "home")
	command := fmt.Sprintf("cd %q && env HOME=%q XDG_CONFIG_HOME=%q TERM=xterm-256color %q --data-dir %q; echo EXITED=$?; sleep 600",
		proj, home, filepath.Join(home, ".config"), bin, filepath.Join(root, "data"))
	s := startTmuxSize(t, command, 120, 60)
	s.waitFor("agent echo", "enter send")

	// The first thread gets a title from its first message.
	s.text("Planning notes")
	s.keys("Enter")
	s.waitFor("chipchat · Planning notes", "Echo agent")

	// A second thread: a reply to quote from.
	s.keys("C-n")
	s.waitFor("new thread")
	s.text("Quote me")
	s.keys("Enter")
	s.waitFor("chipchat · Quote me", "Echo agent — this is exactly what a model would receive:")

	// # lists the other thread.
	s.text("see ")
	s.text("#")
	s.waitFor("Planning notes")
	s.keys("Enter")
	s.waitFor("# Planning notes")
	s.text("and ") // the chip came with a space after it

	// The reply's first sentence: v starts on its first word; w extends.
	s.keys("Tab")
	s.keys("End")
	s.keys("v")
	s.waitFor("Selection · 1 word ")
	s.keys("w", "w")
	s.waitFor("Selection · 3 words")
	s.keys("q")
	s.waitFor("❝ Echo agent —")
	s.text("please")
	s.keys("Enter")
	scr := s.waitFor("see [Thread: Planning notes; ref=thread-", "and [assistant-quote-1] please",
		`<context kind="thread" id="thread-`, "title: Planning notes", "threadId: thr_", "environmentId: ",
		"The user attached this thread as reference material.",
		"<assistant_citations>", "The following excerpts were selected from earlier assistant responses.",
		`"id": "assistant-quote-1"`, `"text": "Echo agent —"`, `"start": 0`, `"end": 12`, "</assistant_citations>")
	// The citation block comes after the envelope.
	if i, j := strings.Index(scr, "</t3_context>"), strings.Index(scr, "<assistant_citations>"); i < 0 || j < i {
		t.Fatalf("the citations come after the envelope:\n%s", scr)
	}
	// The thread entry's id and the quote's thread are the ones of this
	// environment.
	env := regexp.MustCompile(`environmentId: (\S+)`).FindStringSubmatch(scr)
	if env == nil || !strings.Contains(scr, `"environmentId": "`+env[1]+`"`) {
		t.Fatalf("one environment id for both:\n%s", scr)
	}
	s.keys("C-q")
	s.waitFor("EXITED=0")
}
