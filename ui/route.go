package ui

import (
	"reflect"
	"slices"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/review"
	"github.com/chipchat/chipchat/terminal"
	"github.com/chipchat/chipchat/transcript"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/ui/overlay"
	"github.com/chipchat/chipchat/workspace"
)

// Update routes a message (ui/doc.go, "Routing"): keys and pastes through
// the overlay stack, the app's keys, the focused pane and the composer;
// every other message to its handler in the message table; the rest to
// the components.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	a.panes.syncSocket() // the user's own terminals, for chipchat mcp (mcp.go)
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		cmd := a.routeKey(msg)
		return a, tea.Batch(cmd, a.ovs.GuardTick()) // a question next in line came on top
	case tea.PasteMsg:
		return a, a.routePaste(msg)
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		a.layout()
		return a, nil
	}
	if h, ok := messageTable()[reflect.TypeOf(msg)]; ok {
		return a, h(a, msg)
	}
	if review.Owns(msg) {
		return a, a.rv.update(msg)
	}
	return a, a.toComponents(msg)
}

// handler is a message's handler in the message table.
type handler func(a *App, msg tea.Msg) tea.Cmd

// on makes a table row: the handler of messages of type M.
func on[M tea.Msg](f func(a *App, m M) tea.Cmd) (reflect.Type, handler) {
	return reflect.TypeFor[M](), func(a *App, msg tea.Msg) tea.Cmd { return f(a, msg.(M)) }
}

