package ui

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/terminal"
)

// A tab main hands over to be answered (a remote project's first ssh
// connection) is shown with the keys in it and its note toasted; once
// answered it goes (or stays to read) and the keys are the composer's.
func TestAskTabShownFocusedThenAnswered(t *testing.T) {
	for _, remove := range []bool{true, false} {
		h, host := openWithTerms(t)
		term, err := terminal.StartCommand("ssh-first", "ssh box", 0, "", nil, []string{"sh", "-c", "printf 'Are you sure? '; read a; echo got $a"})
		if err != nil {
			t.Fatal(err)
		}
		go host.Ask(term, "connecting to box: answer ssh in the terminal")
		h.pumpUntil("the asking tab", func() bool {
			return paneHas(h, "ssh-first") && strings.Contains(h.plain(), "Are you sure?")
		})
		if h.focus() != paneTerminal || !h.app.panes.shown || !strings.Contains(h.app.Toast(), "answer ssh in the terminal") {
			t.Fatalf("the asking tab: focus %v, shown %v, toast %q", h.focus(), h.app.panes.shown, h.app.Toast())
		}
		h.typeText("yes")
		h.press("enter") // to the tab's program: it ends
		waitExit(t, term)
		go host.Answered(term.ID, remove)
		h.pumpUntil("the answer", func() bool { return h.focus() == paneComposer })
		if paneHas(h, "ssh-first") == remove {
			t.Fatalf("remove %v: the tab is in the pane: %v", remove, paneHas(h, "ssh-first"))
		}
		if h.app.panes.shown == remove {
			t.Fatalf("remove %v: the pane is shown: %v", remove, h.app.panes.shown)
		}
	}
}
