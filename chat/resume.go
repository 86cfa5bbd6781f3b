package chat

import (
	"strings"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/fragment"
	"github.com/chipchat/chipchat/message"
)

// handover is what a backend with sessions hands a new agent session when
// the thread's own cannot be resumed: the thread's messages before upTo as
// a <thread_history> fragment, as a thread chip hands them (user messages
// as the agent read them, replies as their text), within
// Limits.ResumeHistoryBytes, the oldest left out first. It reads the store
// when the backend asks (the backend's goroutine).
func (s *Service) handover(threadID, upTo string) *agent.Handover {
	return &agent.Handover{History: func() (string, int, int) {
		msgs, err := s.st.Messages(threadID)
		if err != nil {
			return "", 0, 0
		}
		var tms []fragment.ThreadMessage
		for _, m := range msgs {
			if m.ID == upTo {
				break
			}
			switch {
			case m.Status == message.StatusQueued:
			case m.Role == message.RoleUser:
				text, recs := resolveContext(m.Text, m.Context)
				tms = append(tms, fragment.ThreadMessage{Role: "user", Text: contextref.ProjectForProvider(text, recs)})
			default:
				if r := message.ReplyText(m.Items); strings.TrimSpace(r) != "" {
					tms = append(tms, fragment.ThreadMessage{Role: "assistant", Text: r})
				}
			}
		}
		if len(tms) == 0 {
			return "", 0, 0
		}
		title := ""
		if th, err := s.st.Thread(threadID); err == nil {
			title = th.Title
		}
		limit := s.opt.Limits.ResumeHistoryBytes
		if limit <= 0 {
			limit = agent.DefaultLimits().ResumeHistoryBytes
		}
		h := fragment.FitThreadHistory(threadID, title, tms, int(limit))
		return fragment.Render(h), len(h.Messages), h.Omitted
	}}
}
