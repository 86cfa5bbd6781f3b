package ui

import (
	"context"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/notify"
	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/transcript"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/ui/overlay"
	"github.com/chipchat/chipchat/workspace"
)

// chatMsg carries a batch of chat's events; one Wait is always outstanding.
type chatMsg []chat.Event

// noticeMsg is a toast from a command.
type noticeMsg struct {
	text string
	err  bool
}

// conversation is the controller of the open thread's conversation: it
// hands chat what the user sends and asks, draws chat's events into the
// transcript and the composer, and keeps only what it draws that chat does
// not hold (when the shown phase began, the spinner's clock). The phase,
// queue and agent's state are read from chat.
type conversation struct {
	chat   *chat.Service
	ws     *workspace.Workspace
	ed     *composer.Editor
	tr     *transcript.Model
	keys   *keymap.Keys
	ovs    *overlay.Stack
	toast  *toastLine
	thread *workspace.Thread // the app's open thread
	bell   *notify.Notifier  // the notifications (notify.go)

	since, now time.Time // when the shown phase began; the status line's clock
	spinning   string    // the thread whose spinner tick is outstanding
	// dismissed: esc closed the command picker for the current "/word";
	// it opens again once the draft no longer starts with one, or at a
	// bare "/".
	dismissed bool
	// ctrlCArmed: ctrl+c on an empty composer said "again to quit"; the
	// next ctrl+c quits, any other key disarms it.
	ctrlCArmed bool
	// escAt: esc on an empty composer with no turn running; a second
	// within 400 ms rewinds the last user message (ui/rewind.go).
	escAt  time.Time
	rewind *rewinding // the rewind being edited (ui/rewind.go)
	// unknown: the /word text just refused as no command; enter on the
	// same text again sends it.
	unknown string
}

// effect is what the app does after the conversation changed something
// it lays out or focuses.
type effect struct {
	cmd           tea.Cmd
	layout        bool   // the transcript or queue changed size
	composer      bool   // the draft changed (afterComposer)
	focusComposer bool   // the composer takes the keys
	refresh       bool   // the thread's title may have changed
	fork          string // a fork to open
	quit          bool   // every turn stopped: save and exit
	item          *message.Item
}

func (c *conversation) notify(text string, isErr bool) tea.Cmd { return c.toast.show(text, isErr) }

// listen waits for the conversation's next events.
func (c *conversation) listen() tea.Cmd {
	svc := c.chat
	return func() tea.Msg { return chatMsg(svc.Wait(context.Background())) }
}

func (c *conversation) here(threadID string) bool { return threadID == c.thread.ID }

// phase, info and queue are the open thread's, as chat holds them.
func (c *conversation) phase() chat.Phase { return c.chat.Phase(c.thread.ID) }

// info is the open thread's agent info; before the agent has told its
// commands in this thread, the ones it advertised last (kept in the store).
func (c *conversation) info() chat.Info { return c.chat.InfoKnown(c.thread.ID) }
func (c *conversation) queue() ([]chat.Message, bool) {
	return c.chat.Queue(c.thread.ID)
}

// turnShown reports whether the open thread's turn is under way (the
// status line shows a spinner).
func (c *conversation) turnShown() bool { return c.phase() != chat.Idle }

// elapsed is how long the shown phase has run.
func (c *conversation) elapsed() time.Duration { return c.now.Sub(c.since) }

// plainReplies says whether the backend writes plain text rather than
// Markdown (Capabilities.PlainText: exec), so the transcript decides per
// reply.
func (c *conversation) plainReplies() bool { return c.chat.Capabilities().PlainText }

// chatEvents draws a batch of events and listens again.
func (a *App) chatEvents(evs chatMsg) tea.Cmd {
	cmds := []tea.Cmd{a.conv.listen()}
	for _, e := range evs {
		cmds = append(cmds, a.apply(a.conv.event(e)), a.conv.rung(e)) // rung: notify.go
	}
	return tea.Batch(cmds...)
}

