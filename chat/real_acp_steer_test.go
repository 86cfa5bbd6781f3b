//go:build unix

package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chipchat/chipchat/internal/acpagents"
	"github.com/chipchat/chipchat/message"
)

// TestRealAgentsSteerIntoTheRunningTurn is alt+i (Service.Steer) against
// the real agents (on a fake model server; only with
// CHIPCHAT_REAL_AGENTS=1), sent while the turn waits on its command's
// permission prompt:
//
//   - Claude Code (claude-agent-acp 0.101.0 advertises _session/steering
//     in its initialize answer's _meta): the message goes into the running
//     turn; the turn's next model request (the one with the command's
//     result) carries it, and no second turn is sent.
//   - Codex (codex-acp 0.16.0 advertises no steering: no _session/steering
//     method and no _meta for it): the message is queued with a notice
//     saying Codex cannot take it mid-turn, and it is sent as the next turn
//     once the running one ends; no model request of the first turn has it.
func TestRealAgentsSteerIntoTheRunningTurn(t *testing.T) {
	acpagents.Each(t, realSteer, "claude", "codex")
}

const steerWords = "Steered words-GOLF"

func realSteer(t *testing.T, ag acpagents.Agent) {
	r := newRealAgent(t, ag, nil)
	steers := ag.Name == "claude"
	r.s.Send(r.thread.ID, Submission{Markdown: "Run the command: " + acpagents.MarkShell, Ref: 7})
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	var (
		notices  []string
		finished []ReplyFinished
		asked    = 0
		pending  *PermissionAsked
		steered  = false
		answered = false
		firstEnd int // the model requests made when the first turn ended
	)
	// The first turn waits on its command's permission; the message is
	// steered then, and the permission answered once chat said what it did
	// with the message.
	for len(finished) < map[bool]int{true: 1, false: 2}[steers] {
		evs := r.s.Wait(ctx)
		if evs == nil {
			t.Fatalf("the turns did not end (notices %q); model requests:\n%s", notices, r.srv.Summary())
		}
		for _, ev := range evs {
			switch ev := ev.(type) {
			case PermissionAsked:
				asked++
				if steered {
					r.s.AnswerPermission(ev.ID, realAllow(ev.Request))
					continue
				}
				if got := r.s.CanSteer(r.thread.ID); got != steers {
					t.Errorf("CanSteer while %s's turn runs = %v, want %v", ag.Name, got, steers)
				}
				pending, steered = &ev, true
				r.s.Steer(r.thread.ID, Submission{Markdown: steerWords + ": " + acpagents.MarkPing2, Ref: 9})
			case SignInAsked:
				r.s.AnswerSignIn(ev.ID, "")
			case Notice:
				notices = append(notices, ev.Text)
				said := strings.Contains(ev.Text, "steered into the running turn") || strings.Contains(ev.Text, "mid-turn")
				if said && !answered && pending != nil {
					answered = true
					r.s.AnswerPermission(pending.ID, realAllow(pending.Request))
				}
			case ReplyFinished:
				if len(finished) == 0 {
					firstEnd = len(r.srv.Exchanges())
				}
				finished = append(finished, ev)
			}
		}
	}
	if asked == 0 || !answered {
		t.Fatalf("no permission asked for the command, or no notice about the steered message (notices %q)", notices)
	}
	for _, f := range finished {
		if f.Status != message.StatusDone || f.Err != nil {
			t.Errorf("a turn ended %s: %v", f.Status, f.Err)
		}
	}
	want := map[bool]string{true: "steered into the running turn", false: "cannot take a message mid-turn: it is queued"}[steers]
	if !realHas(notices, want) {
		t.Errorf("no notice %q: %q", want, notices)
	}
	// The model requests made before the first turn ended: with steering,
	// one of them (inside that turn) carries the steered text, and that
	// turn's reply answers it; without, none does, and the next turn's
	// request has it as its prompt.
	first := r.srv.Exchanges()[:firstEnd]
	inFirst := 0
	for _, ex := range first {
		if strings.Contains(string(ex.Raw), "words-GOLF") && len(ex.Tools) > 0 {
			inFirst++
		}
	}
	replies := 0
	var firstReply string
	for _, m := range r.messages() {
		if m.Role == message.RoleAssistant {
			replies++
			if replies == 1 {
				firstReply = realItemsText(m.Items)
			}
		}
	}
	if steers {
		if inFirst == 0 {
			t.Errorf("no model request of the running turn carries the steered text; model requests:\n%s", realRequests(r))
		}
		if !strings.Contains(firstReply, acpagents.ReplyPing2) {
			t.Errorf("the running turn's reply %q does not answer the steered message (%q)", firstReply, acpagents.ReplyPing2)
		}
		if replies != 1 {
			t.Errorf("%d replies: the steered message became a turn of its own", replies)
		}
	} else {
		if inFirst != 0 {
			t.Errorf("%d model requests of the first turn carry the queued message", inFirst)
		}
		realMainRequest(t, r.srv.Exchanges()[firstEnd:], "words-GOLF")
		if replies != 2 {
			t.Errorf("%d replies, want 2 (the queued message sent as the next turn)", replies)
		}
	}
	// Stored as sent, once; nothing left queued.
	n := 0
	for _, m := range r.messages() {
		if m.Role == message.RoleUser && strings.Contains(m.Text, "words-GOLF") {
			n++
			if m.Status == message.StatusQueued {
				t.Errorf("the steered message is still queued: %+v", m)
			}
		}
	}
	if n != 1 {
		t.Errorf("the steered message is stored %d times", n)
	}
	if q, _ := r.s.Queue(r.thread.ID); len(q) != 0 {
		t.Errorf("queue after the turns: %+v", q)
	}
}

// realAllow answers p with its allow-once option.
func realAllow(p message.Permission) PermissionAnswer {
	for _, o := range p.Options {
		if o.Kind == message.AllowOnce {
			return PermissionAnswer{Outcome: "selected", OptionID: o.ID}
		}
	}
	return PermissionAnswer{Outcome: "rejected"}
}

// realRequests says of each model request what the steering test looks
// for in it.
func realRequests(r *realAgent) string {
	var b strings.Builder
	for _, ex := range r.srv.Exchanges() {
		fmt.Fprintf(&b, "tools %d, tool results %d, steered text %v, command output %v, last user text %q\n", len(ex.Tools), len(ex.LastToolResults()),
			strings.Contains(string(ex.Raw), "words-GOLF"), strings.Contains(string(ex.Raw), r.files.CommandOut), firstN(ex.LastUserText(), 160))
	}
	return b.String()
}

func realHas(ss []string, want string) bool {
	for _, s := range ss {
		if strings.Contains(s, want) {
			return true
		}
	}
	return false
}