// messageTable is the message table: each message the app's commands, chat
// and the components send the app, with the one handler that takes it.
var messageTable = sync.OnceValue(func() map[reflect.Type]handler {
	rows := map[reflect.Type]handler{}
	add := func(t reflect.Type, h handler) { rows[t] = h }
	// the conversation (conversation.go) and the status line
	add(on(func(a *App, m chatMsg) tea.Cmd { return tea.Batch(a.chatEvents(m), a.ovs.GuardTick()) }))
	add(on(func(*App, overlay.GuardDone) tea.Cmd { return nil }))
	bellRows(add)   // focus reports and the terminal's probe (notify.go)
	exportRows(add) // /export's file and copy (export.go)
	elicitRows(add) // the agent's links (elicit.go)
	searchRows(add) // the search in the thread (search.go)
	add(on(func(a *App, m noticeMsg) tea.Cmd { return a.notify(m.text, m.err) }))
	add(on(func(a *App, m workspace.LinkEvent) tea.Cmd { // a remote project's connection; the header reads Link.Status
		return tea.Batch(a.notify(m.Notice, m.Err), workspace.NextLink[tea.Msg](a.opt.Workspace.Link()))
	}))
	add(on(func(a *App, m spinMsg) tea.Cmd { return a.conv.spun(m, a.opt.Clock) }))
	add(on(func(a *App, m toastDoneMsg) tea.Cmd { a.toast.done(m.seq); return nil }))
	// the draft, the threads, the stash and the history
	add(on(func(a *App, m draftTickMsg) tea.Cmd { return a.drafts.due(m) }))
	add(on(func(a *App, m draftSavedMsg) tea.Cmd { return a.drafts.saved(m) }))
	add(on((*App).threadOpened))
	add(on(func(a *App, m dialog.ThreadsListed) tea.Cmd { return a.deliver(overlay.Is[*dialog.Threads], m) }))
	add(on(func(a *App, m chat.AgentSessions) tea.Cmd { return a.deliver(overlay.Is[*dialog.Threads], m) }))
	add(on(func(a *App, m threadChangedMsg) tea.Cmd { return tea.Batch(a.nav.changed(m), a.refreshThread()) }))
	add(on(func(a *App, m threadTitleMsg) tea.Cmd { a.retitle(m); return nil }))
	add(on(func(a *App, m deleteAskedMsg) tea.Cmd {
		a.ovs.Push(dialog.NewConfirm(a.keys, m.question, deleteThread{m.id}))
		return nil
	}))
	add(on(func(a *App, m stashedMsg) tea.Cmd { return a.edited(a.stash.stashed(m)) }))
	add(on(func(a *App, m dialog.StashListed) tea.Cmd { return a.deliver(overlay.Is[*dialog.Stash], m) }))
	add(on(func(a *App, m stashDroppedMsg) tea.Cmd { return a.failed("stash: ", m.err) }))
	add(on(func(a *App, m historyLoadedMsg) tea.Cmd { return a.hist.loaded(m) }))
	add(on(func(a *App, m historyAddedMsg) tea.Cmd { return a.failed("history: ", m.err) }))
	add(on(func(a *App, m historyImportedMsg) tea.Cmd { return tea.Batch(a.afterComposer(), a.hist.imported(m)) }))
	add(on(func(a *App, m shellDoneMsg) tea.Cmd { return a.captured(a.shell.done(m)) }))
	// attachments, copy and paste (clipboard.go, pastefilter.go)
	add(on(func(a *App, m dialog.Completion) tea.Cmd { return a.deliver(overlay.Is[*dialog.Attach], m) }))
	add(on((*App).attached))
	add(on(func(a *App, m openedMsg) tea.Cmd { return a.notify(m.text, false) }))
	add(on(func(a *App, m copiedMsg) tea.Cmd { return a.clip.copied(m) }))
	add(on(func(a *App, m pasteReadyMsg) tea.Cmd { return a.edited(a.clip.pasteReady(m)) }))
	add(on(func(a *App, m systemReadMsg) tea.Cmd { return a.edited(a.clip.systemRead(m)) }))
	add(on(func(a *App, m pastedFileMsg) tea.Cmd { return a.edited(a.clip.pastedFile(m, a.ed.SpaceBeforeChip)) }))
	add(on(func(a *App, m expandedMsg) tea.Cmd { return a.edited(a.clip.expanded(m)) }))
	add(on(func(a *App, m droppedImageMsg) tea.Cmd { return a.edited(a.clip.droppedImage(m)) }))
	// the transcript's requests
	add(on(func(a *App, m transcript.OpenMsg) tea.Cmd { return a.nav.open(m.Record) }))
	add(on(func(a *App, m transcript.PagerMsg) tea.Cmd { return page(a.opt.ExitFiles, m) }))
	add(on(func(a *App, m pagerFileMsg) tea.Cmd { return runPager(a.opt.ExitFiles, a.toast, m) }))
	add(on(func(a *App, m pagerDoneMsg) tea.Cmd { return a.failed("pager: ", m.err) }))
	add(on(func(a *App, m transcript.ForkMsg) tea.Cmd { a.chat.Fork(a.thread.ID, m.MessageID); return nil }))
	add(on(func(a *App, m transcript.RewindMsg) tea.Cmd { a.chat.ForkBefore(a.thread.ID, m.MessageID); return nil }))
	add(on((*App).rewindEdit))
	add(on(func(a *App, m rewindStashedMsg) tea.Cmd { return a.conv.rewindStashed(m) }))
	add(on(func(a *App, m transcript.CopyMsg) tea.Cmd { return a.clip.copyMessage(m, a.tr.PopoverOpen()) }))
	add(on(func(a *App, m transcript.QuoteMsg) tea.Cmd { return a.apply(a.conv.quote(m)) }))
	add(on(func(a *App, m transcript.CommentDiffMsg) tea.Cmd { return a.act(a.rv.agentDiff(m)) }))
	add(on(func(a *App, m threadRefOpenedMsg) tea.Cmd { return a.nav.refOpened(m) }))
	// the terminal pane and the review pane
	add(on(func(a *App, m terminal.UpdatedMsg) tea.Cmd { return a.toPane(m) }))
	add(on(func(a *App, m terminal.ExitedMsg) tea.Cmd { return a.toPane(m) }))
	add(on(func(a *App, m terminal.CaptureMsg) tea.Cmd { return a.captured(m.Record, nil) }))
	add(on(func(a *App, m terminal.AgentAddedMsg) tea.Cmd { return a.panes.added(m) }))
	add(on(func(a *App, m terminal.AgentReleasedMsg) tea.Cmd { return a.act(a.panes.released(m)) }))
	add(on(func(a *App, m authStarted) tea.Cmd { return a.act(a.panes.authStarted(m)) }))
	add(on(func(a *App, m authExited) tea.Cmd { return a.act(a.panes.authExited(m)) }))
	add(on(func(a *App, m terminal.AskMsg) tea.Cmd { return a.act(a.panes.ask(m)) }))
	add(on(func(a *App, m terminal.AnsweredMsg) tea.Cmd { return a.act(a.panes.answered(m)) }))
	add(on(func(a *App, m terminal.CaptureFailedMsg) tea.Cmd {
		return a.notify("nothing captured: "+m.Reason, true)
	}))
	add(on(func(a *App, _ terminal.FocusComposerMsg) tea.Cmd { a.setFocus(paneComposer); return nil }))
	add(on(func(a *App, m excerptNotedMsg) tea.Cmd {
		return a.failed("excerpt time not saved (it will not expire): ", m.err)
	}))
	add(on(func(a *App, m review.CommentMsg) tea.Cmd { return a.act(a.rv.comment(m)) }))
	add(on(func(a *App, _ review.ClosedMsg) tea.Cmd { return a.act(a.rv.close()) }))
	// the composer's
	add(on((*App).submitted))
	add(on(func(a *App, m composer.NoticeMsg) tea.Cmd { return a.notify(m.Text, m.Err) }))
	return rows
})

