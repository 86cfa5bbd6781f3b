package ui

import (
	"reflect"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/ui/overlay"
	"github.com/chipchat/chipchat/workspace"
)

// The agent's elicitations (overlay.Elicit): shown with its other
// questions, answered through chat; a link is opened off the UI goroutine
// (workspace.OpenURL), then answered accept.

// isQuestion is an overlay of the agent's questions (they queue in order).
func isQuestion(o overlay.Overlay) bool {
	return overlay.Is[*overlay.Ask](o) || overlay.Is[*overlay.Elicit](o)
}

func isElicit(id int64) func(overlay.Overlay) bool {
	return func(o overlay.Overlay) bool { e, ok := o.(*overlay.Elicit); return ok && e.ID == id }
}

// elicitEvent takes chat's elicitation events.
func (c *conversation) elicitEvent(ev any) effect {
	switch e := ev.(type) {
	case chat.ElicitationAsked:
		c.ovs.PushUnder(overlay.NewElicit(c.keys, e), isQuestion)
	case chat.ElicitationDone:
		done := func(o overlay.Overlay) bool {
			p, ok := o.(*overlay.Elicit)
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
		return tea.Batch(a.deliver(isElicit(m.id), overlay.Opened{}), a.notify(m.note, false))
	}))
}

// elicitResult acts on the prompt's results.
func elicitResult(a *App, res any) (tea.Cmd, bool) {
	switch r := res.(type) {
	case overlay.ElicitAnswered:
		a.chat.AnswerElicitation(r.ID, r.Answer)
	case overlay.ElicitOpen:
		id, u := r.ID, r.URL
		return func() tea.Msg { return elicitOpened{id: id, note: workspace.OpenURL(u)} }, true
	case overlay.ElicitCopy:
		return a.clip.copyText(r.URL, nil, contextref.FragmentSource{}, "the link"), true
	default:
		return nil, false
	}
	return nil, true
}
