package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/clipboard"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/transcript"
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

// clip is the app's clipboard (Options.Clipboard, else the default one).
func (a *App) clipboard() *clipboard.Clipboard {
	if a.opt.Clipboard == nil {
		a.opt.Clipboard = clipboard.Default()
	}
	return a.opt.Clipboard
}

func (a *App) registry() *clipboard.Registry {
	if a.opt.Registry == nil {
		a.opt.Registry = clipboard.DefaultRegistry()
	}
	return a.opt.Registry
}

// copyText writes text and its records to the clipboard, in a command:
// attachment ids become asset ids (so another environment can fetch the
// bytes), this environment is registered, and every carrier is written.
func (a *App) copyText(text string, recs []contextref.Record, src contextref.FragmentSource, what string) tea.Cmd {
	clip, reg, dataDir, forCopy := a.clipboard(), a.registry(), a.ws.DataDir(), a.ws.ForCopy(recs)
	src.EnvironmentID = a.ws.EnvironmentID()
	return func() tea.Msg {
		var frag *contextref.Fragment
		if len(recs) > 0 {
			_ = reg.Register(src.EnvironmentID, dataDir)
			frag = &contextref.Fragment{Source: src, Records: forCopy()}
		}
		return copiedMsg{text: text, what: what, chips: len(recs), res: clip.Write(text, frag)}
	}
}

func (a *App) copied(m copiedMsg) tea.Cmd {
	var cmds []tea.Cmd
	if m.res.NeedOSC52 {
		cmds = append(cmds, tea.SetClipboard(m.text))
	}
	n := utf8.RuneCountInString(m.text)
	note := fmt.Sprintf("copied %s (%d characters", m.what, n)
	if m.chips > 0 {
		note += fmt.Sprintf(", %d chip(s)", m.chips)
	}
	note += ")"
	if err := m.res.Err(); err != nil {
		note += " · " + err.Error()
	}
	return tea.Batch(append(cmds, a.notify(note, m.res.Err() != nil && !m.res.Cached && m.res.System == ""))...)
}

// copySelection is ctrl+c (cut: ctrl+x) on a composer selection.
func (a *App) copySelection(cut bool) tea.Cmd {
	d := a.ed.Draft()
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
		a.ed.SetDraft(d)
	}
	src := contextref.FragmentSource{ThreadID: a.thread.ID}
	return tea.Batch(a.copyText(text, recs, src, what), a.afterComposer())
}

// copyMessage is the transcript's y.
func (a *App) copyMessage(m transcript.CopyMsg) tea.Cmd {
	src := contextref.FragmentSource{ThreadID: a.thread.ID, MessageID: m.MessageID}
	what := "the message"
	if a.tr.PopoverOpen() {
		what = "the chip" // y in a chip's details copies the chip alone
	}
	return a.copyText(m.Markdown, m.Records, src, what)
}

// paste handles a bracketed paste (or the text ctrl+v read) in the
// composer. Text with no reference link cannot carry chips: it goes in
// now (or becomes a pasted-text chip when long); otherwise the fragment is
// looked up and imported in a command.
func (a *App) paste(text string) tea.Cmd {
	// Line ends and controls as the draft will hold them, before anything
	// looks the text up: a terminal pastes newlines as CR.
	text = clipboard.NormalizeText(text)
	if !contextref.HasReferences(text) {
		return a.pastePlain(text, "")
	}
	clip, env, local, reg := a.clipboard(), a.ws.EnvironmentID(), a.ws.Assets(), a.registry()
	held := a.ed.Draft().Records()
	return func() tea.Msg {
		f, reason := clip.Lookup(text)
		if f == nil {
			return pasteReadyMsg{plain: text, reason: reason}
		}
		imp := clipboard.Import(text, f, held, env, reg.Lookup, local)
		return pasteReadyMsg{imp: imp, what: "pasted"}
	}
}

// importFragment imports a fragment read from the system clipboard.
func (a *App) importFragment(text string, f *contextref.Fragment) tea.Cmd {
	env, local, reg := a.ws.EnvironmentID(), a.ws.Assets(), a.registry()
	held := a.ed.Draft().Records()
	return func() tea.Msg {
		imp := clipboard.Import(text, f, held, env, reg.Lookup, local)
		return pasteReadyMsg{imp: imp, what: "pasted"}
	}
}

// isLongPaste applies limits.paste_chip_chars and paste_chip_lines (a
// limit ≤ 0 is off).
func (a *App) isLongPaste(text string) bool {
	l := a.opt.Config.Limits
	if l.PasteChipChars > 0 && utf8.RuneCountInString(text) > l.PasteChipChars {
		return true
	}
	return l.PasteChipLines > 0 && strings.Count(text, "\n")+1 > l.PasteChipLines
}

