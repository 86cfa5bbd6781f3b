package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/ui/keymap"
)

// / in the transcript opens the search field on the footer row; enter
// searches and goes to the first match, the hint bar counts the matches,
// n steps, esc clears the search and a second esc goes back to the
// composer; / again shows the query kept.
func TestSearchInTheThread(t *testing.T) {
	e := newTestEnv(t)
	msgs := []store.Message{{Role: message.RoleUser, Text: "where does the parser fail?", Status: message.StatusDone}}
	for i := range 12 {
		msgs = append(msgs, store.Message{Role: message.RoleAssistant, Text: fmt.Sprintf("reply %d about other things", i), Status: message.StatusDone},
			store.Message{Role: message.RoleUser, Text: fmt.Sprintf("question %d", i), Status: message.StatusDone})
	}
	msgs = append(msgs, store.Message{Role: message.RoleAssistant, Text: "The Parser fails on a tab.", Status: message.StatusDone})
	h := e.open(e.newThread("search", msgs...).ID)
	h.press("tab")
	h.press("/")
	h.pumpUntil("the field", func() bool { return h.app.ovs.Top() != nil })
	if f := h.footer(); !strings.Contains(f, " / ") || !strings.Contains(f, "enter search") {
		t.Fatalf("no search field on the footer: %q", f)
	}
	if got := h.app.ovs.Top().Scope(); got != keymap.ScopeSearch {
		t.Fatalf("the field's scope is %q", got)
	}
	h.typeText("parser")
	h.press("enter")
	h.pumpUntil("the matches", func() bool { return strings.Contains(h.footer(), "1 of 2") })
	if i, _ := h.app.tr.Selected(); i != 0 {
		t.Fatalf("the first match focuses message %d", i)
	}
	if !strings.Contains(h.view(), "\x1b[7mparser\x1b[27m") {
		t.Fatalf("the match is not highlighted:\n%s", h.plain())
	}
	h.press("n")
	if f := h.footer(); !strings.Contains(f, "2 of 2") || !strings.Contains(f, "n next · N previous") {
		t.Fatalf("after n the hint bar says %q", f)
	}
	if i, _ := h.app.tr.Selected(); i != len(msgs)-1 {
		t.Fatalf("n focuses message %d, want the last", i)
	}
	h.press("esc")
	if q, _, _, _ := h.app.tr.SearchStatus(); q != "" || h.app.focus != paneTranscript {
		t.Fatalf("esc: search %q, focus %v; want the search cleared in the transcript", q, h.app.focus)
	}
	h.press("/")
	h.pumpUntil("the field", func() bool { return h.app.ovs.Top() != nil })
	h.typeText("zzz")
	h.press("enter")
	h.pumpUntil("no match", func() bool { return strings.Contains(h.footer(), `no match for "zzz"`) })
	h.press("esc", "esc")
	if h.app.focus != paneComposer {
		t.Fatal("esc with no search does not go back to the composer")
	}
}

// ctrl+f in the thread list searches every thread's messages: rows of
// thread, age and the matching line with the match marked; tab widens it
// to every project; enter opens the thread with the message focused.
func TestFindInEveryThread(t *testing.T) {
	e := newTestEnv(t)
	other := e.newThread("elsewhere", store.Message{Role: message.RoleUser, Text: "nothing here", Status: message.StatusDone},
		store.Message{Role: message.RoleAssistant, Text: "the tokenizer drops tabs", Status: message.StatusDone},
		store.Message{Role: message.RoleUser, Text: "thanks", Status: message.StatusDone})
	h := e.open(e.newThread("here", store.Message{Role: message.RoleUser, Text: "hello", Status: message.StatusDone}).ID)
	h.press("ctrl+l")
	h.popupLoaded()
	if !strings.Contains(h.footer(), "ctrl+f search messages") {
		t.Fatalf("the list's hints lack the search: %q", h.footer())
	}
	h.press("ctrl+f")
	if got := h.app.ovs.Top().Scope(); got != keymap.ScopeFind {
		t.Fatalf("ctrl+f opened %q", got)
	}
	h.typeText("tokeni")
	h.pumpUntil("the message found", func() bool { return strings.Contains(h.plain(), "elsewhere · ") })
	if v := h.view(); !strings.Contains(v, "\x1b[7mtokenizer\x1b[27m") || !strings.Contains(h.plain(), "the tokenizer drops tabs") {
		t.Fatalf("the row does not mark the match:\n%s", h.plain())
	}
	h.press("tab")
	if !strings.Contains(h.plain(), "every project's threads") || !strings.Contains(h.footer(), "tab this project") {
		t.Fatalf("tab did not widen the search:\n%s", h.plain())
	}
	h.pumpUntil("the search again", func() bool { return strings.Contains(h.plain(), "elsewhere · ") })
	h.press("enter")
	h.pumpUntil("the thread opened", func() bool { return h.app.thread.ID == other.ID && h.app.focus == paneTranscript })
	if i, _ := h.app.tr.Selected(); i != 1 {
		t.Fatalf("message %d focused, want the reply found", i)
	}
}
