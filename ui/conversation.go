package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/transcript"
	"github.com/chipchat/chipchat/workspace"
)

// The conversation belongs to package chat; the app hands it what the user
// sends and asks for, and draws what its events say. chatMsg carries a
// batch of events; one Wait is always outstanding.

type chatMsg []chat.Event

// noticeMsg is a toast from a command.
type noticeMsg struct {
	text string
	err  bool
}

// listen waits for the conversation's next events.
func (a *App) listen() tea.Cmd {
	svc := a.chat
	return func() tea.Msg { return chatMsg(svc.Wait(context.Background())) }
}

// chatEvents draws a batch of events and listens again.
func (a *App) chatEvents(evs chatMsg) tea.Cmd {
	cmds := []tea.Cmd{a.listen()}
	for _, e := range evs {
		if c := a.chatEvent(e); c != nil {
			cmds = append(cmds, c)
		}
	}
	return tea.Batch(cmds...)
}

func (a *App) here(threadID string) bool { return threadID == a.thread.ID }

func (a *App) chatEvent(e chat.Event) tea.Cmd {
	switch e := e.(type) {
	case chat.UserStored:
		if !a.here(e.ThreadID) {
			if e.Ref == 0 {
				return nil
			}
			// Sent from a thread the user has left since: leaving saved
			// its draft, which may be the sent text again.
			clear := a.ws.ClearSentDraft(e.ThreadID, e.Message.Text)
			return func() tea.Msg {
				if err := clear(); err != nil {
					return noticeMsg{text: err.Error(), err: true}
				}
				return nil
			}
		}
		var cmds []tea.Cmd
		if e.Ref != 0 {
			// The draft that was sent: cleared, unless the user typed on
			// while it was being stored (then it stays, and is saved again).
			if a.ed.Draft().Version() == e.Ref {
				a.ed.Reset()
			} else {
				cmds = append(cmds, a.notify("sent; what you typed since is still in the composer", false))
			}
			cmds = append(cmds, a.afterComposer())
			if e.Queued {
				cmds = append(cmds, a.notify("queued: it is sent when the running turn ends (alt+up takes it back)", false))
			}
		}
		if !e.Queued {
			m := e.Message
			a.tr.Append(transcript.Message{ID: m.ID, Role: m.Role, Text: m.Text, Context: m.Context, RawContext: m.RawContext, Status: m.Status})
		}
		a.layout()
		return tea.Batch(append(cmds, a.refreshThread())...)
	case chat.SendFailed:
		if !a.here(e.ThreadID) {
			return nil
		}
		return a.notify(e.Err.Error(), true)
	case chat.ReplyStarted:
		if !a.here(e.ThreadID) {
			return nil
		}
		a.tr.Append(transcript.Message{ID: e.Reply.ID, Role: message.RoleAssistant, Status: message.StatusStreaming, PlainText: a.plainReplies()})
		a.now = e.Started
		a.layout()
	case chat.ItemChanged:
		a.renameAgentTerminals(e.Item) // a tab named after its tool call (agentterm.go)
		if a.here(e.ThreadID) {
			a.tr.SetItem(e.ReplyID, e.Index, e.Item)
		}
	case chat.ReplyFinished:
		if !a.here(e.ThreadID) {
			return nil
		}
		a.tr.SetStatus(e.ReplyID, e.Status)
		if e.Status == message.StatusError && e.Err != nil {
			return a.notify("agent: "+e.Err.Error()+" — alt+r retries", true)
		}
	case chat.PhaseChanged:
		if !a.here(e.ThreadID) {
			return nil
		}
		was := a.turnShown()
		a.phase, a.phaseSince, a.now = e.Phase, e.Since, e.Since
		if !was && a.turnShown() {
			return spinTick(a.thread.ID)
		}
	case chat.QueueChanged:
		if a.here(e.ThreadID) {
			a.queue, a.queuePaused = a.queue[:0], e.Paused
			for _, m := range e.Queued {
				a.queue = append(a.queue, workspace.Title(m.Text))
			}
			a.layout()
		}
	case chat.Unqueued:
		if !a.here(e.ThreadID) {
			return nil
		}
		m := e.Message
		var recs []contextref.Record
		if m.Context != nil {
			recs = m.Context.Records
		}
		a.ed.SetDraft(composer.FromMarkdown(m.Text, recs))
		a.setFocus(paneComposer)
		return tea.Batch(a.afterComposer(), a.notify("the queued message is back in the composer", false))
	case chat.Notice:
		if e.ThreadID == "" || a.here(e.ThreadID) {
			return a.notify(e.Text, e.Err)
		}
	case chat.PermissionAsked:
		a.showAsk(newPermissionAsk(e))
	case chat.SignInAsked:
		a.showAsk(pendingAsk{id: e.ID, threadID: e.ThreadID, signIn: &e.Question})
	case chat.AskClosed:
		a.closeAsk(e.ID)
	case chat.AgentInfo:
		if a.here(e.ThreadID) {
			a.info = e.Info
			a.agentInfoChanged() // the / and modes pickers (agentterm.go)
		}
	case chat.Forked:
		return tea.Sequence(a.drafts.save(), a.nav.load(e.ThreadID),
			a.notify("forked: "+e.Title, false))
	case chat.QuitReady:
		return a.finishQuit()
	}
	return nil
}