// apply does what the conversation asks of the app.
func (a *App) apply(fx effect) tea.Cmd {
	if fx.item != nil {
		a.panes.rename(*fx.item) // a tab named after its tool call (agentterm.go)
	}
	switch {
	case fx.quit:
		return a.finishQuit()
	case fx.fork != "":
		return tea.Sequence(a.drafts.save(), a.nav.load(fx.fork), fx.cmd)
	}
	if fx.focusComposer {
		a.setFocus(paneComposer)
	}
	cmds := []tea.Cmd{fx.cmd}
	if fx.composer {
		cmds = append(cmds, a.afterComposer())
	}
	if fx.layout {
		a.layout()
	}
	if fx.refresh {
		cmds = append(cmds, a.refreshThread())
	}
	return tea.Batch(cmds...)
}

// event draws one event of chat's.
func (c *conversation) event(e chat.Event) effect {
	switch e := e.(type) {
	case chat.UserStored:
		return c.userStored(e)
	case chat.SendFailed:
		if c.here(e.ThreadID) {
			return effect{cmd: c.notify(e.Err.Error(), true)}
		}
	case chat.ReplyStarted:
		if c.here(e.ThreadID) {
			c.tr.Append(transcript.Message{ID: e.Reply.ID, Role: message.RoleAssistant, Status: message.StatusStreaming, PlainText: c.plainReplies()})
			c.now = e.Started
			return effect{layout: true}
		}
	case chat.ItemChanged:
		if c.here(e.ThreadID) {
			c.tr.SetItem(e.ReplyID, e.Index, e.Item)
		}
		return effect{item: &e.Item}
	case chat.ReplyFinished:
		if !c.here(e.ThreadID) {
			return effect{}
		}
		c.tr.SetStatus(e.ReplyID, e.Status)
		if e.Status == message.StatusError && e.Err != nil {
			return effect{cmd: c.notify("agent: "+e.Err.Error()+" — alt+r retries", true)}
		}
	case chat.PhaseChanged:
		if c.here(e.ThreadID) {
			c.since, c.now = e.Since, e.Since
			if e.Phase != chat.Idle && c.spinning != e.ThreadID {
				c.spinning = e.ThreadID
				return effect{cmd: spinTick(e.ThreadID)}
			}
		}
	case chat.QueueChanged:
		return effect{layout: c.here(e.ThreadID)}
	case chat.Unqueued:
		if c.here(e.ThreadID) {
			c.ed.SetDraft(composer.FromMarkdown(e.Message.Text, e.Message.Records()))
			return effect{focusComposer: true, composer: true, cmd: c.notify("the queued message is back in the composer", false)}
		}
	case chat.Notice:
		if e.ThreadID == "" || c.here(e.ThreadID) {
			return effect{cmd: c.notify(e.Text, e.Err)}
		}
	case chat.PermissionAsked:
		c.showAsk(dialog.Question{ID: e.ID, ThreadID: e.ThreadID, Permission: &e})
	case chat.SignInAsked:
		c.showAsk(dialog.Question{ID: e.ID, ThreadID: e.ThreadID, SignIn: &e.Question})
	case chat.AskClosed:
		c.closeAsk(e.ID)
	case chat.ElicitationAsked, chat.ElicitationDone:
		return c.elicitEvent(e)
	case chat.AgentInfo:
		if c.here(e.ThreadID) {
			c.refreshCommandItems()
			c.refreshModes()
		}
	case chat.Forked:
		if e.Edit != nil {
			return c.rewound(e) // ui/rewind.go
		}
		return effect{fork: e.ThreadID, cmd: c.notify("forked: "+e.Title, false)}
	case chat.SessionImported: // the agent's session, opened from the thread list
		return effect{fork: e.ThreadID, cmd: c.notify("opened the agent's session: "+e.Title, false)}
	case chat.TitleChanged: // the agent named its session
		if c.here(e.ThreadID) {
			c.thread.Title = e.Title
		}
	case chat.QuitReady:
		return effect{quit: true}
	}
	return effect{}
}

