package ui

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/agent"
	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/review"
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
	Messages []store.Message      // the thread's messages, loaded before start (decoded or raw contexts)
	Draft    *store.Draft         // the thread's saved draft, when any
	History  []store.HistoryEntry // the project's prompt history, newest first (history.go)
	// Clipboard and Registry are the copy/paste carriers and the
	// environment registry (package clipboard); nil means the defaults
	// under the user's state dir.
	Clipboard *clipboard.Clipboard
	Registry  *clipboard.Registry
	// AgentTerminals runs an ACP agent's terminal/* commands as tabs of
	// the terminal pane (main passes the same value in agent.ACPOptions);
	// Panes is chipchat mcp's panes socket (ListenPanes). Either may be
	// nil.
	AgentTerminals *AgentTerminals
	Panes          *PanesServer
	// Review is the review pane's git, gh and id minting (package review;
	// the zero value: git and gh from PATH, new context ids). The project,
	// comparison, keys and look are the app's.
	Review review.Options
	// Clock is the conversation's clock and the one the status line's
	// elapsed time and spinner read; nil: the real one.
	Clock chat.Clock
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
	overlayHistory
)

// App is chipchat's whole-screen model: transcript above, image shelf and
// composer below, a footer with the keys that apply. Update and View do no
// I/O: the store, the asset store and the agent are reached through
// commands.
type App struct {
	opt    Options
	st     *store.Store
	assets *assets.Store
	chat   *chat.Service
	keys   Keys // the key table's bindings (keys.go)
	reg    *chips.Registry
	ed     *composer.Editor
	tr     *transcript.Model
	thread store.Thread
	focus  pane

	width, height int

	// what the open thread's conversation shows (package chat owns it):
	// its turn phase, the queue under the transcript, the agent's state
	// for the status line, the agent's open questions.
	phase       chat.Phase
	phaseSince  time.Time
	queue       []store.Message
	queuePaused bool
	info        chat.Info
	asks        []pendingAsk

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

	// the status line of a running turn
	now time.Time

	askBox *askBox
	acp    acpUI // the / and modes pickers, the agent's terminals, chipchat mcp (commands.go)

	hist       history        // the project's earlier prompts (history.go)
	histSearch *historySearch // ctrl+r
	shell      shellMode      // ! shell mode (shell.go)

	// the terminal pane
	pane      *terminal.Pane
	paneShown bool
	paneRight bool // split beside the transcript rather than below it

	// the review pane (ui/review.go), the quote comment prompt
	// (ui/quote.go) and the # picker's thread list (ui/threadref.go)
	rv      *reviewPane
	quoting *quotePrompt
	threads *threadSource
}

// New builds the app for a thread whose messages and draft were loaded.
func New(opt Options) *App {
	th := chips.DefaultTheme()
	if opt.NoColor {
		th = chips.NoColorTheme()
	}
	reg := chips.Default(th)
	keys := DefaultKeys()
	_ = keys.Apply(opt.Config.Keys) // checked by LoadConfig before
	edKeys, appKeys := keys.Editor, keys.AppKeys
	threads := newThreadSource(opt.Store, opt.Project.ID)
	ed := composer.New(composer.Options{Registry: reg, KeyMap: &edKeys, MaxHeight: opt.Config.Limits.ComposerRows,
		ProjectRoot: opt.Dir, Home: opt.Home, Threads: threads.list})
	trOpts := []transcript.Option{transcript.WithKeyMap(keys.Transcript), transcript.WithReplyBytes(int(opt.Config.Limits.ReplyBytes))}
	if opt.NoColor {
		trOpts = append(trOpts, transcript.WithNoColor())
	}
	svc := chat.New(chat.Options{Store: opt.Store, Assets: opt.Assets, Backend: opt.Backend, ProjectID: opt.Project.ID,
		Dir: opt.Dir, Clock: opt.Clock, ExcerptMaxAge: opt.Config.Limits.ExcerptAge(), PrepareRecords: markStale(opt.Dir), Limits: opt.Config.Limits.Payload()})
	a := &App{opt: opt, st: opt.Store, assets: opt.Assets, chat: svc, keys: keys, threads: threads,
		reg: reg, ed: ed, tr: transcript.New(reg, trOpts...), thread: opt.Thread, width: 80, height: 24,
		pane: terminal.NewPane(opt.Dir)}
	a.pane.Scrollback = opt.Config.Limits.Scrollback
	a.acp.terms, a.acp.mcp = opt.AgentTerminals, opt.Panes
	a.pane.CopyModeKeys, a.pane.QuickCaptureKeys = appKeys.CopyMode.Keys(), appKeys.QuickCapture.Keys()
	a.hist.entries = opt.History // up works from the first frame (history.go)
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
		th = st.NewThread(project.ID) // stored with its first message or draft: --new leaves no empty thread
	}
	msgs, err := chat.LoadThread(st, th.ID) // a reply whose writer died shows interrupted
	if err != nil {
		return Options{}, err
	}
	opt := Options{Store: st, Project: project, Thread: th, Messages: msgs}
	if opt.History, err = st.History(project.ID, historyRows); err != nil {
		return Options{}, err
	}
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
	a.threads.setCurrent(t.ID)
	a.quoting = nil // a quote of the thread being left
	a.tr.SetMessages(toTranscript(msgs, a.plainReplies()))
	a.chat.Adopt(t.ID, msgs)
	a.phase, a.queue, a.queuePaused = a.chat.Phase(t.ID), nil, false
	a.info = a.chat.Info(t.ID)
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
func toTranscript(msgs []store.Message, plain bool) []transcript.Message {
	out := make([]transcript.Message, 0, len(msgs))
	for i := range msgs {
		m := &msgs[i]
		if m.Status == message.StatusQueued {
			continue // shown under the transcript, from the queue
		}
		out = append(out, transcript.Message{ID: m.ID, Role: m.Role, Text: m.Text, Context: m.Context, RawContext: m.RawContext, Status: m.Status, Items: m.Items,
			PlainText: plain && m.Role == message.RoleAssistant})
	}
	return out
}

