package ui

import (
	"cmp"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/dialog"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/ui/overlay"
	"github.com/chipchat/chipchat/workspace"
)

// ---- help: the whole keymap ----

func (a *App) openHelp() {
	a.keys.Editor, a.keys.Transcript = a.ed.Keys, a.tr.Keys
	a.ovs.Push(dialog.NewHelp(a.keys, dialog.HelpText(a.keys, config.Path())))
}

// ---- attach: a path prompt with completion ----

func (a *App) openAttach() {
	a.ovs.Push(dialog.NewAttach(a.keys, cmp.Or(a.opt.AttachDir, a.opt.Dir), a.opt.Home))
}

// attach copies a file into the asset store and binds a fresh local id
// to it, in a command.
func (c *clip) attach(path string) tea.Cmd {
	attach := c.ws.Attach(path)
	return func() tea.Msg {
		rec, err := attach()
		return attachedMsg{rec: rec, err: err}
	}
}

// attached puts the chip of a stored file at the caret: an image chip (and a
// place on the shelf) for an image, a file chip otherwise.
func (a *App) attached(m attachedMsg) tea.Cmd {
	a.ovs.Deliver(overlay.Is[*dialog.Attach], dialog.AttachDone{Err: m.err})
	if m.err != nil {
		if _, open := overlay.Of[*dialog.Attach](a.ovs); open {
			return nil // the prompt says it, once (issue 25 item 13)
		}
		return a.notify("not attached: "+m.err.Error(), true)
	}
	a.setFocus(paneComposer)
	att := contextref.AttachmentOf(m.rec) // Attach makes an image or a file record
	a.ed.SpaceBeforeChip()
	a.ed.InsertContext(m.rec, "")
	return tea.Batch(a.afterComposer(), a.notify("attached "+att.Name+" ("+workspace.HumanSize(att.SizeBytes)+")", false))
}

// ---- opening a chip's file ----

// open shows a file or image chip's bytes with xdg-open, or says where they
// are; a mention opens its path.
func (n *nav) open(r contextref.Record) tea.Cmd {
	if t, ok := r.(*contextref.ThreadRecord); ok {
		return n.openRef(t)
	}
	open, ok := n.ws.Open(r, n.dir)
	if !ok {
		return n.toast.show("nothing to open for this chip", false)
	}
	return func() tea.Msg { return openedMsg{open()} }
}

// ---- threads ----

// nav is the threads controller: the thread list and its choices, new
// threads, thread switches (the draft saved first), thread chips and
// opening a chip's file.
type nav struct {
	ws     *workspace.Workspace
	chat   *chat.Service
	drafts *drafts
	ovs    *overlay.Stack
	keys   *keymap.Keys
	toast  *toastLine
	thread *workspace.Thread // the open thread (the App's)
	dir    string            // the project directory
	// threads is the # picker's thread list; it marks the open thread.
	threads *workspace.ThreadSource
	at      string // the message to show once the thread being opened is read (ui/search.go)
}

func (n *nav) newThread() tea.Cmd {
	save := n.drafts.save()
	ws := n.ws
	return tea.Sequence(save, func() tea.Msg {
		// stored with its first message or draft (workspace.NewThread)
		return threadOpenedMsg{open: workspace.Opened{Thread: ws.NewThread()}}
	}, n.toast.show("new thread", false))
}

// What the thread list asks of the app.
type (
	deleteThread struct{ id string } // dialog.ThreadDelete confirmed
)

func (n *nav) openList() tea.Cmd {
	n.ovs.Push(dialog.NewThreads(n.keys, n.thread.ID))
	return tea.Batch(n.list(), func() tea.Msg { return n.chat.AgentSessionList() }) // shown as they come
}

func (n *nav) list() tea.Cmd {
	list := n.ws.Threads()
	return func() tea.Msg {
		ts, err := list()
		return dialog.ThreadsListed{Threads: ts, Err: err}
	}
}

