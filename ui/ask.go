package ui

import (
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/dialog"
)

// The agent's question and the prompt's results (dialog.QuestionBox's; its prompt on
// the stack is dialog.Ask).
type (
	pendingAsk  = dialog.Question
	askAnswered = dialog.Answered
	interrupted = dialog.Interrupted
)

func newPermissionAsk(e chat.PermissionAsked) pendingAsk {
	return pendingAsk{ID: e.ID, ThreadID: e.ThreadID, Permission: &e}
}