// Init listens to the conversation; everything else was loaded before the
// first frame.
func (a *App) Init() tea.Cmd { return tea.Batch(a.listen(), a.loadHistory(), a.listenAgentTerminals()) }

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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	a.chat.Shutdown(ctx)
	cancel()
	a.chat.Close()
	if msg, ok := a.saveDraft()().(draftSavedMsg); ok && msg.err != nil {
		fmt.Fprintln(os.Stderr, "chipchat: draft not saved:", msg.err)
	}
	a.pane.CloseAll()
	// The backend's process, when it has one (Capabilities.Process).
	_ = agent.Close(a.opt.Backend)
	a.closeACP() // the panes socket of chipchat mcp (mcp.go)
}

// ---- messages of the app's own ----

type toastDoneMsg struct{ seq int }
type excerptNotedMsg struct{ err error }
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
	if cmd, ok := a.paneMsg(msg); ok { // the review pane, quotes, thread chips (ui/review.go)
		return a, cmd
	}
	if cmd, ok := a.habitsMsg(msg); ok { // history and ! shell results (history.go, shell.go)
		return a, cmd
	}
	if cmd, ok := a.acpMsg(msg); ok { // the agent's terminals and sign-in (agentterm.go)
		return a, cmd
	}
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
	case chatMsg:
		return a, a.chatEvents(msg)
	case noticeMsg:
		return a, a.notify(msg.text, msg.err)
	case spinMsg:
		if msg.threadID != a.thread.ID || !a.turnShown() {
			return a, nil
		}
		a.now = msg.at
		if a.opt.Clock != nil {
			a.now = a.opt.Clock.Now()
		}
		return a, spinTick(a.thread.ID)
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
		if a.shell.on { // ! shell mode: enter runs the line (shell.go)
			return a, a.runShell(msg.Markdown)
		}
		return a, tea.Batch(a.remember(msg), a.send(msg))
	case composer.NoticeMsg:
		return a, a.notify(msg.Text, msg.Err)
	case transcript.OpenMsg:
		return a, a.open(msg.Record)
	case transcript.PagerMsg:
		return a, a.page(msg)
	case pagerFileMsg:
		return a, a.runPager(msg)
	case pagerDoneMsg:
		if msg.err != nil {
			return a, a.notify("pager: "+msg.err.Error(), true)
		}
		return a, nil
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
	a.syncCommandPicker()
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
	case overlayHistory:
		return a.histSearch.key(a, msg)
	}
	k := a.keys
	if a.focus == paneTerminal {
		return a.terminalKey(msg)
	}
	if cmd, ok := a.shellKey(msg); ok { // ! shell mode (shell.go)
		return cmd
	}
	if a.acp.pick != nil && a.focus == paneComposer { // the / and modes pickers (commands.go, modes.go)
		if cmd, ok := a.pickerKey(msg); ok {
			return cmd
		}
		defer a.syncCommandPicker() // ctrl+c, undo…: the picker follows the draft
	}
	switch {
	case key.Matches(msg, k.HidePane) && a.pane.Active() != nil:
		return a.togglePane()
	case key.Matches(msg, k.HistorySearch) && a.focus == paneComposer && !a.ed.PickerOpen():
		return a.openHistorySearch()
	case key.Matches(msg, k.Terminal) && !a.ed.PickerOpen():
		return a.showTerminal()
	case key.Matches(msg, k.Modes) && !a.ed.PickerOpen():
		return a.openModes(scopeAll, "")
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
	case key.Matches(msg, k.Cancel) && !a.ed.PickerOpen() && !a.tr.PopoverOpen() && !a.tr.SelectionActive():
		// esc closes the innermost open thing (DESIGN.md section 9): a
		// selection, then a pane's mode (focus goes back to the
		// composer); only when nothing is open does it cancel the turn.
		if a.focus == paneComposer && a.hasSelection() {
			d := a.ed.Draft()
			d.SetCaret(d.Caret(), false)
			return nil
		}
		if a.focus != paneComposer {
			a.setFocus(paneComposer)
			return nil
		}
		return a.cancelTurn()
	case key.Matches(msg, k.FocusNext) && !a.ed.PickerOpen():
		a.cycleFocus(1)
		return nil
	case key.Matches(msg, k.FocusPrev) && !a.ed.PickerOpen():
		a.cycleFocus(-1)
		return nil
	case key.Matches(msg, k.Editor.Submit) && a.sendsPausedQueue():
		return a.sendNextQueued() // queue.go
	case key.Matches(msg, k.Retry):
		return a.retry()
	case key.Matches(msg, k.Unqueue) && a.focus == paneComposer && !a.ed.PickerOpen():
		return a.unqueue()
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
	if cmd, ok := a.historyKey(msg); ok { // up/down through earlier prompts (history.go)
		return cmd
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
	if c := a.cancelTurn(); c != nil {
		return c
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

// randomID mints a client-side id such as an attachment's local id.
func randomID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
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

// hasSelection reports whether the composer has a selection.
func (a *App) hasSelection() bool {
	_, _, ok := a.ed.Draft().Selection()
	return ok
}