// failed toasts what when err is not nil.
func (a *App) failed(what string, err error) tea.Cmd {
	if err == nil {
		return nil
	}
	return a.notify(what+err.Error(), true)
}

// deliver gives an overlay the result it waits for (a list loaded, a
// completion) and acts on what it returns.
func (a *App) deliver(match func(dialog.Overlay) bool, msg tea.Msg) tea.Cmd {
	cmd, res, ok := a.ovs.Deliver(match, msg)
	if !ok {
		return nil
	}
	c, _ := a.overlayResult(res)
	return tea.Batch(cmd, c)
}

// routeKey is a key's way (ui/doc.go, "Routing"): quit, the overlay
// stack, the review pane, the terminal pane, the app's keys, the focused
// pane, the composer.
func (a *App) routeKey(msg tea.KeyPressMsg) tea.Cmd {
	if !key.Matches(msg, a.keys.Interrupt) {
		a.conv.ctrlCArmed = false
	}
	if key.Matches(msg, a.keys.Quit) {
		return a.quit() // from anywhere, popups included: quit saves everything
	}
	var cmds []tea.Cmd
	if cmd, res, handled := a.ovs.Update(msg); handled {
		c, pass := a.overlayResult(res)
		if !pass {
			return tea.Batch(cmd, c)
		}
		cmds = append(cmds, cmd, c)
	} else {
		cmds = append(cmds, cmd)
	}
	steps := []func(tea.KeyPressMsg) (tea.Cmd, bool){a.areaKey, a.appKey, a.paneKey, a.historyKey}
	for _, step := range steps {
		if cmd, ok := step(msg); ok {
			return tea.Batch(append(cmds, cmd)...)
		}
	}
	if cmd := a.elsewhere(msg); cmd != nil {
		return tea.Batch(append(cmds, cmd)...)
	}
	return tea.Batch(append(cmds, a.toComposer(msg))...)
}

// elsewhere is a key with ctrl or alt the composer has no use for but
// another scope binds: a toast says where it acts ("alt+o works in the
// terminal pane") instead of nothing happening (nil: not such a key).
func (a *App) elsewhere(msg tea.KeyPressMsg) tea.Cmd {
	if a.focus != paneComposer || a.ed.PickerOpen() || msg.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
		return nil
	}
	a.keys.Editor = a.ed.Keys
	var there []string
	for _, d := range keymap.KeyDefs() {
		if !key.Matches(msg, *d.Binding(a.keys)) {
			continue
		}
		if d.ActsIn(keymap.ScopeComposer) || d.ActsIn(keymap.ScopeShell) || d.ActsIn(keymap.ScopePicker) {
			return nil // the composer's own
		}
		for _, s := range d.Scopes {
			if p := keymap.ScopePlace(s); !slices.Contains(there, p) {
				there = append(there, p)
			}
		}
	}
	if len(there) == 0 {
		return nil
	}
	return a.notify(msg.String()+" works in "+strings.Join(there, " and "), false)
}

