package ui

import (
	"reflect"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/ui/overlay"
	"github.com/chipchat/chipchat/workspace"
)

// The agent's elicitations (dialog.Elicit): shown with its other
// questions, answered through chat; a link is opened off the UI goroutine
// (workspace.OpenURL), then answered accept.

// isQuestion is an overlay of the agent's questions (they queue in order).
func isQuestion(o dialog.Overlay) bool {
	return overlay.Is[*dialog.Ask](o) || overlay.Is[*dialog.Elicit](o)
}

func isElicit(id int64) func(dialog.Overlay) bool {
	return func(o dialog.Overlay) bool { e, ok := o.(*dialog.Elicit); return ok && e.ID == id }
}

// elicitEvent takes chat's elicitation events.
func (c *conversation) elicitEvent(ev any) effect {
	switch e := ev.(type) {
	case chat.ElicitationAsked:
		c.ovs.PushUnder(dialog.NewElicit(c.keys, e), isQuestion)
	case chat.ElicitationDone:
		done := func(o dialog.Overlay) bool {
			p, ok := o.(*dialog.Elicit)
			return ok && p.Waiting() && p.Request().ElicitationID == e.ElicitationID && p.ThreadID == e.ThreadID
		}
		c.ovs.Remove(done)
		return effect{cmd: c.notify("the agent says the link's step is done", false)}
	}
	return effect{}
}

// elicitOpened is a link opened: the agent is told accept, the prompt waits.
type elicitOpened struct {
	id   int64
	note string
}

func elicitRows(add func(reflect.Type, handler)) {
	add(on(func(a *App, m elicitOpened) tea.Cmd {
		a.chat.AnswerElicitation(m.id, chat.ElicitAnswer{Action: "accept"})
		return tea.Batch(a.deliver(isElicit(m.id), dialog.Opened{}), a.notify(m.note, false))
	}))
}

// elicitResult acts on the prompt's results.
func elicitResult(a *App, res any) (tea.Cmd, bool) {
	switch r := res.(type) {
	case dialog.ElicitAnswered:
		a.chat.AnswerElicitation(r.ID, r.Answer)
	case dialog.ElicitOpen:
		id, u := r.ID, r.URL
		return func() tea.Msg { return elicitOpened{id: id, note: workspace.OpenURL(u)} }, true
	case dialog.ElicitCopy:
		return a.clip.copyText(r.URL, nil, contextref.FragmentSource{}, "the link"), true
	default:
		return nil, false
	}
	return nil, true
}
