package ui

import (
	"context"
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/mcpserver"
	"github.com/chipchat/chipchat/message"
	"github.com/chipchat/chipchat/notify"
	"github.com/chipchat/chipchat/review"
	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/theme"
	"github.com/chipchat/chipchat/transcript"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/ui/overlay"
	"github.com/chipchat/chipchat/workspace"
)

// Options are what the command line decided.
type Options struct {
	// Workspace is the project's storage (threads, drafts, stash,
	// history, attachments); Chat the conversation over the agent
	// backend (main builds both).
	Workspace *workspace.Workspace
	Chat      *chat.Service
	Opened    workspace.Opened                 // the thread to open, loaded before start (Workspace.Start)
	Dir       string                           // the project directory (cwd)
	AttachDir string                           // where ctrl+o's relative paths start (Dir when ""; a remote project's start directory)
	Skills    func() ([]composer.Skill, error) // the $ picker's skills when not Dir's and Home's here (a remote project's)
	Home      string
	Config    config.Config
	NoColor   bool
	History   []workspace.HistoryEntry // the project's prompt history, newest first (history.go)
	// Clipboard and Registry are the copy/paste carriers and the
	// environment registry (package clipboard); nil means the defaults
	// under the user's state dir.
	Clipboard *clipboard.Clipboard
	Registry  *clipboard.Registry
	// AgentTerminals runs an ACP agent's terminal/* commands as tabs of
	// the terminal pane (main's terminal host for the agent wraps it);
	// Panes is chipchat mcp's panes socket (mcpserver.OpenPanes);
	// ExitFiles where the pager's files are registered for a signal to
	// remove (package main). Any may be nil.
	AgentTerminals *terminal.AgentTerminals
	Panes          *mcpserver.Panes
	ExitFiles      ExitFiles
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

// App is chipchat's whole-screen model: transcript above, image shelf and
// composer below, a footer with the keys that apply. Update and View do no
// I/O: the store, the asset store and the agent are reached through
// commands.
type App struct {
	opt    *Options // what the command line decided (and main wired)
	chat   *chat.Service
	keys   *keymap.Keys // the key table's bindings (keys.go)
	ed     *composer.Editor
	tr     *transcript.Model
	thread workspace.Thread
	focus  pane

	width, height int

	// the open thread's conversation (package chat owns it; conversation.go)
	conv *conversation

	drafts *drafts // when the draft goes to disk (autosave.go)

	ovs   *overlay.Stack // the open overlays, the top one last (ui/overlay)
	clip  *clip          // copy and paste (clipboard.go)
	stash *stash         // the prompt stash (stash.go)
	nav   *nav           // the threads, thread chips, opening chips (overlays.go)

	toast *toastLine

	hist  *history   // the project's earlier prompts (history.go)
	shell *shellMode // ! shell mode (shell.go)
	panes *panes     // the terminal pane and the agent's tabs in it (terminal.go)

	rv *reviewPane // the review pane (ui/review.go)
}

// New builds the app for a thread whose messages and draft were loaded.
func New(opt Options) *App {
	if opt.Clock == nil {
		opt.Clock = chat.SystemClock
	}
	look := theme.For(opt.Config.UI.ThemeName(), opt.NoColor)
	reg := chips.Default(look.Chips)
	keys := keymap.Default()
	_ = keys.Apply(opt.Config.Keys) // checked by LoadConfig before
	edKeys, appKeys := keys.Editor, keys.AppKeys
	threads := opt.Workspace.ThreadSource()
	files, spawn, shell := workspace.Elsewhere(opt.Workspace.Project())
	ed := composer.New(composer.Options{Registry: reg, Styles: &look.Composer, KeyMap: &edKeys, MaxHeight: opt.Config.Limits.ComposerRows,
		ProjectRoot: opt.Dir, Home: opt.Home, Threads: threadItems(threads), Files: files, Skills: opt.Skills})
	trOpts := []transcript.Option{transcript.WithKeyMap(keys.Transcript), transcript.WithReplyBytes(int(opt.Config.Limits.ReplyBytes))}
	trOpts = append(trOpts, look.Transcript...)
	a := &App{opt: &opt, chat: opt.Chat, keys: &keys, toast: &toastLine{st: look.Status},
		ed: ed, tr: transcript.New(reg, trOpts...), thread: opt.Opened.Thread, width: 80, height: 24,
		ovs: overlay.NewStack(opt.Clock, opt.Config.UI.QuestionGuard())}
	a.ovs.SetLooks(dialog.Looks{Picker: look.Composer.Picker, Content: a.tr.ContentOptions()})
	ws := opt.Workspace
	a.drafts = &drafts{ws: ws, ed: ed, chat: a.chat, thread: &a.thread, toast: a.toast}
	a.conv = &conversation{chat: a.chat, ws: ws, ed: ed, tr: a.tr, keys: a.keys, ovs: a.ovs, toast: a.toast, thread: &a.thread,
		bell: notify.New(opt.Config.Notify.Settings(), opt.Clock)}
	if a.opt.ExitFiles == nil {
		a.opt.ExitFiles = noExitFiles{}
	}
	a.panes = &panes{pane: terminal.NewPane(opt.Dir), keys: a.keys, toast: a.toast, chat: opt.Chat,
		host: opt.AgentTerminals, mcp: opt.Panes, scrollback: opt.Config.Limits.Scrollback}
	a.panes.pane.Scrollback, a.panes.pane.Spawn, a.panes.pane.CommandShell = opt.Config.Limits.Scrollback, spawn, shell
	a.panes.pane.CopyModeKeys, a.panes.pane.QuickCaptureKeys = appKeys.CopyMode.Keys(), appKeys.QuickCapture.Keys()
	a.shell = &shellMode{ed: ed, panes: a.panes, keys: a.keys, toast: a.toast, dir: opt.Dir, scrollback: opt.Config.Limits.Scrollback, prompt: look.Status.Shell}
	a.rv = newReviewPane(opt.Review, opt.Dir, look.Review, a.keys, ed, a.tr, a.toast)
	if a.opt.Clipboard == nil {
		a.opt.Clipboard = clipboard.Default()
	}
	if a.opt.Registry == nil {
		a.opt.Registry = clipboard.DefaultRegistry()
	}
	a.hist = &history{ws: ws, ed: ed, keys: a.keys, ovs: a.ovs, toast: a.toast, reg: a.opt.Registry}
	a.hist.steps.Read(opt.History) // up works from the first frame (history.go)
	a.clip = &clip{ws: ws, ed: ed, keys: a.keys, toast: a.toast, thread: &a.thread, cb: a.opt.Clipboard, reg: a.opt.Registry,
		limits: opt.Config.Limits, config: opt.Config.Path, home: opt.Home}
	a.nav = &nav{ws: ws, chat: a.chat, drafts: a.drafts, ovs: a.ovs, keys: a.keys, toast: a.toast, thread: &a.thread, dir: opt.Dir, threads: threads}
	a.stash = &stash{ws: ws, ed: ed, keys: a.keys, ovs: a.ovs, toast: a.toast, reg: a.opt.Registry}
	a.loadThread(opt.Opened)
	a.opt.Opened = workspace.Opened{} // the transcript has them; a long thread's slice is not kept twice
	return a
}

// loadThread shows a thread's messages and restores its draft.
func (a *App) loadThread(o workspace.Opened) {
	t, d := o.Thread, o.Draft
	a.thread = t
	a.nav.threads.SetCurrent(t.ID)
	a.ovs.Remove(overlay.Is[*dialog.Quote]) // a quote of the thread being left
	a.tr.SetMessages(toTranscript(o, a.conv.plainReplies()))
	a.chat.Adopt(t.ID, o.Messages)
	d = a.drafts.loaded(t.ID, d) // its revision; a draft whose save failed comes back
	if d != nil {
		draft := composer.FromMarkdown(d.Markdown, d.Records)
		draft.SetCaret(composer.Pos{Line: d.Caret.Line, Col: d.Caret.Col}, false)
		a.ed.SetDraft(draft)
	} else {
		a.ed.Reset()
	}
	a.drafts.book.OnDisk(a.ed.Draft().Version())
	a.setFocus(paneComposer)
}

// toTranscript converts stored messages. A context still raw (MessagesRaw)
// is handed over raw: the transcript decodes it when it first needs it.
func toTranscript(o workspace.Opened, plain bool) []transcript.Message {
	msgs := o.Messages
	out := make([]transcript.Message, 0, len(msgs))
	for i := range msgs {
		m := &msgs[i]
		if m.Status == message.StatusQueued {
			continue // shown under the transcript, from the queue
		}
		out = append(out, transcript.Message{ID: m.ID, Role: m.Role, Text: m.Text, Context: m.Context, RawContext: m.RawContext, Status: m.Status, Items: m.Items,
			PlainText: m.Role == message.RoleAssistant && workspace.PlainText(m.TextMode, plain)})
	}
	return out
}

// Init listens to the conversation; everything else was loaded before the
// first frame.
func (a *App) Init() tea.Cmd {
	return tea.Batch(a.conv.listen(), a.hist.load(), a.panes.listen(), probeTerminal, workspace.NextLink[tea.Msg](a.opt.Workspace.Link()))
}

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
	a.panes.pane.Focused = p == paneTerminal
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
	// save is nil while a send still owns the draft (the shutdown above
	// timed out before the send's store write ended): nothing to save.
	if save := a.drafts.save(); save != nil {
		if msg, ok := save().(draftSavedMsg); ok && msg.end.Err != nil {
			fmt.Fprintln(os.Stderr, "chipchat: draft not saved:", msg.end.Err)
		}
	}
	a.panes.pane.CloseAll()
	// The backend's process, when it has one (Capabilities.Process).
	_ = a.chat.CloseBackend()
	a.panes.close() // the agent's terminals and the panes socket of chipchat mcp (mcp.go)
}

