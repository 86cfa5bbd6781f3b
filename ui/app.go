package ui

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/store"
	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/transcript"
)

// Options are what the command line decided.
type Options struct {
	Store    *store.Store
	Assets   *assets.Store
	Backend  agent.Backend
	Project  store.Project
	Thread   store.Thread // the thread to open
	Dir      string       // the project directory (cwd)
	Home     string
	Config   Config
	NoColor  bool
	Messages []store.Message // the thread's messages, loaded before start (decoded or raw contexts)
	Draft    *store.Draft    // the thread's saved draft, when any
	// Clipboard and Registry are the copy/paste carriers and the
	// environment registry (package clipboard); nil means the defaults
	// under the user's state dir.
	Clipboard *clipboard.Clipboard
	Registry  *clipboard.Registry
}

type pane int

const (
	paneComposer pane = iota
	paneTranscript
	paneShelf
	paneTerminal
)

type overlay int

const (
	overlayNone overlay = iota
	overlayHelp
	overlayAttach
	overlayThreads
	overlayConfirm
	overlayStash
	overlayAsk
)

// App is chipchat's whole-screen model: transcript above, image shelf and
// composer below, a footer with the keys that apply. Update and View do no
// I/O: the store, the asset store and the agent are reached through
// commands.
type App struct {
	opt    Options
	st     *store.Store
	assets *assets.Store
	runner *agent.Runner
	keys   AppKeys
	reg    *chips.Registry
	ed     *composer.Editor
	tr     *transcript.Model
	thread store.Thread
	focus  pane

	width, height int

	// the running turn: its id is the assistant message's id
	turnID      string
	turnUser    store.Message // the message the running turn answers
	turnText    strings.Builder
	lastFlush   time.Time
	sending     bool   // a user message is being stored
	sendVersion uint64 // the draft's version when it was sent

	// the draft on disk
	savedVersion uint64
	save         autosave // when the draft goes to disk (autosave.go)

	ov       overlay
	help     *helpView
	attach   *pathPrompt
	switcher *threadSwitcher
	confirm  *confirmBox
	stashes  *stashList
	pasteSeq int // numbers pasted-text-N.txt and pasted-image-N.png

	toast    string
	toastErr bool
	toastSeq int

	ctrlCArmed bool
	shelfSel   int
	quitting   bool

	// the status line of a running turn, and the message to retry after an
	// agent error
	turnStart time.Time
	now       time.Time
	spin      int
	retryUser store.Message

	// questions from the agent (permissions, sign-in)
	ask    *asker
	askBox *askBox

	// the terminal pane
	pane      *terminal.Pane
	paneShown bool
	paneRight bool // split beside the transcript rather than below it
}

// New builds the app for a thread whose messages and draft were loaded.
func New(opt Options) *App {
	th := chips.DefaultTheme()
	if opt.NoColor {
		th = chips.NoColorTheme()
	}
	reg := chips.Default(th)
	edKeys := composer.DefaultKeyMap()
	appKeys := DefaultAppKeys()
	_ = ApplyKeys(opt.Config.Keys, &appKeys, &edKeys) // checked by the caller before
	ed := composer.New(composer.Options{Registry: reg, KeyMap: &edKeys, MaxHeight: opt.Config.Limits.ComposerRows,
		ProjectRoot: opt.Dir, Home: opt.Home})
	// tab and shift+tab move between panes, so in the transcript the side
	// arrows (and h/l) move between chips.
	trKeys := transcript.DefaultKeyMap()
	trKeys.NextChip = key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next chip"))
	trKeys.PrevChip = key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "previous chip"))
	trOpts := []transcript.Option{transcript.WithKeyMap(trKeys)}
	if opt.NoColor {
		trOpts = append(trOpts, transcript.WithNoColor())
	}
	a := &App{opt: opt, st: opt.Store, assets: opt.Assets, runner: agent.NewRunner(opt.Backend), keys: appKeys,
		reg: reg, ed: ed, tr: transcript.New(reg, trOpts...), thread: opt.Thread, width: 80, height: 24,
		pane: terminal.NewPane(opt.Dir)}
	a.pane.Scrollback = opt.Config.Limits.Scrollback
	a.ask = newAsker()
	if s, ok := opt.Backend.(interface {
		SetAsk(func(context.Context, agent.Question) (agent.Answer, error))
	}); ok {
		s.SetAsk(a.ask.Ask)
	}
	a.pane.CopyModeKeys, a.pane.QuickCaptureKeys = appKeys.CopyMode.Keys(), appKeys.QuickCapture.Keys()
	a.loadThread(opt.Thread, opt.Messages, opt.Draft)
	a.opt.Messages = nil // the transcript has them; a long thread's slice is not kept twice
	return a
}

