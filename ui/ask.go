package ui

import (
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/ui/askbox"
)

// The agent's question and the prompt's results (askbox's; its prompt on
// the stack is overlay.Ask).
type (
	pendingAsk  = askbox.Ask
	askAnswered = askbox.Answered
	interrupted = askbox.Interrupted
)

func newPermissionAsk(e chat.PermissionAsked) pendingAsk {
	return pendingAsk{ID: e.ID, ThreadID: e.ThreadID, Permission: &e}
}
