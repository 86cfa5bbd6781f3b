package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/workspace"
)

// ---- help: the whole keymap ----

type helpView struct {
	k     *keymap.Keys
	lines []string
	top   int
}

func (a *App) openHelp() {
	a.keys.Editor, a.keys.Transcript = a.ed.Keys, a.tr.Keys
	lines := []string{"Keys (set any of them in " + config.Path() + ", [keys] table, by the names below; a key acts only in its scope)", ""}
	lines = append(lines, a.keys.HelpByScope()...)
	lines = append(lines, habitsHelp...)
	lines = append(append(lines, ""), commandHelp()...) // the slash-command table (commands.go)
	a.ovs.Push(&helpView{k: a.keys, lines: lines})
}

// habitsHelp is what F1 says of history, ! and /, and where skills come
// from.
var habitsHelp = []string{
	"History: up on an empty draft (or on its first line) shows the previous prompt of this project with its chips,",
	"  down the next one and at last the draft you had typed; ctrl+r searches the history by any words.",
	"! on an empty draft: shell mode. enter runs the line in the project directory in a terminal pane; when it exits,",
	"  its command line and output become a terminal chip at the caret (esc or ctrl+c kills it and keeps what it printed).",
	"/ on an empty draft lists the agent's and chipchat's commands; @ a file of the project; $ a skill.",
	"Skills are read from <project>/.claude/skills, <project>/.codex/skills, <project>/.agents/skills,",
	"  ~/.claude/skills, ~/.codex/skills and ~/.agents/skills (each skill a directory with a SKILL.md).",
}

func (h *helpView) Scope() keymap.Scope { return keymap.ScopeHelp }

func (h *helpView) Hints() string {
	k := h.k
	return keymap.Join(keymap.Hint2(k.HelpUp, k.HelpDown, "scroll"), keymap.Hint(k.HelpPageDown, "page"), keymap.Hint(k.HelpClose, "close"))
}

func (h *helpView) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	msg, ok := m.(tea.KeyPressMsg)
	if !ok {
		return h, nil, nil
	}
	k := h.k
	switch {
	case key.Matches(msg, k.HelpClose) || key.Matches(msg, k.Help):
		return nil, nil, nil
	case key.Matches(msg, k.HelpDown):
		h.top++
	case key.Matches(msg, k.HelpUp):
		h.top--
	case key.Matches(msg, k.HelpPageDown):
		h.top += 10
	case key.Matches(msg, k.HelpPageUp):
		h.top -= 10
	}
	h.top = max(0, min(h.top, len(h.lines)-1))
	return h, nil, nil
}

// View wraps the help to width (nothing is cut) and shows height rows of
// it from the scroll position.
func (h *helpView) View(width, height int) []string {
	var rows []string
	for _, l := range h.lines {
		rows = append(rows, wrapHanging(l, width)...)
	}
	h.top = max(0, min(h.top, len(rows)-1))
	end := min(len(rows), h.top+height)
	return rows[h.top:end]
}

// wrapHanging wraps a help line to width, its continuation rows indented
// to where its last column starts (the help text after the key names), so
// a long help stays in its column.
func wrapHanging(l string, width int) []string {
	if ansi.StringWidth(l) <= width {
		return []string{l}
	}
	start := -1
	for i := 1; i+1 < len(l); i++ {
		if l[i] == ' ' && l[i-1] == ' ' && l[i+1] != ' ' {
			start = i + 1
		}
	}
	col := 0
	if start > 0 {
		col = ansi.StringWidth(l[:start])
	}
	if col == 0 || col > width-20 {
		return strings.Split(ansi.Wrap(l, width, ""), "\n")
	}
	parts := strings.Split(ansi.Wrap(l[start:], width-col, ""), "\n")
	rows := []string{l[:start] + parts[0]}
	for _, p := range parts[1:] {
		rows = append(rows, strings.Repeat(" ", col)+p)
	}
	return rows
}

// ---- attach: a path prompt with completion ----

type pathPrompt struct {
	k         *keymap.Keys
	dir, home string // a relative path is the project's; ~ is home
	input     composer.Field
	matches   []string
	err       string
	busy      bool
}

// attachChosen is the path the user chose to attach.
type attachChosen struct{ path string }

type completionMsg struct {
	input   string
	matches []string
}

func (a *App) openAttach() {
	a.ovs.Push(&pathPrompt{k: a.keys, dir: a.opt.Dir, home: a.opt.Home})
}

func (p *pathPrompt) Scope() keymap.Scope { return keymap.ScopeAttach }