// OpenThread picks the thread the app starts on — threadID when given,
// else a new one when newThread, else the project's most recent thread (a
// new one when it has none) — and loads its messages and draft, so New can
// draw the first frame without I/O. cwd names the project (store.ProjectKey).
// The options it returns carry Store, Project, Thread, Messages and Draft;
// the caller fills in the rest. Contexts are left undecoded (MessagesRaw):
// the transcript decodes each when it first needs it.
func OpenThread(st *store.Store, cwd, threadID string, newThread bool) (Options, error) {
	project, err := st.Project(store.ProjectKey(cwd))
	if err != nil {
		return Options{}, err
	}
	var th store.Thread
	switch {
	case threadID != "":
		if th, err = st.Thread(threadID); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return Options{}, fmt.Errorf("no thread %s in %s", threadID, st.Dir())
			}
			return Options{}, err
		}
	case !newThread:
		ts, err := st.Threads(project.ID)
		if err != nil {
			return Options{}, err
		}
		if len(ts) > 0 {
			th = ts[0]
		}
	}
	if th.ID == "" {
		if th, err = st.CreateThread(project.ID); err != nil {
			return Options{}, err
		}
	}
	msgs, err := st.MessagesRaw(th.ID)
	if err != nil {
		return Options{}, err
	}
	opt := Options{Store: st, Project: project, Thread: th, Messages: msgs}
	if d, ok, err := st.LoadDraft(th.ID); err != nil {
		return Options{}, err
	} else if ok {
		opt.Draft = &d
	}
	return opt, nil
}

// loadThread shows a thread's messages and restores its draft.
func (a *App) loadThread(t store.Thread, msgs []store.Message, d *store.Draft) {
	a.thread = t
	a.retryUser = store.Message{} // a retry belongs to the thread it failed in
	a.tr.SetMessages(toTranscript(msgs))
	d = a.draftLoaded(t.ID, d) // its revision; a draft whose save failed comes back
	if d != nil {
		draft := composer.FromMarkdown(d.Markdown, d.Records)
		draft.SetCaret(composer.Pos{Line: d.Caret.Line, Col: d.Caret.Col}, false)
		a.ed.SetDraft(draft)
	} else {
		a.ed.Reset()
	}
	a.savedVersion = a.ed.Draft().Version()
	a.setFocus(paneComposer)
}

// toTranscript converts stored messages. A context still raw (MessagesRaw)
// is handed over raw: the transcript decodes it when it first needs it.
func toTranscript(msgs []store.Message) []transcript.Message {
	out := make([]transcript.Message, len(msgs))
	for i := range msgs {
		m := &msgs[i]
		out[i] = transcript.Message{ID: m.ID, Role: m.Role, Text: m.Text, Context: m.Context, RawContext: m.RawContext, Status: m.Status}
	}
	return out
}

// Init listens for the agent's questions; everything else was loaded
// before the first frame.
func (a *App) Init() tea.Cmd { return a.ask.listen() }

func (a *App) setFocus(p pane) {
	if p == paneShelf && len(a.ed.Draft().Shelf()) == 0 {
		p = paneComposer
	}
	a.focus = p
	if p == paneComposer {
		a.ed.Focus()
	} else {
		a.ed.Blur()
	}
	if p == paneTranscript {
		a.tr.Focus()
	} else {
		a.tr.Blur()
	}
	a.pane.Focused = p == paneTerminal
}

// Close is the command's exit path, however the program ended (a signal
// ends it without a quit): a running turn is cancelled (its process group
// killed) and its reply saved as interrupted, the draft saved unless a
// send owns it, every terminal's process group and the agent's process
// ended. It does I/O: never call it from Update.
func (a *App) Close() {
	if a.turnID != "" {
		id := a.turnID
		a.runner.Cancel(id)
		a.turnText.WriteString(a.runner.Take(id))
		_ = a.st.UpdateMessage(id, a.turnText.String(), message.StatusInterrupted)
		a.turnID = ""
		time.Sleep(200 * time.Millisecond) // let the backend see the cancel and kill its processes
	}
	if !a.quitting && !a.sending {
		if msg, ok := a.saveDraft()().(draftSavedMsg); ok && msg.err != nil {
			fmt.Fprintln(os.Stderr, "chipchat: draft not saved:", msg.err)
		}
	}
	a.pane.CloseAll()
	if c, ok := a.opt.Backend.(io.Closer); ok {
		_ = c.Close()
	}
}

