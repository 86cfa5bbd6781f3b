package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/composer"
	"github.com/chipchat/chipchat/config"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/transcript"
	"github.com/chipchat/chipchat/ui/keymap"
	"github.com/chipchat/chipchat/workspace"
)

// Copy and paste (issue 6, DESIGN.md section 6). Every copy writes the
// canonical Markdown as text and, when chips are included, the fragment
// with their records and source through package clipboard; every paste
// looks the fragment up by the pasted text (a command: file I/O), imports
// it with clipboard.Import and inserts the result as one undo step. A long
// paste with no fragment becomes a pasted-text file chip; the expand key on
// such a chip turns it back into prose.

type copiedMsg struct {
	text  string
	what  string
	chips int
	res   clipboard.WriteResult
}

type pasteReadyMsg struct {
	imp    clipboard.ImportResult
	plain  string // no fragment: insert this as prose
	reason string // why a fragment was refused (plain paste)
	what   string // for the toast ("pasted", "stash entry restored")
	after  func() tea.Msg
}

type systemReadMsg struct {
	clip clipboard.Clip
	err  error
}

type pastedFileMsg struct {
	rec contextref.Record
	err error
}

type expandedMsg struct {
	refID string
	text  string
	err   error
}

// clip is the copy-and-paste controller: the clipboard and the
// environments' registry (Options.Clipboard, Options.Registry, else the
// default ones), the pastes kept as chips, and copies of the draft's and
// the transcript's text. A method whose name says the draft changes is
// followed by the App's afterComposer (App.edited).
type clip struct {
	ws     *workspace.Workspace
	ed     *composer.Editor
	keys   *keymap.Keys
	toast  *toastLine
	thread *workspace.Thread // the open thread (the App's)
	cb     *clipboard.Clipboard
	reg    *clipboard.Registry
	limits config.Limits
	config string         // the config file's path, for the refusal's hint
	home   string         // ~ of a dropped image path
	seq    int            // numbers pasted-text-N.txt and pasted-image-N.png
	shelf  composer.Shelf // the image shelf's selection
}

// edited is cmd after a change of the draft: the save is scheduled and
// the layout follows.
func (a *App) edited(cmd tea.Cmd) tea.Cmd { return tea.Batch(a.afterComposer(), cmd) }

// copyText writes text and its records to the clipboard, in a command:
// attachment ids become asset ids (so another environment can fetch the
// bytes), this environment is registered, and every carrier is written.
func (c *clip) copyText(text string, recs []contextref.Record, src contextref.FragmentSource, what string) tea.Cmd {
	clip, reg, dataDir, forCopy := c.cb, c.reg, c.ws.DataDir(), c.ws.ForCopy(recs)
	src.EnvironmentID = c.ws.EnvironmentID()
	return func() tea.Msg {
		var frag *contextref.Fragment
		if len(recs) > 0 {
			_ = reg.Register(src.EnvironmentID, dataDir)
			frag = &contextref.Fragment{Source: src, Records: forCopy()}
		}
		return copiedMsg{text: text, what: what, chips: len(recs), res: clip.Write(text, frag)}
	}
}

func (c *clip) copied(m copiedMsg) tea.Cmd {
	var cmds []tea.Cmd
	if m.res.NeedOSC52 {
		cmds = append(cmds, setClipboardCmd(m.text))
	}
	note, failed := m.res.Note(m.what, m.text, m.chips)
	return tea.Batch(append(cmds, c.toast.show(note, failed))...)
}

// copySelection is ctrl+c (cut: ctrl+x) on a composer selection (the
// draft changes).
func (c *clip) copySelection(cut bool) tea.Cmd {
	d := c.ed.Draft()
	var text string
	var recs []contextref.Record
	var ok bool
	if cut {
		text, recs, ok = d.Cut()
	} else {
		text, recs, ok = d.SelectedMarkdown()
	}
	if !ok {
		return nil
	}
	what := "the selection"
	if cut {
		what = "and cut the selection"
		c.ed.SetDraft(d)
	}
	src := contextref.FragmentSource{ThreadID: c.thread.ID}
	return c.copyText(text, recs, src, what)
}

// copyMessage is the transcript's y.
func (c *clip) copyMessage(m transcript.CopyMsg, popover bool) tea.Cmd {
	src := contextref.FragmentSource{ThreadID: c.thread.ID, MessageID: m.MessageID}
	what := "the message"
	if popover {
		what = "the chip" // y in a chip's details copies the chip alone
	}
	return c.copyText(m.Markdown, m.Records, src, what)
}

// paste handles a bracketed paste (or the text ctrl+v read) in the
// composer. Text with no reference link cannot carry chips: it goes in
// now (or becomes a pasted-text chip when long); otherwise the fragment is
// looked up and imported in a command.
func (c *clip) paste(text string) tea.Cmd {
	// Line ends and controls as the draft will hold them, before anything
	// looks the text up: a terminal pastes newlines as CR.
	text = clipboard.NormalizeText(text)
	if cmd, ok := c.pasteImagePath(text); ok {
		return cmd
	}
	if !contextref.HasReferences(text) {
		return c.pastePlain(text, "")
	}
	clip, imp := c.cb, clipboard.Importer(c.ws.EnvironmentID(), c.reg, c.ws.Assets(), c.ed.Draft().Records())
	return func() tea.Msg {
		f, reason := clip.Lookup(text)
		if f == nil {
			return pasteReadyMsg{plain: text, reason: reason}
		}
		return pasteReadyMsg{imp: imp(text, f), what: "pasted"}
	}
}