// ---- messages of the app's own ----

type excerptNotedMsg struct{ err error }
type threadOpenedMsg struct {
	open workspace.Opened
	err  error
}
type threadChangedMsg struct {
	err    error
	reload bool
	what   string
}
type attachedMsg struct {
	rec contextref.Record
	err error
}
type openedMsg struct{ text string }

// notify shows a toast for a few seconds.
func (a *App) notify(text string, isErr bool) tea.Cmd { return a.toast.show(text, isErr) }

// Toast is the toast on the footer now ("" when none).
func (a *App) Toast() string { return a.toast.text }

// OverlayScope is the key scope of the overlay on top ("" when none is
// open): what the keys act on now.
func (a *App) OverlayScope() keymap.Scope {
	if top := a.ovs.Top(); top != nil {
		return top.Scope()
	}
	return ""
}

// threadOpened shows a thread read for the switch.
func (a *App) threadOpened(msg threadOpenedMsg) tea.Cmd {
	if msg.err != nil {
		return a.notify("could not open the thread: "+msg.err.Error(), true)
	}
	a.loadThread(msg.open)
	a.layout()
	if a.nav.at != "" && a.tr.Reveal(a.nav.at) { // a message found by the search of every thread
		a.setFocus(paneTranscript)
	}
	a.nav.at = ""
	if list, ok := overlay.Of[*dialog.Threads](a.ovs); ok {
		list.SetCurrent(a.thread.ID) // the list marks what the header names
	}
	return nil
}