// ---- messages of the app's own ----

type toastDoneMsg struct{ seq int }
type storedTurnMsg struct {
	threadID string
	user     store.Message // stored when ID is set
	note     string        // something to tell the user (expired excerpts)
	err      error
}
type excerptNotedMsg struct{ err error }
type replyReadyMsg struct {
	user  store.Message // the message the reply answers
	reply store.Message
	turn  agent.Turn
	err   error
}
type replySavedMsg struct{ err error }
type threadOpenedMsg struct {
	thread store.Thread
	msgs   []store.Message
	draft  *store.Draft
	err    error
}
type threadsListedMsg struct {
	threads []store.Thread
	err     error
}
type threadChangedMsg struct {
	err    error
	reload bool
	what   string
}
type attachedMsg struct {
	asset   assets.Asset
	localID string
	err     error
}
type openedMsg struct{ text string }

// notify shows a toast for a few seconds.
func (a *App) notify(text string, isErr bool) tea.Cmd {
	a.toast, a.toastErr = chips.SanitizeLine(text), isErr
	a.toastSeq++
	seq := a.toastSeq
	return tea.Tick(4*time.Second, func(time.Time) tea.Msg { return toastDoneMsg{seq} })
}

// Update routes a message: overlays first, then app keys, then the focused
// pane.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		a.layout()
		return a, nil
	case toastDoneMsg:
		if msg.seq == a.toastSeq {
			a.toast = ""
		}
		return a, nil
	case draftTickMsg:
		return a, a.draftTick(msg)
	case draftSavedMsg:
		return a, a.draftSaved(msg)
	case storedTurnMsg:
		return a, a.turnStored(msg)
	case replyReadyMsg:
		return a, a.replyReady(msg)
	case spinMsg:
		if msg.turnID != a.turnID || a.turnID == "" {
			return a, nil
		}
		a.spin++
		a.now = msg.at
		return a, spinTick(a.turnID)
	case askMsg:
		return a, a.asked(msg)
	case quitNowMsg:
		return a, a.finishQuit()
	case agent.ChunkMsg:
		return a, a.chunk(msg)
	case agent.DoneMsg:
		return a, a.turnDone(msg)
	case replySavedMsg:
		if msg.err != nil {
			return a, a.notify("reply not saved: "+msg.err.Error(), true)
		}
		return a, nil
	case threadOpenedMsg:
		if msg.err != nil {
			return a, a.notify("could not open the thread: "+msg.err.Error(), true)
		}
		a.loadThread(msg.thread, msg.msgs, msg.draft)
		a.layout()
		return a, nil
	case threadsListedMsg:
		if a.switcher != nil {
			a.switcher.setThreads(msg.threads, msg.err)
		}
		return a, nil
	case threadChangedMsg:
		return a, a.threadChanged(msg)
	case attachedMsg:
		return a, a.attached(msg)
	case openedMsg:
		return a, a.notify(msg.text, false)
	case completionMsg:
		if a.ov == overlayAttach {
			a.attach.complete(msg)
		}
		return a, nil
	case threadTitleMsg:
		if msg.t.ID == a.thread.ID {
			a.thread = msg.t
		}
		return a, nil
	case terminal.UpdatedMsg, terminal.ExitedMsg:
		var cmd tea.Cmd
		a.pane, cmd = a.pane.Update(msg)
		return a, cmd
	case terminal.CaptureMsg:
		return a, a.captured(msg.Record)
	case terminal.CaptureFailedMsg:
		return a, a.notify("nothing captured: "+msg.Reason, true)
	case terminal.FocusComposerMsg:
		a.setFocus(paneComposer)
		return a, nil
	case excerptNotedMsg:
		if msg.err != nil {
			return a, a.notify("excerpt time not saved (it will not expire): "+msg.err.Error(), true)
		}
		return a, nil
	case composer.SubmitMsg:
		return a, a.send(msg)
	case composer.NoticeMsg:
		return a, a.notify(msg.Text, msg.Err)
	case transcript.OpenMsg:
		return a, a.open(msg.Record)
	case transcript.ForkMsg:
		return a, a.fork(msg.MessageID)
	case transcript.CopyMsg:
		return a, a.copyMessage(msg)
	case copiedMsg:
		return a, a.copied(msg)
	case pasteReadyMsg:
		return a, a.pasteReady(msg)
	case systemReadMsg:
		return a, a.systemRead(msg)
	case pastedFileMsg:
		return a, a.pastedFile(msg)
	case expandedMsg:
		return a, a.expanded(msg)
	case stashedMsg:
		return a, a.stashed(msg)
	case stashListedMsg:
		if a.stashes != nil {
			a.stashes.set(msg.entries, msg.err)
		}
		return a, nil
	case stashDroppedMsg:
		if msg.err != nil {
			return a, a.notify("stash: "+msg.err.Error(), true)
		}
		return a, nil
	case tea.KeyPressMsg:
		return a, a.key(msg)
	case tea.PasteMsg:
		if a.ov == overlayAttach {
			a.attach.paste(msg.Content)
			return a, nil
		}
		if a.ov == overlayNone && a.focus == paneComposer {
			return a, a.paste(msg.Content)
		}
		if a.ov == overlayNone && a.focus == paneTerminal {
			var cmd tea.Cmd
			a.pane, cmd = a.pane.Update(msg)
			return a, cmd
		}
		return a, nil
	}
	// Everything else belongs to the components (picker loads, editor
	// results, mouse...).
	var cmds []tea.Cmd
	var cmd tea.Cmd
	a.ed, cmd = a.ed.Update(msg)
	cmds = append(cmds, cmd, a.afterComposer())
	if _, ok := msg.(tea.MouseMsg); ok {
		if a.focus == paneTerminal {
			a.pane, cmd = a.pane.Update(msg)
		} else {
			a.tr, cmd = a.tr.Update(msg)
		}
		cmds = append(cmds, cmd)
	}
	return a, tea.Batch(cmds...)
}

