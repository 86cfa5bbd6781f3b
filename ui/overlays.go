package ui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/assets"
	"github.com/chipchat/chipchat/chat"
	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/store"
)

// ---- help: the whole keymap ----

type helpView struct {
	lines []string
	top   int
}

func (a *App) openHelp() {
	lines := []string{"Keys (set any of them in " + ConfigPath() + ", [keys] table)", ""}
	edKeys := a.ed.Keys
	lines = append(lines, KeyHelp(&a.keys, &edKeys)...)
	lines = append(lines, "", "In the transcript:")
	tk := a.tr.Keys
	for _, group := range tk.FullHelp() {
		for _, b := range group {
			lines = append(lines, fmt.Sprintf("  %-34s %s", strings.Join(b.Keys(), ", "), b.Help().Desc))
		}
	}
	lines = append(lines, "", "In the image shelf: left/right choose, delete or x removes.", "esc, q or F1 closes this.")
	a.help = &helpView{lines: lines}
	a.ov = overlayHelp
}

func (h *helpView) key(a *App, msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc", "q", "f1", "?", "enter":
		a.ov = overlayNone
	case "down", "j", "ctrl+n":
		h.top++
	case "up", "k", "ctrl+p":
		h.top--
	case "pgdown", "space":
		h.top += 10
	case "pgup":
		h.top -= 10
	}
	h.top = max(0, min(h.top, len(h.lines)-1))
	return nil
}

// view wraps the help to width (nothing is cut) and shows height rows of
// it from the scroll position.
func (h *helpView) view(width, height int) []string {
	var rows []string
	for _, l := range h.lines {
		rows = append(rows, strings.Split(ansi.Wrap(l, width, ""), "\n")...)
	}
	h.top = max(0, min(h.top, len(rows)-1))
	end := min(len(rows), h.top+height)
	return rows[h.top:end]
}

// ---- attach: a path prompt with completion ----

type pathPrompt struct {
	input   []rune
	matches []string
	err     string
	busy    bool
}

type completionMsg struct {
	input   string
	matches []string
}

func (a *App) openAttach() {
	a.attach = &pathPrompt{}
	a.ov = overlayAttach
}

func (p *pathPrompt) paste(s string) {
	p.input = append(p.input, []rune(strings.TrimSpace(chips.SanitizeLine(s)))...)
}

func (p *pathPrompt) key(a *App, msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc", "ctrl+c":
		a.ov = overlayNone
		return nil
	case "enter":
		path := strings.TrimSpace(string(p.input))
		if path == "" || p.busy {
			return nil
		}
		p.busy = true
		return a.attachFile(expandPath(path, a.opt.Dir, a.opt.Home))
	case "tab":
		input, dir, home := string(p.input), a.opt.Dir, a.opt.Home
		return func() tea.Msg { return completionMsg{input, completePath(input, dir, home)} }
	case "backspace", "ctrl+h":
		if len(p.input) > 0 {
			p.input = p.input[:len(p.input)-1]
		}
	case "ctrl+u":
		p.input = nil
	case "ctrl+w":
		i := len(p.input)
		for i > 0 && p.input[i-1] == '/' {
			i--
		}
		for i > 0 && p.input[i-1] != '/' {
			i--
		}
		p.input = p.input[:i]
	default:
		if msg.Text != "" {
			for _, r := range msg.Text {
				if unicode.IsPrint(r) {
					p.input = append(p.input, r)
				}
			}
		}
	}
	p.matches, p.err = nil, ""
	return nil
}

// complete applies a completion result: one match completes it, several
// complete their common prefix and are listed.
func (p *pathPrompt) complete(m completionMsg) {
	if string(p.input) != m.input {
		return
	}
	p.matches = m.matches
	switch len(m.matches) {
	case 0:
		p.err = "no such file"
	case 1:
		p.input = []rune(m.matches[0])
		p.matches = nil
	default:
		p.input = []rune(commonPrefix(m.matches))
	}
}

func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// expandPath resolves ~ and relative paths against the project directory.
func expandPath(p, dir, home string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// completePath lists the entries that complete input (directories end in
// "/"), written the way the user wrote the input. It reads the file system:
// run it in a command.
func completePath(input, dir, home string) []string {
	base, prefix := filepath.Split(input)
	entries, err := os.ReadDir(expandPath(base+".", dir, home))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || strings.HasPrefix(name, ".") && !strings.HasPrefix(prefix, ".") {
			continue
		}
		if e.IsDir() {
			name += "/"
		}
		out = append(out, base+name)
	}
	sort.Strings(out)
	return out
}

