package chat

import (
	"strings"
	"testing"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// ForkBefore message 2 of 3: the fork "<title> (from message 2)" holds
// turn 1 (its chips kept), the original all three; the fork's first turn
// has no session and hands over turn 1 only.
func TestForkBeforeAMessage(t *testing.T) {
	fb := &fakeBackend{caps: agent.Capabilities{Cancel: true, Sessions: true}, turns: make(chan *fakeTurn, 4)}
	e := newEnvFor(t, fb, fb)
	chip := mentionRecord("main.go")
	for i, text := range []string{"first " + contextref.LinkFor(chip), "second", "third"} {
		sub := Submission{Markdown: text, Ref: uint64(10 + i)}
		if i == 0 {
			sub.Records = []contextref.Record{chip}
		}
		e.s.Send(e.thread.ID, sub)
		ft := e.turn()
		if i == 0 {
			ft.emit(agent.SessionStarted{ID: "s1"})
		}
		ft.emit(agent.TextDelta{Text: "answer " + text[:5]})
		ft.end <- nil
		until[ReplyFinished](e, nil)
	}
	if err := e.st.RenameThread(e.thread.ID, "Release"); err != nil {
		t.Fatal(err)
	}
	orig := e.messages()
	e.s.ForkBefore(e.thread.ID, orig[2].ID) // the second user message
	fk := until[Forked](e, nil)
	if fk.Title != "Release (from message 2)" {
		t.Errorf("title %q", fk.Title)
	}
	if fk.Edit == nil || fk.Edit.ID != orig[2].ID || fk.Edit.Text != "second" {
		t.Errorf("the message to edit: %+v", fk.Edit)
	}
	ms, _ := e.st.Messages(fk.ThreadID)
	if len(ms) != 2 || ms[0].Role != message.RoleUser || message.ReplyText(ms[1].Items) != "answer first" {
		t.Fatalf("the fork holds %+v", ms)
	}
	if ms[0].Context == nil || len(ms[0].Context.Records) != 1 {
		t.Errorf("the fork's first message lost its chip: %+v", ms[0].Context)
	}
	if n := len(e.messages()); n != 6 {
		t.Errorf("the original has %d messages", n)
	}
	e.s.Send(fk.ThreadID, Submission{Markdown: "second, edited", Ref: 20})
	ft := e.turn()
	if ft.turn.SessionID != "" {
		t.Errorf("the fork's turn has session %q", ft.turn.SessionID)
	}
	ft.turn.Handover.Take()
	h := ft.turn.Handover.Text()
	if !strings.Contains(h, "<thread_history") || !strings.Contains(h, "answer first") || strings.Contains(h, "second") || strings.Contains(h, "third") {
		t.Errorf("handed over %q", h)
	}
	ft.end <- nil

	// From the first message: an empty fork.
	e.s.ForkBefore(e.thread.ID, orig[0].ID)
	fk = until[Forked](e, nil)
	if fk.Edit == nil || fk.Edit.Context == nil || len(fk.Edit.Context.Records) != 1 {
		t.Errorf("the first message to edit lost its chip: %+v", fk.Edit)
	}
	if ms, _ := e.st.Messages(fk.ThreadID); len(ms) != 0 || fk.Title != "Release (from message 1)" {
		t.Errorf("from message 1: %q %+v", fk.Title, ms)
	}
	// A reply is no place to fork before.
	e.s.ForkBefore(e.thread.ID, orig[1].ID)
	if n := until[Notice](e, nil); !strings.Contains(n.Text, "no user message") {
		t.Errorf("notice %q", n.Text)
	}
	if got := rewindTitle(strings.Repeat("x", 90), 12); len([]rune(got)) > 80 || !strings.HasSuffix(got, " (from message 12)") {
		t.Errorf("long title %q", got)
	}
}