// importFragment imports a fragment read from the system clipboard.
func (c *clip) importFragment(text string, f *contextref.Fragment) tea.Cmd {
	imp := clipboard.Importer(c.ws.EnvironmentID(), c.reg, c.ws.Assets(), c.ed.Draft().Records())
	return func() tea.Msg { return pasteReadyMsg{imp: imp(text, f), what: "pasted"} }
}

// pastePlain inserts text as prose, or as a pasted-text chip when long.
func (c *clip) pastePlain(text, reason string) tea.Cmd {
	var note tea.Cmd
	if reason != "" {
		note = c.toast.show("pasted as plain text: "+reason, true)
	}
	if c.limits.LongPaste(text) { // limits.paste_chip_chars and paste_chip_lines
		return tea.Batch(note, c.storePasted([]byte(text), "txt"))
	}
	c.ed.Draft().InsertText(text)
	c.ed.SetDraft(c.ed.Draft())
	return note
}

// storePasted keeps pasted bytes in the asset store and binds a fresh local
// id, in a command: a text/plain file chip pasted-text-N.txt, or an image
// chip pasted-image-N.png.
func (c *clip) storePasted(data []byte, ext string) tea.Cmd {
	c.seq++
	keep := c.ws.KeepPaste(data, c.seq, ext == "png")
	return func() tea.Msg {
		rec, err := keep()
		return pastedFileMsg{rec: rec, err: err}
	}
}

func (c *clip) pastedFile(m pastedFileMsg, spaceBeforeChip func()) tea.Cmd {
	if m.err != nil {
		return c.toast.show("paste not kept: "+m.err.Error(), true)
	}
	spaceBeforeChip()
	c.ed.InsertContext(m.rec, "")
	name := m.rec.RecordBase().Label
	if m.rec.RecordBase().Kind != contextref.KindFile {
		return c.toast.show("pasted image kept as "+name, false)
	}
	hint := " — " + c.keys.ExpandPaste.Help().Key + " beside it expands it"
	id, d := m.rec.RecordBase().ContextID, c.ed
	return c.toast.show("long paste kept as "+name+hint, false, func() bool { return d.Draft().References(id) == 0 }) // expanded or deleted
}

func (c *clip) pasteReady(m pasteReadyMsg) tea.Cmd {
	var after tea.Cmd
	if m.after != nil {
		after = m.after
	}
	if m.what == "" {
		return tea.Batch(c.pastePlain(m.plain, m.reason), after)
	}
	d := c.ed.Draft()
	d.InsertImported(m.imp.Text, m.imp.Records) // and a stashed draft's shelf
	c.ed.SetDraft(d)
	return tea.Batch(c.toast.show(m.imp.Summary(m.what)), after)
}

// readSystem is ctrl+v: read the system clipboard in a command.
func (c *clip) readSystem() tea.Cmd {
	clip := c.cb
	return func() tea.Msg {
		c, err := clip.ReadSystem()
		return systemReadMsg{clip: c, err: err}
	}
}

func (c *clip) systemRead(m systemReadMsg) tea.Cmd {
	switch {
	case m.err != nil:
		return c.toast.show("clipboard: "+m.err.Error(), true)
	case m.clip.Fragment != nil:
		return c.importFragment(m.clip.Text, m.clip.Fragment)
	case len(m.clip.Image) > 0:
		return c.storePasted(m.clip.Image, "png")
	case m.clip.Text == "":
		return c.toast.show("the clipboard holds no text", false)
	case m.clip.Reason != "":
		return c.pastePlain(m.clip.Text, m.clip.Reason)
	}
	return c.paste(m.clip.Text)
}

// maxExpand bounds the text a pasted-text chip expands to.
const maxExpand = 4 << 20

// expandPaste turns the text file chip beside the caret back into prose
// (composer.Draft.TextChipNearCaret).
func (c *clip) expandPaste() tea.Cmd {
	ref, attachment, why := c.ed.Draft().TextChipNearCaret()
	if why != "" {
		return c.toast.show(why, false)
	}
	read := c.ws.Text(attachment, maxExpand)
	return func() tea.Msg {
		text, err := read()
		return expandedMsg{refID: ref, text: text, err: err}
	}
}

func (c *clip) expanded(m expandedMsg) tea.Cmd {
	if m.err != nil {
		return c.toast.show("not expanded: "+m.err.Error(), true)
	}
	d := c.ed.Draft()
	if !d.ReplaceChipWithText(m.refID, m.text) {
		return c.toast.show("not expanded: the chip is gone", false)
	}
	c.ed.SetDraft(d)
	return nil
}