// routePaste is a paste's way: the top overlay, the review pane, the
// composer or the terminal pane, whichever has the keys.
func (a *App) routePaste(msg tea.PasteMsg) tea.Cmd {
	if cmd, res, handled := a.ovs.Update(msg); handled {
		c, _ := a.overlayResult(res)
		return tea.Batch(cmd, c)
	}
	switch {
	case a.rv.shown():
		return a.rv.update(msg)
	case a.focus == paneComposer:
		return a.edited(a.clip.paste(msg.Content))
	case a.focus == paneTerminal:
		return a.toPane(msg)
	}
	return nil
}

// overlayResult acts on what an overlay returned; pass true means the key
// goes on down the routing.
func (a *App) overlayResult(res any) (tea.Cmd, bool) {
	if cmd, ok := elicitResult(a, res); ok {
		return cmd, false
	}
	switch r := res.(type) {
	case nil:
	case dialog.ThreadOpen:
		return a.nav.switchTo(r.ID), false
	case dialog.ThreadRename:
		return a.nav.rename(r), false
	case dialog.ThreadDelete:
		return a.nav.askDelete(r), false
	case dialog.SessionOpen: // opened by chat.SessionImported, or a notice
		a.chat.ImportAgentSession(r.Session)
	case deleteThread:
		return a.nav.delete(r.id), false
	case removeImage:
		return a.removeImage(r), false
	case dialog.AttachChosen:
		return a.clip.attach(r.Path), false
	case dialog.StashRestore:
		a.setFocus(paneComposer)
		return a.stash.restore(r.Entry), false
	case dialog.StashDrop:
		return a.stash.drop(r.Entry), false
	case dialog.HistoryChosen:
		a.setFocus(paneComposer)
		return tea.Batch(a.afterComposer(), a.hist.use(r)), false
	case dialog.Answered:
		if cmd, ok := a.panes.signIn(r.Ask.ID, r.OptionID, r.Ask.SignIn); ok {
			return cmd, false // a terminal method: its login runs first (agentterm.go)
		}
		a.conv.answer(r)
		return nil, false
	case dialog.Interrupted:
		return a.interrupt(), false
	case dialog.ModeChosen:
		return a.conv.applyMode(r.Choice), false
	case dialog.CommandChosen:
		return a.runSlash(a.conv.choose(r.Value)), false
	case dialog.CommandDismissed:
		a.conv.dismissed = true
		return nil, r.Pass
	case dialog.QuoteInsert:
		return a.apply(a.conv.insertCitation(r.Citation)), false
	case dialog.ExportWrite:
		return a.conv.exportTo(r), false
	case dialog.ExportCopy:
		return a.conv.exportCopy(), false
	case dialog.SearchQuery:
		return a.tr.Search(r.Text), false
	case dialog.FindStart, dialog.FindAsk, dialog.FindOpen:
		return a.find(r), false
	case dialog.QuoteDropped:
		return a.notify("quote dropped", false), false
	}
	return nil, false
}

// appKey is the app's own keys (the key table's global and main rows).
func (a *App) appKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := a.keys
	picker := a.ed.PickerOpen()
	switch {
	case key.Matches(msg, k.Review) && a.focus != paneTerminal && !picker:
		return a.act(a.rv.open("")), true
	case key.Matches(msg, k.HidePane) && a.panes.pane.Active() != nil:
		return a.act(a.panes.toggle()), true
	case key.Matches(msg, k.HistorySearch) && a.focus == paneComposer && !picker:
		return a.hist.openSearch(), true
	case key.Matches(msg, k.Terminal) && !picker:
		return a.act(a.panes.show()), true
	case key.Matches(msg, k.Modes) && !picker:
		return a.conv.openModes(chat.ScopeAll, ""), true
	case (key.Matches(msg, k.Interrupt) || key.Matches(msg, k.Cut)) && a.focus == paneComposer && a.hasSelection():
		return a.edited(a.clip.copySelection(key.Matches(msg, k.Cut))), true
	case key.Matches(msg, k.Interrupt):
		return a.interrupt(), true
	case key.Matches(msg, k.Paste) && a.focus == paneComposer:
		return a.clip.readSystem(), true
	case key.Matches(msg, k.ExpandPaste) && a.focus == paneComposer && !picker:
		return a.clip.expandPaste(), true
	case key.Matches(msg, k.Stash):
		a.setFocus(paneComposer)
		return a.stash.push(), true
	case key.Matches(msg, k.StashList):
		return a.stash.open(), true
	case key.Matches(msg, k.Help) || msg.String() == "?" && (a.focus != paneComposer || a.ed.Draft().IsEmpty()):
		a.openHelp()
		return nil, true
	case key.Matches(msg, k.Cancel) && !picker && !a.tr.PopoverOpen() && !a.tr.SelectionActive():
		return a.escape(), true
	}
	return a.threadKey(msg, picker)
}