// toComposer hands a message to the editor and schedules the draft save.
func (a *App) toComposer(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	a.ed, cmd = a.ed.Update(msg)
	return tea.Batch(cmd, a.afterComposer())
}

func (a *App) key(msg tea.KeyPressMsg) tea.Cmd {
	if !key.Matches(msg, a.keys.Interrupt) {
		a.ctrlCArmed = false
	}
	if key.Matches(msg, a.keys.Quit) {
		return a.quit() // from anywhere, popups included: quit saves everything
	}
	switch a.ov {
	case overlayHelp:
		return a.help.key(a, msg)
	case overlayAttach:
		return a.attach.key(a, msg)
	case overlayThreads:
		return a.switcher.key(a, msg)
	case overlayConfirm:
		return a.confirm.key(a, msg)
	case overlayAsk:
		return a.askBox.key(a, msg)
	case overlayStash:
		return a.stashes.key(a, msg)
	}
	k := a.keys
	if a.focus == paneTerminal {
		return a.terminalKey(msg)
	}
	switch {
	case key.Matches(msg, k.Terminal) && !a.ed.PickerOpen():
		return a.showTerminal()
	case key.Matches(msg, k.Interrupt) && a.focus == paneComposer && a.hasSelection():
		return a.copySelection(false)
	case key.Matches(msg, k.Cut) && a.focus == paneComposer && a.hasSelection():
		return a.copySelection(true)
	case key.Matches(msg, k.Interrupt):
		return a.interrupt()
	case key.Matches(msg, k.Paste) && a.focus == paneComposer:
		return a.readSystem()
	case key.Matches(msg, k.ExpandPaste) && a.focus == paneComposer && !a.ed.PickerOpen():
		return a.expandPaste()
	case key.Matches(msg, k.Stash):
		a.setFocus(paneComposer)
		return a.stash()
	case key.Matches(msg, k.StashList):
		return a.openStash()
	case key.Matches(msg, k.Help) || msg.String() == "?" && a.focus != paneComposer ||
		msg.String() == "?" && a.focus == paneComposer && a.ed.Draft().IsEmpty():
		a.openHelp()
		return nil
	case key.Matches(msg, k.Cancel) && !a.ed.PickerOpen() && !a.tr.PopoverOpen():
		if a.turnID != "" && a.runner.Cancel(a.turnID) {
			return a.notify("turn cancelled", false)
		}
		if a.focus != paneComposer {
			a.setFocus(paneComposer)
		}
		return nil
	case key.Matches(msg, k.FocusNext) && !a.ed.PickerOpen():
		a.cycleFocus(1)
		return nil
	case key.Matches(msg, k.FocusPrev) && !a.ed.PickerOpen():
		a.cycleFocus(-1)
		return nil
	case key.Matches(msg, k.Retry) && a.retryUser.ID != "":
		return a.retry()
	case key.Matches(msg, k.Attach):
		a.openAttach()
		return nil
	case key.Matches(msg, k.NewThread) && !a.ed.PickerOpen():
		return a.newThread()
	case key.Matches(msg, k.Threads):
		return a.openThreads()
	}
	switch a.focus {
	case paneTranscript:
		var cmd tea.Cmd
		a.tr, cmd = a.tr.Update(msg)
		return cmd
	case paneShelf:
		return a.shelfKey(msg)
	}
	return a.toComposer(msg)
}