func (p *pathPrompt) Hints() string {
	k := p.k
	return keymap.Join(keymap.Hint(k.AttachComplete, "complete"), keymap.Hint(k.AttachChoose, "attach"), keymap.Hint(k.FieldClear, "clear"), keymap.Hint(k.AttachCancel, "cancel"))
}

func (p *pathPrompt) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	switch msg := m.(type) {
	case tea.PasteMsg:
		p.input.Insert(strings.TrimSpace(chips.SanitizeLine(msg.Content)))
	case completionMsg:
		p.complete(msg)
	case attachedMsg:
		if msg.err == nil {
			return nil, nil, nil // the chip is in the composer
		}
		p.busy, p.err = false, chips.SanitizeLine(msg.err.Error())
	case tea.KeyPressMsg:
		return p.key(msg)
	}
	return p, nil, nil
}

func (p *pathPrompt) key(msg tea.KeyPressMsg) (Overlay, tea.Cmd, any) {
	k := p.k
	switch {
	case key.Matches(msg, k.AttachCancel):
		return nil, nil, nil
	case key.Matches(msg, k.AttachChoose):
		path := strings.TrimSpace(p.input.String())
		if path == "" || p.busy {
			return p, nil, nil
		}
		p.busy = true
		return p, nil, attachChosen{workspace.ExpandPath(path, p.dir, p.home)}
	case key.Matches(msg, k.AttachComplete):
		input, dir, home := p.input.String(), p.dir, p.home
		return p, func() tea.Msg { return completionMsg{input, workspace.CompletePath(input, dir, home)} }, nil
	default:
		p.input.Key(k.FieldKeys(), msg)
	}
	p.matches, p.err = nil, ""
	return p, nil, nil
}

// complete applies a completion result: one match completes it, several
// complete their common prefix and are listed.
func (p *pathPrompt) complete(m completionMsg) {
	if p.input.String() != m.input {
		return
	}
	p.matches = m.matches
	switch len(m.matches) {
	case 0:
		p.err = "no such file"
	case 1:
		p.input.Set(m.matches[0])
		p.matches = nil
	default:
		p.input.Set(workspace.CommonPrefix(m.matches))
	}
}