// userStored draws a message chat stored: in the transcript (unless
// queued), and the draft that was sent is cleared.
func (c *conversation) userStored(e chat.UserStored) effect {
	if !c.here(e.ThreadID) {
		if e.Ref == 0 {
			return effect{}
		}
		// Sent from a thread the user has left since: leaving saved
		// its draft, which may be the sent text again.
		clear := c.ws.ClearSentDraft(e.ThreadID, e.Message.Text)
		return effect{cmd: func() tea.Msg {
			if err := clear(); err != nil {
				return noticeMsg{text: err.Error(), err: true}
			}
			return nil
		}}
	}
	fx := effect{layout: true, refresh: true}
	var cmds []tea.Cmd
	if e.Ref != 0 {
		// The draft that was sent: cleared, unless the user typed on
		// while it was being stored (then it stays, and is saved again).
		if c.ed.Draft().Version() == e.Ref {
			c.ed.Reset()
		} else {
			cmds = append(cmds, c.notify("sent; what you typed since is still in the composer", false))
		}
		fx.composer = true
		if e.Queued {
			cmds = append(cmds, c.notify("queued: it is sent when the running turn ends (alt+up takes it back)", false))
		}
	}
	if !e.Queued {
		m := e.Message
		c.tr.Append(transcript.Message{ID: m.ID, Role: m.Role, Text: m.Text, Context: m.Context, RawContext: m.RawContext, Status: m.Status})
		if e.Ref != 0 {
			c.tr.ToEnd() // sent from here: on screen, however far up the view was (issue 25 item 3)
		}
	}
	fx.cmd = tea.Batch(cmds...)
	return fx
}

// spinMsg advances the running turn's spinner and elapsed time.
type spinMsg struct {
	threadID string
	at       time.Time
}

func spinTick(threadID string) tea.Cmd {
	return tea.Tick(spinEvery, func(t time.Time) tea.Msg { return spinMsg{threadID, t} })
}

// spun is a tick of the running turn's spinner; clock is the status
// line's clock.
func (c *conversation) spun(msg spinMsg, clock chat.Clock) tea.Cmd {
	if msg.threadID != c.thread.ID || !c.turnShown() {
		if c.spinning == msg.threadID {
			c.spinning = ""
		}
		return nil
	}
	c.now = clock.Now()
	return spinTick(c.thread.ID)
}

const spinEvery = 120 * time.Millisecond

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// spinFrame is the spinner's frame after elapsed: one a tick, so a fixed
// clock draws a fixed frame.
func spinFrame(elapsed time.Duration) string {
	return spinner[int(max(elapsed, 0)/spinEvery)%len(spinner)]
}

// send hands the submitted draft to the conversation (a message typed
// while a turn runs is queued there), or runs chipchat's slash command.
func (a *App) send(m composer.SubmitMsg) tea.Cmd {
	if res, ok := a.conv.slash(m.Markdown, len(m.Records) > 0); ok {
		return a.runSlash(res)
	}
	return a.conv.send(m)
}

func (c *conversation) send(m composer.SubmitMsg) tea.Cmd {
	if q, _ := c.queue(); strings.TrimSpace(m.Markdown) == "" && len(m.Records) == 0 && len(q) > 0 {
		// enter on an empty composer sends the next queued message.
		if c.chat.SendNext(c.thread.ID) {
			return nil
		}
	}
	if err := c.ws.CheckAttachments(m.Records); err != nil { // over the agent's limits (workspace.Options.MaxAttachment)
		return c.notify(err.Error(), true)
	}
	if c.rewind != nil && c.here(c.rewind.fork) {
		c.rewind = nil // sent: the fork stays (esc no longer leaves it)
	}
	send := map[bool]func(string, chat.Submission){false: c.chat.Send, true: c.chat.Steer}[m.Steer] // alt+i steers (chat.Service.Steer)
	send(c.thread.ID, chat.Submission{Markdown: m.Markdown, Records: m.Records, Ref: c.ed.Draft().Version()})
	return nil
}