func (a *App) cycleFocus(dir int) {
	order := []pane{paneComposer, paneTranscript}
	if a.paneShown {
		order = append(order, paneTerminal)
	}
	if len(a.ed.Draft().Shelf()) > 0 {
		order = append(order, paneShelf)
	}
	i := 0
	for j, p := range order {
		if p == a.focus {
			i = j
		}
	}
	a.setFocus(order[(i+dir+len(order))%len(order)])
}

// interrupt is ctrl+c: cancel a running turn, else clear a non-empty draft
// (undo brings it back), else arm; pressed again on an empty composer, quit.
func (a *App) interrupt() tea.Cmd {
	if a.turnID != "" && a.runner.Cancel(a.turnID) {
		return a.notify("turn cancelled", false)
	}
	if !a.ed.Draft().IsEmpty() {
		a.setFocus(paneComposer)
		a.ed.Draft().ClearAll()     // undo gives the caret back, not a selection ctrl+c would copy
		a.ed.SetDraft(a.ed.Draft()) // an open picker goes with the text it was for
		return tea.Batch(a.afterComposer(), a.notify("draft cleared — ctrl+z brings it back", false))
	}
	if a.ctrlCArmed {
		return a.quit()
	}
	a.ctrlCArmed = true
	return a.notify("press ctrl+c again to quit", false)
}

// quit saves the draft and any reply, then exits. A running turn is
// cancelled and the quit waits for its end (the runner still delivers what
// the agent wrote), a send being stored is waited for too; a timer makes
// sure the quit happens even if neither answers.
func (a *App) quit() tea.Cmd {
	if a.quitting {
		return nil
	}
	a.quitting = true
	switch {
	case a.turnID != "":
		// Cancel; the wait that is always pending delivers what the agent
		// wrote, then the end (turnDone saves it all and finishes the
		// quit); the deadline covers a runner that never answers, taking
		// what is left.
		a.runner.Cancel(a.turnID)
		return quitDeadline()
	case a.sending:
		return quitDeadline() // turnStored finishes the quit
	}
	return a.finishQuit()
}

type quitNowMsg struct{}

func quitDeadline() tea.Cmd {
	return tea.Tick(3*time.Second, func(time.Time) tea.Msg { return quitNowMsg{} })
}

// finishQuit saves the reply (if a turn was running) and the draft, then
// exits.
func (a *App) finishQuit() tea.Cmd {
	var cmds []tea.Cmd
	if a.turnID != "" {
		a.turnText.WriteString(a.runner.Take(a.turnID))
		id, text, st := a.turnID, a.turnText.String(), a.st
		cmds = append(cmds, func() tea.Msg { return replySavedMsg{st.UpdateMessage(id, text, message.StatusInterrupted)} })
		a.turnID = ""
	}
	if !a.sending {
		// A send still being stored owns the draft: it clears it on disk
		// once the message is stored, and a failed send leaves the last
		// autosave.
		cmds = append(cmds, a.saveDraft())
	}
	pane := a.pane
	cmds = append(cmds, func() tea.Msg { pane.CloseAll(); return nil }, tea.Quit)
	return tea.Sequence(cmds...)
}

// randomID mints a client-side id such as an attachment's local id.
func randomID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// ---- sending ----

