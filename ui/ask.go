package ui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/fragment"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/transcript"
)

// An agent asks the user from its own goroutine (a permission request, a
// sign-in method) and blocks until they answer. The question travels to
// the UI as a message and the answer back on a channel; Update never
// blocks.

type askRequest struct {
	ctx   context.Context
	q     agent.Question
	reply chan agent.Answer
}

// askMsg delivers a question to Update.
type askMsg struct{ req askRequest }

// asker bridges a backend's Ask to the UI.
type asker struct{ ch chan askRequest }

func newAsker() *asker { return &asker{ch: make(chan askRequest)} }

// Ask is the backend's side: it waits for the user's answer, or for ctx.
func (k *asker) Ask(ctx context.Context, q agent.Question) (agent.Answer, error) {
	req := askRequest{ctx: ctx, q: q, reply: make(chan agent.Answer, 1)}
	select {
	case k.ch <- req:
	case <-ctx.Done():
		return agent.Answer{}, ctx.Err()
	}
	select {
	case a := <-req.reply:
		return a, nil
	case <-ctx.Done():
		return agent.Answer{}, ctx.Err()
	}
}

// listen is the UI's side: a command that waits for the next question.
func (k *asker) listen() tea.Cmd {
	return func() tea.Msg { return askMsg{<-k.ch} }
}

// askBox is the open question: digits or the option's first letter pick,
// esc dismisses (the agent gets no option).
type askBox struct {
	req askRequest
	sel int
}

// asked shows a question from the agent.
func (a *App) asked(m askMsg) tea.Cmd {
	if m.req.ctx.Err() != nil { // the turn ended meanwhile
		return a.ask.listen()
	}
	a.askBox = &askBox{req: m.req}
	a.ov = overlayAsk
	return nil
}

func (b *askBox) key(a *App, msg tea.KeyPressMsg) tea.Cmd {
	opts := b.req.q.Options
	answer := func(id string) tea.Cmd {
		b.req.reply <- agent.Answer{OptionID: id}
		a.ov, a.askBox = overlayNone, nil
		return a.ask.listen()
	}
	switch s := msg.String(); {
	case s == "esc":
		return answer("")
	case s == "up" || s == "k":
		b.sel = max(0, b.sel-1)
	case s == "down" || s == "j":
		b.sel = min(len(opts)-1, b.sel+1)
	case s == "enter" && len(opts) > 0:
		return answer(opts[b.sel].ID)
	case len(s) == 1 && s[0] >= '1' && s[0] <= '9' && int(s[0]-'1') < len(opts):
		return answer(opts[s[0]-'1'].ID)
	}
	return nil
}

func (b *askBox) view(width int) []string {
	q := b.req.q
	title := "The agent asks"
	if q.Kind == agent.QuestionAuth {
		title = "Sign in"
	}
	lines := []string{chips.Truncate(chips.SanitizeLine(title+": "+q.Title), width)}
	for _, l := range strings.Split(chips.Sanitize(q.Detail), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, chips.Truncate("  "+l, width))
		}
	}
	lines = append(lines, "")
	for i, o := range q.Options {
		mark := "  "
		if i == b.sel {
			mark = "> "
		}
		lines = append(lines, chips.Truncate(fmt.Sprintf("%s%d. %s", mark, i+1, chips.SanitizeLine(o.Label)), width))
	}
	return append(lines, "", "1-9 or enter choose · esc dismiss")
}

// sessioner is a backend that keeps an agent-side session per thread (ACP).
type sessioner interface {
	Name() string
	SessionID(threadID string) string
	SetSessionID(threadID, sessionID string)
}

// resumeSession gives the backend the session the thread had with this
// agent before (after a restart), so the agent resumes it. It reads the
// store: call it from a command.
func resumeSession(st *store.Store, b agent.Backend, threadID string) {
	s, ok := b.(sessioner)
	if !ok || s.SessionID(threadID) != "" {
		return
	}
	if id, ok, err := st.AgentSession(threadID, s.Name()); err == nil && ok {
		s.SetSessionID(threadID, id)
	}
}

// saveSession records the agent's session of the thread after a turn.
func saveSession(st *store.Store, b agent.Backend, threadID string) error {
	s, ok := b.(sessioner)
	if !ok {
		return nil
	}
	if id := s.SessionID(threadID); id != "" {
		return st.SetAgentSession(threadID, s.Name(), id)
	}
	return nil
}

// threadHistory is the thread's conversation before the message upTo, as a
// harness backend sends it: user messages projected (legacy ones upgraded
// in memory), replies as written. It reads the store: call it from a
// command.
func threadHistory(st *store.Store, threadID, upTo string) []agent.HistoryMessage {
	msgs, err := st.Messages(threadID)
	if err != nil {
		return nil
	}
	var out []agent.HistoryMessage
	compacting := false
	for _, m := range msgs {
		if m.ID == upTo {
			break
		}
		if compacting && m.Role == message.RoleAssistant && m.Status == message.StatusDone && strings.TrimSpace(m.Text) != "" {
			// A /compact's reply is the summary: what came before is now
			// the user's words and that summary.
			var kept []agent.HistoryMessage
			for _, h := range out {
				if h.Role == "user" {
					kept = append(kept, h)
				}
			}
			out = append(kept, agent.HistoryMessage{Role: "user", Text: fragment.Render(fragment.ConversationSummary{Text: m.Text})})
			compacting = false
			continue
		}
		compacting = false
		if m.Role == message.RoleUser && strings.TrimSpace(m.Text) == agent.CompactCommand {
			compacting = true
			continue
		}
		switch m.Role {
		case message.RoleUser:
			text, recs := transcript.ResolveUserMessageContext(m.Text, m.Context)
			out = append(out, agent.HistoryMessage{Role: "user", Text: contextref.Project(text, recs)})
		case message.RoleAssistant:
			if m.Text != "" {
				out = append(out, agent.HistoryMessage{Role: "assistant", Text: m.Text})
			}
		}
	}
	return out
}
