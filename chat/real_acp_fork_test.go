//go:build unix

package chat

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/acpagents"
	"github.com/chipchat/chipchat/internal/fakemodel"
	"github.com/chipchat/chipchat/message"
)

// TestRealAgentForkFromMessageTwoOfFour is issue 26's rewind against the
// real Claude Code (claude-agent-acp on a fake model server; only with
// CHIPCHAT_REAL_AGENTS=1): four turns, then a fork before message 2 with
// its edited text. The fork's model request holds turn 1 only (handed to a
// new session as <thread_history>), the original thread's next request
// holds all four turns (its own session goes on), and the original keeps
// its eight messages.
func TestRealAgentForkFromMessageTwoOfFour(t *testing.T) {
	acpagents.Each(t, realForkBefore, "claude")
}

// The words each turn's prompt carries, to find it in a model request.
var forkWords = []string{"words-ALPHA", "words-BRAVO", "words-CHARLIE", "words-DELTA"}

func realForkBefore(t *testing.T, ag acpagents.Agent) {
	r := newRealAgent(t, ag, nil)
	marks := []string{acpagents.MarkPing1, acpagents.MarkPing2, acpagents.MarkPing3, acpagents.MarkModel}
	for i, w := range forkWords {
		if fin := r.turn(t, "Turn "+w+": "+marks[i]); fin.Status != message.StatusDone || fin.Err != nil {
			t.Fatalf("turn %d ended %s: %v", i+1, fin.Status, fin.Err)
		}
	}
	ms := r.messages()
	var users []realUserMsg
	for _, m := range ms {
		if m.Role == message.RoleUser {
			users = append(users, realUserMsg{id: m.ID, text: m.Text})
		}
	}
	if len(users) != 4 || len(ms) != 8 {
		t.Fatalf("the thread holds %d messages, %d from the user", len(ms), len(users))
	}
	orig, err := r.st.Thread(r.thread.ID)
	if err != nil {
		t.Fatal(err)
	}
	title := orig.Title

	r.s.ForkBefore(r.thread.ID, users[1].id)
	f := untilWithin(r.env, 10*time.Second, func(f Forked) bool { return f.From == r.thread.ID })
	if f.Edit == nil || !strings.Contains(f.Edit.Text, forkWords[1]) {
		t.Fatalf("the fork's edit is not message 2: %+v", f.Edit)
	}
	if want := rewindTitle(title, 2); f.Title != want || !strings.HasSuffix(f.Title, " (from message 2)") {
		t.Errorf("the fork's title %q, want %q", f.Title, want)
	}
	forked, err := r.st.Messages(f.ThreadID)
	if err != nil {
		t.Fatal(err)
	}
	if len(forked) != 2 || !strings.Contains(forked[0].Text, forkWords[0]) {
		t.Fatalf("the fork holds %d messages, want turn 1's two: %+v", len(forked), forked)
	}

	// The edited message 2, sent in the fork.
	before := len(r.srv.Exchanges())
	fin := r.turnIn(t, f.ThreadID, "Edited words-ECHO: "+acpagents.MarkPing2)
	if fin.Status != message.StatusDone || fin.Err != nil {
		t.Fatalf("the fork's turn ended %s: %v", fin.Status, fin.Err)
	}
	main := realMainRequest(t, r.srv.Exchanges()[before:], "words-ECHO")
	raw := string(main.Raw)
	if !strings.Contains(raw, forkWords[0]) || !strings.Contains(raw, acpagents.ReplyPing1) {
		t.Errorf("the fork's model request lacks turn 1 (%s, %q)", forkWords[0], acpagents.ReplyPing1)
	}
	// Every request of the fork's session (those holding its new message;
	// the original session's own side requests, such as its title, may
	// come meanwhile) holds nothing after the fork point.
	for _, ex := range r.srv.Exchanges()[before:] {
		if !strings.Contains(string(ex.Raw), "words-ECHO") {
			continue
		}
		for _, w := range forkWords[1:] {
			if strings.Contains(string(ex.Raw), w) {
				t.Errorf("a model request of the fork holds %s, a turn after the fork point; its last user text %q, tools %d, system %q", w, firstN(ex.LastUserText(), 300), len(ex.Tools), firstN(ex.System, 200))
			}
		}
	}
	if got := realReplyText(t, r, f.ThreadID); !strings.Contains(got, acpagents.ReplyPing2) {
		t.Errorf("the fork's reply %q", got)
	}

	// The original thread goes on in its own session, with all four turns.
	before = len(r.srv.Exchanges())
	fin = r.turnIn(t, r.thread.ID, "Fifth words-FOXTROT: "+acpagents.MarkPing3)
	if fin.Status != message.StatusDone || fin.Err != nil {
		t.Fatalf("the original's turn ended %s: %v", fin.Status, fin.Err)
	}
	main = realMainRequest(t, r.srv.Exchanges()[before:], "words-FOXTROT")
	raw = string(main.Raw)
	for _, w := range forkWords {
		if !strings.Contains(raw, w) {
			t.Errorf("the original's next model request lacks %s", w)
		}
	}
	if strings.Contains(raw, "words-ECHO") {
		t.Errorf("the original's next model request holds the fork's message")
	}
	if n := len(r.messages()); n != 10 {
		t.Errorf("the original holds %d messages after its fifth turn, want 10", n)
	}
}