// send stores the user's message (and an empty reply to stream into), then
// starts the turn. The work is a command: binding attachments and writing
// the store are I/O. A message that cannot be sent (over the contract's
// limits, an attachment whose bytes are gone) stays in the composer and a
// toast says why.
func (a *App) send(m composer.SubmitMsg) tea.Cmd {
	if strings.TrimSpace(m.Markdown) == "/fork" {
		// /fork: the message to fork from is chosen in the transcript.
		a.ed.Draft().Clear()
		a.setFocus(paneTranscript)
		return tea.Batch(a.afterComposer(), a.notify("choose the message to fork from (↑↓) and press f", false))
	}
	if a.sending || a.turnID != "" {
		return a.notify("wait for the running turn to finish (esc cancels it)", true)
	}
	a.sending = true
	a.sendVersion = a.ed.Draft().Version()
	st, threadID, assetStore, maxAge := a.st, a.thread.ID, a.assets, a.opt.Config.Limits.ExcerptAge()
	return func() tea.Msg {
		records, dropped := DropExpired(m.Records, func(r contextref.Record) bool {
			at, ok, err := st.ExcerptCaptured(r.RecordBase().ContextID)
			return err == nil && ok && maxAge > 0 && time.Since(at) > maxAge
		})
		note := ""
		if dropped > 0 {
			note = fmt.Sprintf("%d terminal excerpt(s) older than %s dropped: the agent sees them as unavailable", dropped, maxAge)
		}
		msg, err := BuildMessage(threadID, m.Markdown, records, func(local string) (string, bool) {
			id, ok, err := st.AttachmentBinding(local)
			return id, ok && err == nil
		}, assetStore.Has)
		if err != nil {
			return storedTurnMsg{threadID: threadID, err: err}
		}
		user, err := st.AddMessage(msg)
		if err != nil {
			return storedTurnMsg{threadID: threadID, err: fmt.Errorf("message not sent: %w", err)}
		}
		// The message is sent: its draft is gone on disk too, whatever
		// happens to the UI next.
		if err := st.SaveDraft(store.Draft{ThreadID: threadID}); err != nil {
			return storedTurnMsg{threadID: threadID, user: user, err: fmt.Errorf("message stored, but its draft was not cleared: %w", err)}
		}
		return storedTurnMsg{threadID: threadID, user: user, note: note}
	}
}

// DropExpired removes the terminal excerpts expired reports (DESIGN.md
// section 2: expired terminal excerpts are dropped at send). Their links
// stay in the text, so the agent sees where an excerpt was and that it is
// unavailable.
func DropExpired(records []contextref.Record, expired func(contextref.Record) bool) ([]contextref.Record, int) {
	kept := make([]contextref.Record, 0, len(records))
	for _, r := range records {
		if r.RecordBase().Kind == contextref.KindTerminal && expired(r) {
			continue
		}
		kept = append(kept, r)
	}
	return kept, len(records) - len(kept)
}

// startReply creates the reply to stream into and prepares the turn (the
// provider projection and the attachments' paths), in a command.
func (a *App) startReply(user store.Message) tea.Cmd {
	st, threadID, dir, assetStore := a.st, user.ThreadID, a.opt.Dir, a.assets
	backend := a.opt.Backend
	return func() tea.Msg {
		resumeSession(st, backend, threadID)
		reply, err := st.AddMessage(store.Message{ThreadID: threadID, Role: message.RoleAssistant, Status: message.StatusStreaming})
		if err != nil {
			return replyReadyMsg{user: user, err: fmt.Errorf("reply not started: %w", err)}
		}
		var recs []contextref.Record
		if user.Context != nil {
			recs = user.Context.Records
		}
		turn := agent.Prepare(user.Text, recs, func(id string) (string, bool) {
			p, err := assetStore.Path(id)
			return p, err == nil
		})
		turn.ThreadID, turn.Dir = threadID, dir
		if backend.Capabilities().History {
			turn.History = threadHistory(st, threadID, user.ID)
			turn.Compact = strings.TrimSpace(user.Text) == agent.CompactCommand
		}
		return replyReadyMsg{user: user, reply: reply, turn: turn}
	}
}