// retry is alt+r: ask again for the message whose turn failed.
func (c *conversation) retry() tea.Cmd {
	if !c.chat.Retry(c.thread.ID) {
		return c.notify("nothing to retry", false)
	}
	return nil
}

// unqueue is alt+up: the last queued message comes back into the draft,
// refused while the draft is not empty (nothing typed is replaced).
func (c *conversation) unqueue() tea.Cmd {
	if q, _ := c.queue(); len(q) == 0 {
		return c.notify("nothing is queued", false)
	}
	if !c.ed.Draft().IsEmpty() {
		return c.notify("the draft is not empty: send or stash it first, then alt+up takes the queued message back", true)
	}
	c.chat.Unqueue(c.thread.ID)
	return nil
}

// cancelTurn cancels the open thread's turn; chat answers the agent's
// pending questions cancelled.
func (c *conversation) cancelTurn() tea.Cmd {
	if c.chat.Cancel(c.thread.ID) {
		return c.notify("turn cancelled", false)
	}
	return nil
}

// quit asks the conversation to stop every turn (recorded interrupted, with
// what the agent wrote); QuitReady saves the draft and exits.
func (a *App) quit() tea.Cmd {
	if a.drafts.book.QuitBlocked() {
		return a.finishQuit() // the turns stopped at the first quit; its save failed
	}
	a.chat.Quit()
	return nil
}

// finishQuit saves the draft and exits.
func (a *App) finishQuit() tea.Cmd {
	// The terminals as they are now: the command ends their processes off
	// the UI goroutine and leaves the pane itself alone (Update may still
	// read it); App.Close clears the pane.
	terms := slices.Clone(a.panes.pane.Terminals())
	closeAll := func() { terminal.CloseTerminals(terms...) }
	return a.drafts.saveAndQuit(closeAll) // a failed save stops the quit once (autosave.go)
}

// queueView is the queue under the transcript (composer.QueueView).
func (c *conversation) queueView(width int) []string {
	queue, paused := c.queue()
	return composer.QueueView(len(queue), func(i int) string { return workspace.Title(queue[i].Text) }, paused, width, hintStyle)
}

// sendsPausedQueue reports whether the send key sends the paused queue's
// next message: the composer has the keys (composing: focused, not in !
// mode) and holds nothing to send (blanks at most, no chip, no image) and
// no picker is open. The composer drops enter on such a draft, so the app
// takes the key before it.
func (c *conversation) sendsPausedQueue(composing bool) bool {
	if _, paused := c.queue(); !paused || !composing || c.ed.PickerOpen() {
		return false
	}
	return c.ed.Draft().IsBlank()
}

// sendNextQueued is enter on an empty composer under a paused queue: its
// head is sent.
func (c *conversation) sendNextQueued() tea.Cmd {
	if !c.chat.SendNext(c.thread.ID) {
		return c.notify("nothing is queued", false)
	}
	return nil
}

// ---- the agent's questions ----

// showAsk opens the prompt for a question of the agent: above what is
// open, after the questions already waiting.
func (c *conversation) showAsk(p dialog.Question) {
	c.ovs.PushUnder(dialog.NewAsk(c.keys, p), isQuestion)
}

// closeAsk closes the prompt of a question the agent no longer asks.
func (c *conversation) closeAsk(id int64) {
	c.ovs.Remove(func(o dialog.Overlay) bool {
		if e, ok := o.(*dialog.Elicit); ok {
			return e.ID == id && !e.Waiting() // an opened link waits for the agent's completion
		}
		b, ok := o.(*dialog.Ask)
		return ok && b.Ask().ID == id
	})
}

// answer gives the agent the user's answer (a sign-in's terminal method
// runs its login first: the app's, agentterm.go).
func (c *conversation) answer(r dialog.Answered) {
	if r.Ask.Permission != nil {
		c.chat.AnswerPermission(r.Ask.ID, chat.PermissionAnswer{OptionID: r.OptionID, Outcome: r.Outcome})
		return
	}
	c.chat.AnswerSignIn(r.Ask.ID, r.OptionID)
}
