package chat

import (
	"fmt"
	"strings"

	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
)

// ForkBefore forks the thread at its user message messageID (the rewind):
// a new thread "<title> (from message N)", N counting the thread's user
// messages from 1, holding copies of the messages before it (their
// context, chips and attachments as stored); the original is untouched.
// It is reported with Forked, whose Edit is that message (its text and
// chips, for the composer); the caller sends the edited message there.
// The fork has no agent session: its first turn hands the agent the
// earlier messages as <thread_history> (Turn.Handover), and a harness
// backend gets them as its history.
func (s *Service) ForkBefore(threadID, messageID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.do(func() {
		t, edit, err := s.forkBefore(threadID, messageID)
		s.mu.Lock()
		defer s.mu.Unlock()
		if err != nil {
			s.emit(Notice{ThreadID: threadID, Text: "fork failed: " + err.Error(), Err: true})
			return
		}
		v := viewMessage(edit)
		s.emit(Forked{From: threadID, ThreadID: t.ID, Title: t.Title, Edit: &v})
	})
}

func (s *Service) forkBefore(threadID, messageID string) (store.Thread, store.Message, error) {
	ms, err := s.st.Messages(threadID)
	if err != nil {
		return store.Thread{}, store.Message{}, err
	}
	at, n := -1, 0
	for i, m := range ms {
		if m.Role == message.RoleUser && m.Status != message.StatusQueued {
			n++
		}
		if m.ID == messageID {
			at = i
			break
		}
	}
	if at < 0 || ms[at].Role != message.RoleUser {
		return store.Thread{}, store.Message{}, fmt.Errorf("message %s is no user message of the thread", messageID)
	}
	orig, err := s.st.Thread(threadID)
	if err != nil {
		return store.Thread{}, store.Message{}, err
	}
	var t store.Thread
	if at == 0 {
		t, err = s.st.CreateThread(s.opt.ProjectID)
	} else {
		t, err = s.st.ForkThread(s.opt.ProjectID, threadID, ms[at-1].ID)
	}
	if err != nil {
		return store.Thread{}, store.Message{}, err
	}
	t.Title = rewindTitle(orig.Title, n)
	return t, ms[at], s.st.RenameThread(t.ID, t.Title)
}

// rewindTitle is "<title> (from message n)", the title cut to fit.
func rewindTitle(title string, n int) string {
	suffix := fmt.Sprintf(" (from message %d)", n)
	if strings.TrimSpace(title) == "" {
		title = "Untitled"
	}
	if r, max := []rune(title), store.MaxTitleLen-len([]rune(suffix)); len(r) > max {
		title = strings.TrimSpace(string(r[:max]))
	}
	return title + suffix
}