func (p *pathPrompt) View(width, _ int) []string {
	lines := []string{"Attach a file:", p.input.View("> ", width)}
	if p.busy {
		lines = append(lines, "storing…")
	}
	if p.err != "" {
		lines = append(lines, p.err)
	}
	for i, m := range p.matches {
		if i == 8 {
			lines = append(lines, fmt.Sprintf("… and %d more", len(p.matches)-8))
			break
		}
		lines = append(lines, "  "+m)
	}
	for i := range lines {
		lines[i] = chips.Truncate(chips.SanitizeLine(lines[i]), width)
	}
	return lines
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
	a.ovs.Deliver(is[*pathPrompt], m)
	if m.err != nil {
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
	dir := n.dir
	if t, ok := r.(*contextref.ThreadRecord); ok {
		return n.openRef(t)
	}
	if m, ok := r.(*contextref.MentionRecord); ok {
		p := filepath.Join(dir, m.Path)
		return func() tea.Msg { return openedMsg{workspace.OpenPath(p, m.Path)} }
	}
	att := contextref.AttachmentOf(r)
	if att == nil {
		return n.toast.show("nothing to open for this chip", false)
	}
	where, name := n.ws.Path(att.AttachmentID), att.Name
	return func() tea.Msg {
		p, err := where()
		if err != nil {
			return openedMsg{fmt.Sprintf("%s: the bytes are not in this environment's asset store", name)}
		}
		return openedMsg{workspace.OpenPath(p, name)}
	}
}

// ---- threads ----

// nav is the threads controller: the thread list and its choices, new
// threads, thread switches (the draft saved first), thread chips and
// opening a chip's file.
type nav struct {
	ws     *workspace.Workspace
	chat   *chat.Service
	drafts *drafts
	ovs    *overlayStack
	keys   *keymap.Keys
	toast  *toastLine
	thread *workspace.Thread // the open thread (the App's)
	dir    string            // the project directory
	// threads is the # picker's thread list; it marks the open thread.
	threads *workspace.ThreadSource
}

type threadSwitcher struct {
	composer.FilterList
	k        *keymap.Keys
	threads  []workspace.Thread
	current  string // the open thread, marked in the list
	renaming composer.Field
	rename   string // id of the thread being renamed
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
	threadOpen   struct{ id string }
	threadRename struct{ id, title string }
	threadDelete struct{ id, title string } // asked; deleteThread once confirmed
	deleteThread struct{ id string }
)

func (n *nav) openList() tea.Cmd {
	s := &threadSwitcher{FilterList: composer.NewFilterList("threads"), k: n.keys, current: n.thread.ID}
	s.Picker.SetLoading(true)
	n.ovs.Push(s)
	return n.list()
}

func (n *nav) list() tea.Cmd {
	list := n.ws.Threads()
	return func() tea.Msg {
		ts, err := list()
		return threadsListedMsg{ts, err}
	}
}

func (s *threadSwitcher) setThreads(ts []workspace.Thread, err error) {
	s.threads = ts
	if err != nil {
		s.Picker.SetError(err)
		return
	}
	items := make([]composer.PickerItem, 0, len(ts)+1)
	listed := false
	for _, t := range ts {
		listed = listed || t.ID == s.current
		items = append(items, threadItem(t, t.ID == s.current))
	}
	if !listed && s.current != "" {
		// the open thread has no message or draft yet: not stored, still here
		items = append([]composer.PickerItem{threadItem(workspace.Thread{ID: s.current}, true)}, items...)
	}
	s.Picker.SetItems(items)
	s.Picker.SetQuery(s.Field.String())
}

// threadItem is a thread's row: "● " marks the open one; the detail holds
// the id and the time.
func threadItem(t workspace.Thread, current bool) composer.PickerItem {
	title := chips.SanitizeLine(t.Title)
	if title == "" {
		title = "(new thread)"
	}
	mark := "  "
	if current {
		mark = "● "
	}
	detail := t.ID
	if !t.Updated.IsZero() {
		detail += " · " + t.Updated.Format("2006-01-02 15:04")
	}
	if current {
		detail += " · open"
	}
	return composer.PickerItem{Title: mark + title, Detail: detail, Value: t.ID}
}

// title is thread id's title as stored ("" for none).
func (s *threadSwitcher) title(id string) string {
	for _, t := range s.threads {
		if t.ID == id {
			return chips.SanitizeLine(t.Title)
		}
	}
	return ""
}

func (s *threadSwitcher) Scope() keymap.Scope { return keymap.ScopeThreads }

func (s *threadSwitcher) Hints() string {
	k := s.k
	if s.rename != "" {
		return keymap.Join(keymap.Hint(k.RenameSave, "save"), keymap.Hint(k.RenameCancel, "cancel"), keymap.Hint(k.FieldClear, "clear"), keymap.Hint(k.FieldDeleteWord, "delete word"))
	}
	return keymap.Join(keymap.Hint(k.ThreadsOpen, "open"), keymap.Hint(k.ThreadsRename, "rename"), keymap.Hint(k.ThreadsDelete, "delete"), keymap.Hint(k.ThreadsClose, "close"))
}

func (s *threadSwitcher) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	switch msg := m.(type) {
	case threadsListedMsg:
		s.setThreads(msg.threads, msg.err)
	case tea.KeyPressMsg:
		if s.rename != "" {
			return s, nil, s.renameKey(msg)
		}
		return s.key(msg)
	}
	return s, nil, nil
}

func (s *threadSwitcher) renameKey(msg tea.KeyPressMsg) any {
	k := s.k
	switch {
	case key.Matches(msg, k.RenameCancel):
		s.rename = ""
	case key.Matches(msg, k.RenameSave):
		id, title := s.rename, strings.TrimSpace(s.renaming.String())
		s.rename = ""
		return threadRename{id, title}
	default:
		s.renaming.Key(k.FieldKeys(), msg)
	}
	return nil
}

func (s *threadSwitcher) key(msg tea.KeyPressMsg) (Overlay, tea.Cmd, any) {
	k := s.k
	item, ok := s.Picker.Selected()
	switch {
	case key.Matches(msg, k.ThreadsClose) || key.Matches(msg, k.Threads):
		return nil, nil, nil
	case key.Matches(msg, k.ThreadsOpen):
		if ok {
			return nil, nil, threadOpen{item.Value}
		}
	case key.Matches(msg, k.ThreadsRename):
		if ok {
			s.rename = item.Value
			s.renaming.Set(s.title(item.Value))
		}
	case key.Matches(msg, k.ThreadsDelete):
		if ok {
			return s, nil, threadDelete{item.Value, s.title(item.Value)}
		}
	default:
		s.FilterList.Key(k.ListKeys(), msg)
	}
	return s, nil, nil
}

// askDelete asks whether to delete a thread the list chose.
func (n *nav) askDelete(d threadDelete) tea.Cmd {
	if n.chat.Phase(d.id) != chat.Idle {
		return n.toast.show("a turn is running in that thread: cancel it first (esc in the thread)", true)
	}
	if d.title == "" {
		d.title = "(new thread)"
	}
	askConfirm(n.ovs, n.keys, fmt.Sprintf("Delete the thread %q and all its messages? (y/n)", chips.Truncate(d.title, 40)), deleteThread{d.id})
	return nil
}