// BuildMessage turns a submitted draft into the user message to store:
// only records some chip points at (an image left on the shelf without a
// chip is not sent), attachments normalized, within the contract's limits.
func BuildMessage(threadID, markdown string, records []contextref.Record, resolve func(localID string) (string, bool), has func(assetID string) bool) (store.Message, error) {
	referenced := map[string]bool{}
	for _, o := range contextref.Scan(markdown) {
		referenced[o.ContextID] = true
	}
	var recs []contextref.Record
	for _, r := range records {
		if referenced[r.RecordBase().ContextID] {
			recs = append(recs, r)
		}
	}
	recs, err := NormalizeAttachments(recs, resolve, has)
	if err != nil {
		return store.Message{}, err
	}
	if strings.TrimSpace(markdown) == "" && len(recs) == 0 {
		return store.Message{}, errors.New("nothing to send: write something, or put a chip of the shelf image in the text")
	}
	msg := store.Message{ThreadID: threadID, Role: message.RoleUser, Text: markdown}
	if len(recs) > 0 {
		msg.Context = &contextref.MessageContext{Version: 1, Records: recs}
	}
	if err := CheckLimits(markdown, msg.Context); err != nil {
		return store.Message{}, err
	}
	return msg, nil
}

// MaxMessageLen bounds a message's text, in bytes: the contract's largest
// context encoding.
const MaxMessageLen = contextref.MaxContextJSONLen

// CheckLimits refuses a message over the contract's limits, saying which.
func CheckLimits(text string, ctx *contextref.MessageContext) error {
	if len(text) > MaxMessageLen {
		return fmt.Errorf("message not sent: its text is %s, over the %s limit", assets.HumanSize(int64(len(text))), assets.HumanSize(MaxMessageLen))
	}
	if ctx == nil {
		return nil
	}
	if len(ctx.Records) > contextref.MaxContextRecords {
		return fmt.Errorf("message not sent: it references %d pieces of context, over the limit of %d", len(ctx.Records), contextref.MaxContextRecords)
	}
	raw, err := ctx.Marshal()
	if err != nil {
		return fmt.Errorf("message not sent: %v", err)
	}
	if back, _, err := contextref.DecodeContext(raw); err != nil || len(back.Records) != len(ctx.Records) {
		return fmt.Errorf("message not sent: its context does not pass the contract (%v)", err)
	}
	return nil
}

// NormalizeAttachments is the send-time normalizer (DESIGN.md section 2,
// step 2): each image and file record's attachmentId is rewritten from the
// draft attachment's local id to the stored asset's id (resolve), and the
// stored bytes must exist (has). An attachment whose bytes are not stored
// refuses the send, naming the file. Records are copied, never changed in
// place: the draft keeps its local ids.
func NormalizeAttachments(recs []contextref.Record, resolve func(localID string) (string, bool), has func(assetID string) bool) ([]contextref.Record, error) {
	out := make([]contextref.Record, len(recs))
	for i, r := range recs {
		var att *contextref.AttachmentRecord
		switch r := r.(type) {
		case *contextref.ImageRecord:
			c := *r
			att, out[i] = &c.AttachmentRecord, &c
		case *contextref.FileRecord:
			c := *r
			att, out[i] = &c.AttachmentRecord, &c
		default:
			out[i] = r
			continue
		}
		id := att.AttachmentID
		if stored, ok := resolve(id); ok {
			id = stored
		}
		if !has(id) {
			return nil, fmt.Errorf("message not sent: the bytes of %s are not in the asset store; attach it again", att.Name)
		}
		att.AttachmentID = id
	}
	return out, nil
}

// turnStored shows the stored message and starts the reply. The thread
// cannot change while a send is being stored (see busy), so the result is
// this thread's.
func (a *App) turnStored(m storedTurnMsg) tea.Cmd {
	var notes []tea.Cmd
	if m.user.ID != "" {
		if a.ed.Draft().Version() == a.sendVersion {
			a.ed.Reset()
			a.savedVersion = a.ed.Draft().Version()
		} else {
			// Typed on while the message was being stored: the draft stays
			// (the send cleared it on disk, so save it again).
			a.savedVersion = 0
			notes = append(notes, a.notify("sent; what you typed since is still in the composer", false))
		}
		a.tr.Append(transcript.Message{ID: m.user.ID, Role: m.user.Role, Text: m.user.Text, Context: m.user.Context, RawContext: m.user.RawContext, Status: m.user.Status})
	}
	if m.err != nil {
		notes = append(notes, a.notify(m.err.Error(), true))
	}
	if m.note != "" {
		notes = append(notes, a.notify(m.note, false))
	}
	if m.user.ID == "" || a.quitting {
		// Not stored (the draft stays), or the user is leaving.
		a.sending = false
		if a.quitting {
			return a.finishQuit()
		}
		return tea.Batch(append(notes, a.afterComposer(), a.refreshThread())...)
	}
	// Stored: the reply starts even when clearing the draft on disk failed.
	a.layout()
	return tea.Batch(append(notes, a.startReply(m.user), a.afterComposer(), a.refreshThread())...)
}