// askDelete asks whether to delete a thread the list chose.
func (n *nav) askDelete(d dialog.ThreadDelete) tea.Cmd {
	if n.chat.Phase(d.ID) != chat.Idle {
		return n.toast.show("a turn is running in that thread: cancel it first (esc in the thread)", true)
	}
	ask := n.ws.DeleteQuestion(d.ID, d.Title) // the whole title, age and count, read in a command
	return func() tea.Msg { return deleteAskedMsg{id: d.ID, question: ask()} }
}

type deleteAskedMsg struct{ id, question string } // the question, read

// renameThread stores a thread's new title.
func (n *nav) rename(r dialog.ThreadRename) tea.Cmd {
	rename := n.ws.Rename(r.ID, r.Title)
	return func() tea.Msg { return threadChangedMsg{err: rename(), reload: true, what: "renamed"} }
}

// deleteThread deletes a thread the user confirmed.
func (n *nav) delete(id string) tea.Cmd {
	del := n.ws.Delete(id)
	n.chat.CloseSession(id) // the agent's session too (session/close), not waited for
	return func() tea.Msg { return threadChangedMsg{err: del(), reload: true, what: "deleted:" + id} }
}

// switchThread saves the draft of this thread and opens another.
func (n *nav) switchTo(id string) tea.Cmd {
	if id == n.thread.ID {
		return nil
	}
	return tea.Sequence(n.drafts.save(), n.load(id))
}

// openThread reads a thread, its messages (contexts left raw for the
// transcript to decode lazily) and its draft, in a command.
func (n *nav) load(id string) tea.Cmd { return opening(n.ws.Load(id)) }

// opening runs a workspace open in a command.
func opening(open func() (workspace.Opened, error)) tea.Cmd {
	return func() tea.Msg {
		o, err := open()
		return threadOpenedMsg{open: o, err: err}
	}
}

func (n *nav) changed(m threadChangedMsg) tea.Cmd {
	if m.err != nil {
		return n.toast.show("threads: "+m.err.Error(), true)
	}
	var cmds []tea.Cmd
	if deleted, ok := strings.CutPrefix(m.what, "deleted:"); ok {
		cmds = append(cmds, n.toast.show("thread deleted", false))
		if deleted == n.thread.ID {
			if list, ok := overlay.Of[*dialog.Threads](n.ovs); ok {
				list.SetCurrent("") // until the next thread opens: no phantom row for the deleted one
			}
			cmds = append(cmds, opening(n.ws.Latest()))
		}
	} else if m.what != "" {
		cmds = append(cmds, n.toast.show("thread "+m.what, false))
	}
	if _, open := overlay.Of[*dialog.Threads](n.ovs); m.reload && open {
		cmds = append(cmds, n.list())
	}
	return tea.Batch(cmds...)
}

type threadTitleMsg struct{ t workspace.Thread }

// ---- the image shelf ----

func (a *App) shelfKey(msg tea.KeyPressMsg) tea.Cmd {
	k := a.keys
	r := a.clip.shelf.Key(msg, composer.ShelfKeys{Left: k.ShelfLeft, Right: k.ShelfRight, Remove: k.ShelfRemove, Open: k.ShelfOpen, Leave: k.Cancel}, a.ed.Draft())
	switch r.Act {
	case composer.ShelfLeave:
		a.setFocus(paneComposer)
	case composer.ShelfRemove:
		if r.Chips == 0 {
			return a.removeImage(removeImage{r.ID, false})
		}
		a.ovs.Push(dialog.NewConfirm(a.keys, fmt.Sprintf("Remove %s and the %d chip(s) that show it? (y/n)", r.Name, r.Chips), removeImage{r.ID, true}))
	case composer.ShelfOpen:
		if rec, ok := a.ed.Draft().Record(r.ID); ok {
			return a.nav.open(rec)
		}
	}
	return nil
}

// removeImage takes an image off the shelf (withChips: and the chips that
// show it).
type removeImage struct {
	id        string
	withChips bool
}

func (a *App) removeImage(r removeImage) tea.Cmd {
	d := a.ed.Draft()
	_ = d.RemoveShelfImage(r.id, r.withChips)
	a.ed.SetDraft(d)
	if len(d.Shelf()) == 0 {
		a.setFocus(paneComposer)
	}
	return a.afterComposer()
}