func (p *pathPrompt) view(width int) []string {
	lines := []string{"Attach a file (tab completes, enter attaches, esc cancels):", "> " + chips.SanitizeLine(string(p.input)) + "█"}
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

// attachFile copies a file into the asset store and binds a fresh local id
// to it, in a command.
func (a *App) attachFile(path string) tea.Cmd {
	st, as := a.st, a.assets
	return func() tea.Msg {
		asset, err := as.PutFile(path)
		if err != nil {
			return attachedMsg{err: err}
		}
		local := randomID("att_")
		if err := st.BindAttachment(local, asset.ID); err != nil {
			return attachedMsg{err: err}
		}
		return attachedMsg{asset: asset, localID: local}
	}
}

// attached puts the chip of a stored file at the caret: an image chip (and a
// place on the shelf) for an image, a file chip otherwise.
func (a *App) attached(m attachedMsg) tea.Cmd {
	if a.ov == overlayAttach {
		a.attach.busy = false
	}
	if m.err != nil {
		if a.ov == overlayAttach {
			a.attach.err = chips.SanitizeLine(m.err.Error())
		}
		return a.notify("not attached: "+m.err.Error(), true)
	}
	a.ov = overlayNone
	a.setFocus(paneComposer)
	att := contextref.AttachmentRecord{AttachmentID: m.localID, Name: m.asset.Name, MimeType: m.asset.MimeType, SizeBytes: m.asset.Size}
	var rec contextref.Record
	if assets.IsImage(m.asset.MimeType) {
		att.Base = contextref.NewBase(contextref.KindImage, m.localID, m.asset.Name)
		rec = &contextref.ImageRecord{AttachmentRecord: att}
	} else {
		att.Base = contextref.NewBase(contextref.KindFile, m.localID, m.asset.Name)
		rec = &contextref.FileRecord{AttachmentRecord: att}
	}
	a.ed.InsertContext(rec, "")
	return tea.Batch(a.afterComposer(), a.notify("attached "+m.asset.Name+" ("+assets.HumanSize(m.asset.Size)+")", false))
}

// ---- opening a chip's file ----

// open shows a file or image chip's bytes with xdg-open, or says where they
// are; a mention opens its path.
func (a *App) open(r contextref.Record) tea.Cmd {
	var path, name string
	st, as, dir := a.st, a.assets, a.opt.Dir
	switch r := r.(type) {
	case *contextref.ImageRecord:
		path, name = r.AttachmentID, r.Name
	case *contextref.FileRecord:
		path, name = r.AttachmentID, r.Name
	case *contextref.MentionRecord:
		p := filepath.Join(dir, r.Path)
		return func() tea.Msg { return openPath(p, r.Path) }
	default:
		return a.notify("nothing to open for this chip", false)
	}
	id := path
	return func() tea.Msg {
		if stored, ok, err := st.AttachmentBinding(id); err == nil && ok {
			id = stored
		}
		p, err := as.Path(id)
		if err != nil {
			return openedMsg{fmt.Sprintf("%s: the bytes are not in this environment's asset store", name)}
		}
		return openPath(p, name)
	}
}

// openPath runs xdg-open (or open on macOS) in the background, else says
// where the file is.
func openPath(p, name string) tea.Msg {
	for _, tool := range []string{"xdg-open", "open"} {
		if bin, err := exec.LookPath(tool); err == nil {
			c := exec.Command(bin, p)
			if err := c.Start(); err == nil {
				go func() { _ = c.Wait() }()
				return openedMsg{"opened " + name}
			}
		}
	}
	return openedMsg{name + " is at " + p}
}

// ---- threads ----

// filterList is a fuzzy list the user narrows by typing: the thread
// switcher and the stash list.
type filterList struct {
	picker *composer.Picker
	query  []rune
}

// key moves the selection or edits the filter; it reports whether the key
// was one of those.
func (f *filterList) key(msg tea.KeyPressMsg) bool {
	switch msg.String() {
	case "down", "ctrl+n":
		f.picker.Move(1)
	case "up", "ctrl+p":
		f.picker.Move(-1)
	case "backspace", "ctrl+h":
		if len(f.query) > 0 {
			f.query = f.query[:len(f.query)-1]
			f.picker.SetQuery(string(f.query))
		}
	default:
		if msg.Text == "" {
			return false
		}
		f.query = append(f.query, []rune(msg.Text)...)
		f.picker.SetQuery(string(f.query))
	}
	return true
}

type threadSwitcher struct {
	filterList
	threads  []store.Thread
	renaming []rune
	rename   string // id of the thread being renamed
}

func (a *App) newThread() tea.Cmd {
	save := a.saveDraft()
	st, project := a.st, a.opt.Project.ID
	return tea.Sequence(save, func() tea.Msg {
		t, err := st.CreateThread(project)
		return threadOpenedMsg{thread: t, err: err}
	}, a.notify("new thread", false))
}

func (a *App) openThreads() tea.Cmd {
	a.switcher = &threadSwitcher{filterList: filterList{picker: composer.NewPicker("threads")}}
	a.switcher.picker.SetLoading(true)
	a.ov = overlayThreads
	return a.listThreads()
}

func (a *App) listThreads() tea.Cmd {
	st, project := a.st, a.opt.Project.ID
	return func() tea.Msg {
		ts, err := st.Threads(project)
		return threadsListedMsg{ts, err}
	}
}

func (s *threadSwitcher) setThreads(ts []store.Thread, err error) {
	s.threads = ts
	if err != nil {
		s.picker.SetError(err)
		return
	}
	items := make([]composer.PickerItem, len(ts))
	for i, t := range ts {
		title := t.Title
		if title == "" {
			title = "(empty thread)"
		}
		items[i] = composer.PickerItem{Title: title, Detail: t.Updated.Format("2006-01-02 15:04"), Value: t.ID}
	}
	s.picker.SetItems(items)
	s.picker.SetQuery(string(s.query))
}

func (s *threadSwitcher) key(a *App, msg tea.KeyPressMsg) tea.Cmd {
	if s.rename != "" {
		switch msg.String() {
		case "esc":
			s.rename = ""
		case "enter":
			id, title, st := s.rename, strings.TrimSpace(string(s.renaming)), a.st
			s.rename = ""
			return func() tea.Msg {
				return threadChangedMsg{err: st.RenameThread(id, title), reload: true, what: "renamed"}
			}
		case "backspace", "ctrl+h":
			if len(s.renaming) > 0 {
				s.renaming = s.renaming[:len(s.renaming)-1]
			}
		default:
			if msg.Text != "" {
				s.renaming = append(s.renaming, []rune(chips.SanitizeLine(msg.Text))...)
			}
		}
		return nil
	}
	item, ok := s.picker.Selected()
	switch msg.String() {
	case "esc", "ctrl+l":
		a.ov = overlayNone
	case "enter":
		if ok {
			a.ov = overlayNone
			return a.switchThread(item.Value)
		}
	case "ctrl+r":
		if ok {
			s.rename, s.renaming = item.Value, []rune(chips.SanitizeLine(item.Title))
		}
	case "ctrl+d", "delete":
		if ok {
			if a.chat.Phase(item.Value) != chat.Idle {
				return a.notify("a turn is running in that thread: cancel it first (esc in the thread)", true)
			}
			id, title := item.Value, item.Title
			a.askConfirm(fmt.Sprintf("Delete the thread %q and all its messages? (y/n)", chips.Truncate(title, 40)), func() tea.Cmd {
				st := a.st
				return func() tea.Msg { return threadChangedMsg{err: st.DeleteThread(id), reload: true, what: "deleted:" + id} }
			}, overlayThreads)
		}
	default:
		s.filterList.key(msg)
	}
	return nil
}

func (s *threadSwitcher) view(width, height int) []string {
	lines := strings.Split(s.picker.View(width, max(3, height-2)), "\n")
	if s.rename != "" {
		lines = append(lines, chips.Truncate(chips.SanitizeLine("New title: "+string(s.renaming))+"█", width))
	} else {
		lines = append(lines, chips.Truncate("type to filter · enter open · ctrl+r rename · ctrl+d delete · esc close", width))
	}
	return lines
}

// switchThread saves the draft of this thread and opens another.
func (a *App) switchThread(id string) tea.Cmd {
	if id == a.thread.ID {
		return nil
	}
	st := a.st
	return tea.Sequence(a.saveDraft(), func() tea.Msg { return loadThread(st, id) })
}

// loadThread reads a thread, its messages (contexts left raw for the
// transcript to decode lazily) and its draft (I/O: commands only).
func loadThread(st *store.Store, id string) threadOpenedMsg {
	t, err := st.Thread(id)
	if err != nil {
		return threadOpenedMsg{err: err}
	}
	msgs, err := chat.LoadThread(st, id)
	if err != nil {
		return threadOpenedMsg{err: err}
	}
	d, ok, err := st.LoadDraft(id)
	if err != nil {
		return threadOpenedMsg{err: err}
	}
	m := threadOpenedMsg{thread: t, msgs: msgs}
	if ok {
		m.draft = &d
	}
	return m
}

func (a *App) threadChanged(m threadChangedMsg) tea.Cmd {
	if m.err != nil {
		return a.notify("threads: "+m.err.Error(), true)
	}
	var cmds []tea.Cmd
	if deleted, ok := strings.CutPrefix(m.what, "deleted:"); ok {
		cmds = append(cmds, a.notify("thread deleted", false))
		if deleted == a.thread.ID {
			st, project := a.st, a.opt.Project.ID
			cmds = append(cmds, func() tea.Msg {
				ts, err := st.Threads(project)
				if err == nil && len(ts) > 0 {
					return loadThread(st, ts[0].ID)
				}
				t, err := st.CreateThread(project)
				return threadOpenedMsg{thread: t, err: err}
			})
		}
	} else if m.what != "" {
		cmds = append(cmds, a.notify("thread "+m.what, false))
	}
	if m.reload && a.switcher != nil {
		cmds = append(cmds, a.listThreads())
	}
	cmds = append(cmds, a.refreshThread())
	return tea.Batch(cmds...)
}

type threadTitleMsg struct{ t store.Thread }

// ---- confirmation ----

type confirmBox struct {
	text  string
	yes   func() tea.Cmd
	after overlay
}

func (a *App) askConfirm(text string, yes func() tea.Cmd, after overlay) {
	a.confirm = &confirmBox{text: text, yes: yes, after: after}
	a.ov = overlayConfirm
}

func (c *confirmBox) key(a *App, msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "y", "Y", "enter":
		a.ov = c.after
		return c.yes()
	case "n", "N", "esc", "ctrl+c":
		a.ov = c.after
	}
	return nil
}