// replyReady starts the agent once the user's message and its reply exist.
func (a *App) replyReady(m replyReadyMsg) tea.Cmd {
	a.sending = false
	if m.err != nil {
		if a.quitting {
			return a.finishQuit()
		}
		a.retryUser = m.user // the message is stored: alt+r asks again
		return a.notify(m.err.Error()+" — alt+r retries", true)
	}
	a.tr.Append(transcript.Message{ID: m.reply.ID, Role: m.reply.Role, Status: message.StatusStreaming})
	a.turnID = m.reply.ID
	a.turnText.Reset()
	a.lastFlush = time.Now()
	a.turnStart, a.now, a.retryUser = a.lastFlush, a.lastFlush, store.Message{}
	a.turnUser = m.user
	if a.quitting {
		return a.finishQuit() // saves the empty reply as interrupted
	}
	a.layout()
	return tea.Batch(a.runner.Start(a.turnID, m.turn), spinTick(a.turnID))
}

// spinMsg advances the running turn's spinner and elapsed time.
type spinMsg struct {
	turnID string
	at     time.Time
}

func spinTick(turnID string) tea.Cmd {
	return tea.Tick(120*time.Millisecond, func(t time.Time) tea.Msg { return spinMsg{turnID, t} })
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// retry asks the agent again for the last message its error ended, as a new
// reply.
func (a *App) retry() tea.Cmd {
	if a.retryUser.ID == "" || a.turnID != "" || a.sending {
		return nil
	}
	user := a.retryUser
	a.retryUser = store.Message{}
	a.sending = true
	return a.startReply(user)
}

// refreshThread re-reads the thread (its title comes from the first
// message).
func (a *App) refreshThread() tea.Cmd {
	st, id := a.st, a.thread.ID
	return func() tea.Msg {
		th, err := st.Thread(id)
		if err != nil {
			return nil
		}
		return threadTitleMsg{th}
	}
}

func (a *App) chunk(m agent.ChunkMsg) tea.Cmd {
	if m.TurnID != a.turnID {
		return nil
	}
	a.turnText.WriteString(m.Delta)
	a.tr.SetText(a.turnID, a.turnText.String(), message.StatusStreaming)
	cmds := []tea.Cmd{a.runner.Next(a.turnID)}
	if !a.quitting && time.Since(a.lastFlush) > 500*time.Millisecond {
		a.lastFlush = time.Now()
		id, text, st := a.turnID, a.turnText.String(), a.st
		cmds = append(cmds, func() tea.Msg { return replySavedMsg{st.UpdateMessage(id, text, message.StatusStreaming)} })
	}
	return tea.Batch(cmds...)
}

func (a *App) turnDone(m agent.DoneMsg) tea.Cmd {
	if m.TurnID != a.turnID {
		return nil
	}
	status := message.StatusDone
	var note tea.Cmd
	switch {
	case m.Interrupted:
		status = message.StatusInterrupted
	case m.Err != nil:
		status = message.StatusError
		note = a.notify("agent: "+m.Err.Error()+" — alt+r retries", true)
		// The error shows in the reply itself, and alt+r asks again.
		a.turnText.WriteString("\n\n> **error:** " + strings.ReplaceAll(strings.TrimSpace(m.Err.Error()), "\n", "\n> ") + "\n>\n> alt+r retries")
		a.retryUser = a.turnUser
	}
	text := a.turnText.String()
	a.tr.SetText(a.turnID, text, status)
	id, st := a.turnID, a.st
	a.turnID = ""
	backend, threadID := a.opt.Backend, a.thread.ID
	save := func() tea.Msg {
		err := st.UpdateMessage(id, text, status)
		if serr := saveSession(st, backend, threadID); err == nil {
			err = serr
		}
		return replySavedMsg{err}
	}
	if a.quitting {
		return tea.Sequence(save, a.finishQuit())
	}
	return tea.Batch(save, note)
}

// hasSelection reports whether the composer has a selection.
func (a *App) hasSelection() bool {
	_, _, ok := a.ed.Draft().Selection()
	return ok
}