// pastePlain inserts text as prose, or as a pasted-text chip when long.
func (a *App) pastePlain(text, reason string) tea.Cmd {
	var note tea.Cmd
	if reason != "" {
		note = a.notify("pasted as plain text: "+reason, true)
	}
	if a.isLongPaste(text) {
		return tea.Batch(note, a.storePasted([]byte(text), "txt"))
	}
	a.ed.Draft().InsertText(text)
	a.ed.SetDraft(a.ed.Draft())
	return tea.Batch(note, a.afterComposer())
}

// storePasted keeps pasted bytes in the asset store and binds a fresh local
// id, in a command: a text/plain file chip pasted-text-N.txt, or an image
// chip pasted-image-N.png.
func (a *App) storePasted(data []byte, ext string) tea.Cmd {
	a.pasteSeq++
	keep := a.ws.KeepPaste(data, a.pasteSeq, ext == "png")
	return func() tea.Msg {
		rec, err := keep()
		return pastedFileMsg{rec: rec, err: err}
	}
}

func (a *App) pastedFile(m pastedFileMsg) tea.Cmd {
	if m.err != nil {
		return a.notify("paste not kept: "+m.err.Error(), true)
	}
	a.spaceBeforeChip()
	a.ed.InsertContext(m.rec, "")
	name := m.rec.RecordBase().Label
	if m.rec.RecordBase().Kind != contextref.KindFile {
		return tea.Batch(a.afterComposer(), a.notify("pasted image kept as "+name, false))
	}
	hint := " — " + a.keys.ExpandPaste.Help().Key + " beside it expands it"
	return tea.Batch(a.afterComposer(), a.notify("long paste kept as "+name+hint, false))
}

func (a *App) pasteReady(m pasteReadyMsg) tea.Cmd {
	var after tea.Cmd
	if m.after != nil {
		after = m.after
	}
	if m.what == "" {
		return tea.Batch(a.pastePlain(m.plain, m.reason), after)
	}
	d := a.ed.Draft()
	d.InsertMarkdown(m.imp.Text, m.imp.Records)
	// Images no link shows (a stashed draft's shelf) go back on the shelf.
	for _, r := range m.imp.Records {
		if r.RecordBase().Kind == contextref.KindImage && d.References(r.RecordBase().ContextID) == 0 {
			d.AddImage(r)
		}
	}
	a.ed.SetDraft(d)
	note := fmt.Sprintf("%s with %d chip record(s)", m.what, len(m.imp.Records))
	if len(m.imp.Notes) > 0 {
		note += " · " + strings.Join(m.imp.Notes, "; ")
	}
	return tea.Batch(a.afterComposer(), a.notify(note, len(m.imp.Notes) > 0), after)
}

// readSystem is ctrl+v: read the system clipboard in a command.
func (a *App) readSystem() tea.Cmd {
	clip := a.clipboard()
	return func() tea.Msg {
		c, err := clip.ReadSystem()
		return systemReadMsg{clip: c, err: err}
	}
}

func (a *App) systemRead(m systemReadMsg) tea.Cmd {
	switch {
	case m.err != nil:
		return a.notify("clipboard: "+m.err.Error(), true)
	case m.clip.Fragment != nil:
		return a.importFragment(m.clip.Text, m.clip.Fragment)
	case len(m.clip.Image) > 0:
		return a.storePasted(m.clip.Image, "png")
	case m.clip.Text == "":
		return a.notify("the clipboard holds no text", false)
	case m.clip.Reason != "":
		return a.pastePlain(m.clip.Text, m.clip.Reason)
	}
	return a.paste(m.clip.Text)
}

// maxExpand bounds the text a pasted-text chip expands to.
const maxExpand = 4 << 20

// expandPaste turns the text file chip beside the caret back into prose.
func (a *App) expandPaste() tea.Cmd {
	c, _, ok := a.ed.Draft().ChipNearCaret()
	if !ok {
		return a.notify("no chip beside the caret", false)
	}
	r, ok := a.ed.Draft().Record(c.ContextID)
	f, isFile := r.(*contextref.FileRecord)
	if !ok || !isFile || !strings.HasPrefix(f.MimeType, "text/") {
		return a.notify("only a text file chip expands into prose", false)
	}
	read, ref := a.ws.Text(f.AttachmentID, maxExpand), c.RefID
	return func() tea.Msg {
		text, err := read()
		return expandedMsg{refID: ref, text: text, err: err}
	}
}

func (a *App) expanded(m expandedMsg) tea.Cmd {
	if m.err != nil {
		return a.notify("not expanded: "+m.err.Error(), true)
	}
	d := a.ed.Draft()
	if !d.ReplaceChipWithText(m.refID, m.text) {
		return a.notify("not expanded: the chip is gone", false)
	}
	a.ed.SetDraft(d)
	return a.afterComposer()
}