// plainReplies says whether the backend writes plain text rather than
// Markdown (Capabilities.PlainText: exec), so the transcript decides per
// reply.
func (a *App) plainReplies() bool { return a.chat.Capabilities().PlainText }

// turnShown reports whether the open thread's turn is under way (the
// status line shows a spinner).
func (a *App) turnShown() bool { return a.phase != chat.Idle }

// spinMsg advances the running turn's spinner and elapsed time.
type spinMsg struct {
	threadID string
	at       time.Time
}

func spinTick(threadID string) tea.Cmd {
	return tea.Tick(spinEvery, func(t time.Time) tea.Msg { return spinMsg{threadID, t} })
}

const spinEvery = 120 * time.Millisecond

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// spinFrame is the spinner's frame after elapsed: one a tick, so a fixed
// clock draws a fixed frame.
func spinFrame(elapsed time.Duration) string {
	return spinner[int(max(elapsed, 0)/spinEvery)%len(spinner)]
}

// send hands the submitted draft to the conversation. A message typed
// while a turn runs is queued there; nothing is refused for it.
func (a *App) send(m composer.SubmitMsg) tea.Cmd {
	text := strings.TrimSpace(m.Markdown)
	// chipchat's slash commands (/new, /fork, /compact when the agent has
	// none, …: the table in commands.go); the agent's go to it as text.
	if cmd, ok := a.runCommand(text, len(m.Records) > 0); ok {
		return cmd
	}
	if text == "" && len(m.Records) == 0 && len(a.queue) > 0 {
		// enter on an empty composer sends the next queued message.
		if a.chat.SendNext(a.thread.ID) {
			return nil
		}
	}
	if err := a.ws.CheckAttachments(m.Records); err != nil { // over the agent's limits (workspace.Options.MaxAttachment)
		return a.notify(err.Error(), true)
	}
	a.chat.Send(a.thread.ID, chat.Submission{Markdown: m.Markdown, Records: m.Records, Ref: a.ed.Draft().Version()})
	return nil
}

// retry is alt+r: ask again for the message whose turn failed.
func (a *App) retry() tea.Cmd {
	if !a.chat.Retry(a.thread.ID) {
		return a.notify("nothing to retry", false)
	}
	return nil
}

// unqueue is alt+up: the last queued message comes back into the draft,
// refused while the draft is not empty (nothing typed is replaced).
func (a *App) unqueue() tea.Cmd {
	if len(a.queue) == 0 {
		return a.notify("nothing is queued", false)
	}
	if !a.ed.Draft().IsEmpty() {
		return a.notify("the draft is not empty: send or stash it first, then alt+up takes the queued message back", true)
	}
	a.chat.Unqueue(a.thread.ID)
	return nil
}

// cancelTurn cancels the open thread's turn; chat answers the agent's
// pending questions cancelled.
func (a *App) cancelTurn() tea.Cmd {
	if a.chat.Cancel(a.thread.ID) {
		return a.notify("turn cancelled", false)
	}
	return nil
}

// quit asks the conversation to stop every turn (recorded interrupted, with
// what the agent wrote); QuitReady saves the draft and exits.
func (a *App) quit() tea.Cmd {
	if a.drafts.quitBlocked {
		return a.finishQuit() // the turns stopped at the first quit; its save failed
	}
	a.chat.Quit()
	return nil
}

// finishQuit saves the draft and exits.
func (a *App) finishQuit() tea.Cmd {
	pane := a.pane
	return a.drafts.saveAndQuit(pane.CloseAll) // a failed save stops the quit once (autosave.go)
}

// queueView is the queue under the transcript: one line per queued
// message, oldest first.
func (a *App) queueView(width int) []string {
	if len(a.queue) == 0 {
		return nil
	}
	head := fmt.Sprintf("queued (%d) — alt+up takes the last back", len(a.queue))
	if a.queuePaused {
		head = fmt.Sprintf("queued (%d), paused — enter on an empty composer sends the next · alt+up takes the last back", len(a.queue))
	}
	lines := []string{hintStyle.Render(chips.Truncate(" "+head, width))}
	for i, m := range a.queue {
		if i == 3 && len(a.queue) > 4 {
			lines = append(lines, hintStyle.Render(chips.Truncate(fmt.Sprintf("   … %d more", len(a.queue)-3), width)))
			break
		}
		lines = append(lines, chips.Truncate("   ⏳ "+m, width))
	}
	return lines
}

// ---- the agent's questions ----

// pendingAsk is a question of the agent waiting for the user.
type pendingAsk struct {
	id         int64
	threadID   string
	permission *chat.PermissionAsked
	signIn     *chat.Question
}

func newPermissionAsk(e chat.PermissionAsked) pendingAsk {
	return pendingAsk{id: e.ID, threadID: e.ThreadID, permission: &e}
}

// showAsk opens the prompt for a question of the agent: above what is
// open, after the questions already waiting.
func (a *App) showAsk(p pendingAsk) {
	a.ovs.PushUnder(newAskBox(&a.keys, p), is[*askBox])
}

// closeAsk closes the prompt of a question the agent no longer asks.
func (a *App) closeAsk(id int64) {
	a.ovs.Remove(func(o Overlay) bool { b, ok := o.(*askBox); return ok && b.ask.id == id })
}