type realUserMsg struct{ id, text string }

// turnIn sends text in thread and waits for its reply's end, rejecting
// permissions and answering sign-ins.
func (r *realAgent) turnIn(t *testing.T, thread, text string) ReplyFinished {
	t.Helper()
	r.s.Send(thread, Submission{Markdown: text, Ref: 11})
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	for {
		evs := r.s.Wait(ctx)
		if evs == nil {
			t.Fatalf("the turn of %q did not end; model requests:\n%s", text, r.srv.Summary())
		}
		for _, ev := range evs {
			switch ev := ev.(type) {
			case PermissionAsked:
				r.s.AnswerPermission(ev.ID, PermissionAnswer{Outcome: "rejected"})
			case SignInAsked:
				r.s.AnswerSignIn(ev.ID, "")
			case ReplyFinished:
				if ev.ThreadID == thread {
					return ev
				}
			}
		}
	}
}

// realMainRequest is the model request of the turn whose prompt holds
// mark: the last one whose newest user text has it and that offers tools
// (the agent's side requests, such as Claude's title, quote the prompt
// alone and offer none).
func realMainRequest(t *testing.T, exs []*fakemodel.Exchange, mark string) *fakemodel.Exchange {
	t.Helper()
	var found *fakemodel.Exchange
	for _, ex := range exs {
		if strings.Contains(ex.LastUserText(), mark) && len(ex.Tools) > 0 {
			found = ex
		}
	}
	if found == nil {
		var seen []string
		for _, ex := range exs {
			seen = append(seen, firstN(ex.LastUserText(), 200))
		}
		t.Fatalf("no model request with tools has %q in its last user text; their last texts: %q", mark, seen)
	}
	return found
}

// realReplyText is the last assistant message's text items in thread.
func realReplyText(t *testing.T, r *realAgent, thread string) string {
	t.Helper()
	ms, err := r.st.Messages(thread)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role == message.RoleAssistant {
			return realItemsText(ms[i].Items)
		}
	}
	return ""
}

// realItemsText is the text of a reply's text items.
func realItemsText(items []message.Item) string {
	var b strings.Builder
	for _, it := range items {
		if it.Kind == message.ItemText {
			b.WriteString(it.Text)
		}
	}
	return b.String()
}

// TestRealAgentWholeThreadForkCopiesClaudesSession is `f` on the last
// message against the real Claude Code: claude-agent-acp offers
// session/fork, so the fork's agent side is a copy of the thread's session
// (no <thread_history> handed over), whose next model request holds both
// turns; the original thread goes on in its own session, without the
// fork's message. Only with CHIPCHAT_REAL_AGENTS=1.
func TestRealAgentWholeThreadForkCopiesClaudesSession(t *testing.T) {
	acpagents.Each(t, realWholeFork, "claude")
}

func realWholeFork(t *testing.T, ag acpagents.Agent) {
	r := newRealAgent(t, ag, nil)
	marks := []string{acpagents.MarkPing1, acpagents.MarkPing2}
	for i, w := range forkWords[:2] {
		if fin := r.turn(t, "Turn "+w+": "+marks[i]); fin.Status != message.StatusDone || fin.Err != nil {
			t.Fatalf("turn %d ended %s: %v", i+1, fin.Status, fin.Err)
		}
	}
	ms := r.messages()
	r.s.Fork(r.thread.ID, ms[len(ms)-1].ID)
	f := untilWithin(r.env, 30*time.Second, func(f Forked) bool { return f.From == r.thread.ID })
	if f.Edit != nil {
		t.Fatalf("a whole-thread fork carries an edit: %+v", f.Edit)
	}
	before := len(r.srv.Exchanges())
	if fin := r.turnIn(t, f.ThreadID, "In the fork words-HOTEL: "+acpagents.MarkPing3); fin.Status != message.StatusDone || fin.Err != nil {
		t.Fatalf("the fork's turn ended %s: %v", fin.Status, fin.Err)
	}
	main := realMainRequest(t, r.srv.Exchanges()[before:], "words-HOTEL")
	for _, w := range forkWords[:2] {
		if !strings.Contains(string(main.Raw), w) {
			t.Errorf("the fork's model request lacks %s", w)
		}
	}
	if strings.Contains(string(main.Raw), "thread_history") {
		t.Errorf("the fork's history was handed over as <thread_history>, not copied with session/fork")
	}
	before = len(r.srv.Exchanges())
	if fin := r.turnIn(t, r.thread.ID, "Back in the original words-INDIA: "+acpagents.MarkPing3); fin.Status != message.StatusDone || fin.Err != nil {
		t.Fatalf("the original's turn ended %s: %v", fin.Status, fin.Err)
	}
	main = realMainRequest(t, r.srv.Exchanges()[before:], "words-INDIA")
	if raw := string(main.Raw); strings.Contains(raw, "words-HOTEL") || !strings.Contains(raw, forkWords[1]) {
		t.Errorf("the original's request: holds the fork's message %v, holds its own turn 2 %v", strings.Contains(raw, "words-HOTEL"), strings.Contains(raw, forkWords[1]))
	}
}