// retitle takes the open thread's title as stored.
func (a *App) retitle(msg threadTitleMsg) {
	if msg.t.ID == a.thread.ID {
		a.thread = msg.t
	}
}

// submitted is enter in the composer: in ! shell mode the line runs
// (shell.go), else the message is remembered and sent.
func (a *App) submitted(msg composer.SubmitMsg) tea.Cmd {
	if a.shell.on {
		return a.act(a.shell.start(msg.Markdown))
	}
	return tea.Batch(a.hist.remember(msg), a.send(msg))
}

func (a *App) cycleFocus(dir int) {
	order := []pane{paneComposer, paneTranscript}
	if t := a.panes.pane.Active(); a.panes.shown && t != nil {
		if exited, _ := t.Exited(); !exited {
			order = append(order, paneTerminal) // an exited tab takes no keys: focus skips it
		}
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
	if c := a.conv.cancelTurn(); c != nil {
		return c
	}
	if !a.ed.Draft().IsEmpty() {
		a.setFocus(paneComposer)
		a.ed.Draft().ClearAll()     // undo gives the caret back, not a selection ctrl+c would copy
		a.ed.SetDraft(a.ed.Draft()) // an open picker goes with the text it was for
		return tea.Batch(a.afterComposer(), a.notify("draft cleared — ctrl+z brings it back", false))
	}
	if a.conv.ctrlCArmed {
		return a.quit()
	}
	a.conv.ctrlCArmed = true
	return a.notify("press ctrl+c again to quit", false)
}

// refreshThread re-reads the thread (its title comes from the first
// message).
func (a *App) refreshThread() tea.Cmd {
	read := a.opt.Workspace.Thread(a.thread.ID)
	return func() tea.Msg {
		th, err := read()
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