// threadKey is the app's keys of focus, the queue and threads.
func (a *App) threadKey(msg tea.KeyPressMsg, picker bool) (tea.Cmd, bool) {
	k := a.keys
	switch {
	case key.Matches(msg, k.FocusNext) && !picker:
		a.cycleFocus(1)
	case key.Matches(msg, k.FocusPrev) && !picker:
		a.cycleFocus(-1)
	case key.Matches(msg, k.Editor.Submit) && a.conv.sendsPausedQueue(a.focus == paneComposer && !a.shell.on):
		return a.conv.sendNextQueued(), true // queue.go
	case key.Matches(msg, k.Retry):
		return a.conv.retry(), true
	case key.Matches(msg, k.Unqueue) && a.focus == paneComposer && !picker:
		return a.conv.unqueue(), true
	case key.Matches(msg, k.Attach):
		a.openAttach()
	case key.Matches(msg, k.NewThread) && !picker:
		return a.nav.newThread(), true
	case key.Matches(msg, k.Threads):
		return a.nav.openList(), true
	default:
		return nil, false
	}
	return nil, true
}

// escape is esc with no overlay open: it closes the innermost open thing
// (DESIGN.md section 9) — a selection, then a pane's mode (focus goes back
// to the composer); only when nothing is open does it cancel the turn.
func (a *App) escape() tea.Cmd {
	if a.focus == paneTranscript && a.tr.ClearSearch() {
		return nil
	}
	if a.focus == paneComposer && a.hasSelection() {
		d := a.ed.Draft()
		d.SetCaret(d.Caret(), false)
		return nil
	}
	if a.focus != paneComposer {
		a.setFocus(paneComposer)
		return nil
	}
	if c := a.conv.cancelTurn(); c != nil {
		return c
	}
	if fx, ok := a.conv.leaveRewind(); ok {
		return a.apply(fx)
	}
	return a.conv.rewindLast(a.opt.Clock.Now()) // esc esc (ui/rewind.go)
}

// paneKey gives a key to the focused transcript or shelf.
func (a *App) paneKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch a.focus {
	case paneTranscript:
		var cmd tea.Cmd
		a.tr, cmd = a.tr.Update(msg)
		return cmd, true
	case paneShelf:
		return a.shelfKey(msg), true
	}
	return nil, false
}

// toComposer hands a message to the editor and schedules the draft save.
func (a *App) toComposer(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	a.ed, cmd = a.ed.Update(msg)
	a.conv.syncCommandPicker(a.focus == paneComposer)
	return tea.Batch(cmd, a.afterComposer())
}

// toPane hands a message to the terminal pane.
func (a *App) toPane(msg tea.Msg) tea.Cmd {
	return a.panes.update(msg)
}

// toComponents hands what is no one else's to the components (picker
// loads, editor results, the mouse).
func (a *App) toComponents(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	var cmd tea.Cmd
	a.ed, cmd = a.ed.Update(msg)
	cmds = append(cmds, cmd, a.afterComposer())
	if _, ok := msg.(tea.MouseMsg); ok {
		if a.rv.shown() {
			if _, wheel := msg.(tea.MouseWheelMsg); wheel {
				return tea.Batch(append(cmds, a.rv.update(msg))...)
			}
		}
		if a.focus == paneTerminal {
			cmds = append(cmds, a.toPane(msg))
		} else {
			a.tr, cmd = a.tr.Update(msg)
			cmds = append(cmds, cmd)
		}
	}
	return tea.Batch(cmds...)
}