// renameThread stores a thread's new title.
func (n *nav) rename(r threadRename) tea.Cmd {
	rename := n.ws.Rename(r.id, r.title)
	return func() tea.Msg { return threadChangedMsg{err: rename(), reload: true, what: "renamed"} }
}

// deleteThread deletes a thread the user confirmed.
func (n *nav) delete(id string) tea.Cmd {
	del := n.ws.Delete(id)
	return func() tea.Msg { return threadChangedMsg{err: del(), reload: true, what: "deleted:" + id} }
}

func (s *threadSwitcher) View(width, height int) []string {
	k := s.k
	lines := strings.Split(s.Picker.View(width, max(3, height-3)), "\n")
	if s.rename != "" {
		lines = append(lines, s.renaming.View("New title: ", width))
		return append(lines, chips.Truncate(keymap.Join(keymap.Hint(k.RenameSave, "save"), keymap.Hint(k.RenameCancel, "cancel"), keymap.Hint(k.FieldClear, "clear")), width))
	}
	if q := s.Field.String(); q != "" {
		lines = append(lines, s.Field.View("filter: ", width))
	}
	return append(lines, chips.Truncate(keymap.Join("type to filter", keymap.Hint(k.ThreadsOpen, "open"), keymap.Hint(k.ThreadsRename, "rename"),
		keymap.Hint(k.ThreadsDelete, "delete"), keymap.Hint(k.ThreadsClose, "close")), width))
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
			cmds = append(cmds, opening(n.ws.Latest()))
		}
	} else if m.what != "" {
		cmds = append(cmds, n.toast.show("thread "+m.what, false))
	}
	if _, open := overlayOf[*threadSwitcher](n.ovs); m.reload && open {
		cmds = append(cmds, n.list())
	}
	return tea.Batch(cmds...)
}

type threadTitleMsg struct{ t workspace.Thread }

// ---- confirmation ----

// confirmBox is a yes/no question; yes is the result the app acts on when
// the answer is yes.
type confirmBox struct {
	k    *keymap.Keys
	text string
	yes  any
}

// askConfirm asks text; yes is acted on (overlayResult) once confirmed.
func askConfirm(ovs *overlayStack, k *keymap.Keys, text string, yes any) {
	ovs.Push(&confirmBox{k: k, text: text, yes: yes})
}

func (c *confirmBox) Scope() keymap.Scope { return keymap.ScopeConfirm }

func (c *confirmBox) Hints() string {
	return keymap.Join(keymap.Hint(c.k.ConfirmYes, "yes"), keymap.Hint(c.k.ConfirmNo, "no"))
}

func (c *confirmBox) View(width, _ int) []string { return []string{chips.Truncate(c.text, width)} }

func (c *confirmBox) Update(m tea.Msg) (Overlay, tea.Cmd, any) {
	msg, ok := m.(tea.KeyPressMsg)
	switch {
	case !ok:
	case key.Matches(msg, c.k.ConfirmYes):
		return nil, nil, c.yes
	case key.Matches(msg, c.k.ConfirmNo):
		return nil, nil, nil
	}
	return c, nil, nil
}

// ---- the image shelf ----

func (a *App) shelfKey(msg tea.KeyPressMsg) tea.Cmd {
	shelf := a.ed.Draft().Shelf()
	if len(shelf) == 0 {
		a.setFocus(paneComposer)
		return nil
	}
	a.clip.shelfSel = max(0, min(a.clip.shelfSel, len(shelf)-1))
	k := a.keys
	switch {
	case key.Matches(msg, k.ShelfLeft):
		a.clip.shelfSel = max(0, a.clip.shelfSel-1)
	case key.Matches(msg, k.ShelfRight):
		a.clip.shelfSel = min(len(shelf)-1, a.clip.shelfSel+1)
	case key.Matches(msg, k.ShelfRemove):
		id := shelf[a.clip.shelfSel]
		d := a.ed.Draft()
		name := id
		if r, ok := d.Record(id); ok {
			name = r.(*contextref.ImageRecord).Name
		}
		if n := d.References(id); n > 0 {
			askConfirm(a.ovs, a.keys, fmt.Sprintf("Remove %s and the %d chip(s) that show it? (y/n)", chips.SanitizeLine(name), n), removeImage{id, true})
			return nil
		}
		return a.removeImage(removeImage{id, false})
	case key.Matches(msg, k.ShelfOpen):
		if r, ok := a.ed.Draft().Record(shelf[a.clip.shelfSel]); ok {
			return a.nav.open(r)
		}
	case key.Matches(msg, k.Cancel):
		a.setFocus(paneComposer)
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