// ---- the image shelf ----

func (a *App) shelfKey(msg tea.KeyPressMsg) tea.Cmd {
	shelf := a.ed.Draft().Shelf()
	if len(shelf) == 0 {
		a.setFocus(paneComposer)
		return nil
	}
	a.shelfSel = max(0, min(a.shelfSel, len(shelf)-1))
	switch msg.String() {
	case "left", "h":
		a.shelfSel = max(0, a.shelfSel-1)
	case "right", "l":
		a.shelfSel = min(len(shelf)-1, a.shelfSel+1)
	case "delete", "backspace", "x":
		id := shelf[a.shelfSel]
		d := a.ed.Draft()
		name := id
		if r, ok := d.Record(id); ok {
			name = r.(*contextref.ImageRecord).Name
		}
		if n := d.References(id); n > 0 {
			a.askConfirm(fmt.Sprintf("Remove %s and the %d chip(s) that show it? (y/n)", chips.SanitizeLine(name), n), func() tea.Cmd {
				_ = a.ed.Draft().RemoveShelfImage(id, true)
				a.ed.SetDraft(a.ed.Draft())
				if len(a.ed.Draft().Shelf()) == 0 {
					a.setFocus(paneComposer)
				}
				return a.afterComposer()
			}, overlayNone)
			return nil
		}
		_ = d.RemoveShelfImage(id, false)
		a.ed.SetDraft(d)
		if len(d.Shelf()) == 0 {
			a.setFocus(paneComposer)
		}
		return a.afterComposer()
	case "o", "enter":
		if r, ok := a.ed.Draft().Record(shelf[a.shelfSel]); ok {
			return a.open(r)
		}
	default:
		if key.Matches(msg, a.keys.Cancel) {
			a.setFocus(paneComposer)
		}
	}
	return nil
}

// fork starts a new thread holding this thread's messages up to and
// including upTo, and opens it (the agent's harness history is rebuilt
// from those messages, so no stale runtime context travels as user input).
func (a *App) fork(upTo string) tea.Cmd {
	a.chat.Fork(a.thread.ID, upTo)
	return nil
}
