package composer

import (
	"context"
	"github.com/chipchat/chipchat/tty"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
)

// SubmitMsg is sent when the user presses the submit key on a non-empty
// draft: the canonical Markdown and the records its chips point at. The
// editor keeps the draft; the app clears it (Reset) once the message is
// stored.
type SubmitMsg struct {
	Markdown string
	Records  []contextref.Record
	Steer    bool // sent with the Steer key: into the running turn
}

// NoticeMsg is something the app should tell the user (a toast).
type NoticeMsg struct {
	Text string
	Err  bool
}

// editorFileMsg: the draft was written to a temp file for the external
// editor.
type editorFileMsg struct {
	path string
	err  error
}

// editorDoneMsg: the external editor exited; text is the file's content.
type editorDoneMsg struct {
	text string
	err  error
}

type pickerKind int

const (
	pickNone pickerKind = iota
	pickFile
	pickSkill
	pickThread
)

// Options configure an Editor.
type Options struct {
	Registry    *chips.Registry // chip presentation; chips.Default(chips.DefaultTheme()) when nil
	Styles      *Styles         // the caret, selection and pickers; DefaultStyles() when nil
	KeyMap      *KeyMap         // DefaultKeyMap() when nil
	MaxHeight   int             // rows of text before it scrolls (default 10)
	ProjectRoot string          // where @ looks for files and $ for skills
	Home        string          // where ~/.agents/skills is
	Placeholder string
	// Threads lists this project's other threads for the # picker (newest
	// first). It is run in a tea.Cmd each time the picker opens, never in
	// Update; nil turns the # picker off.
	Threads func() ([]ThreadItem, error)
	// Files lists the project's files for the @ picker (a remote
	// project's, from its cache); nil lists ProjectRoot here (ListFiles).
	// When set it runs in a tea.Cmd each time the picker opens, so a list
	// that answers from a cache and refreshes it in the background is
	// fresh by the next opening.
	Files func(ctx context.Context, limit int) ([]string, bool, error)
	// Skills lists the skills for the $ picker (a remote project's, read
	// there); nil lists ProjectRoot's and Home's here (ListSkills). It runs
	// in a tea.Cmd when the picker first opens.
	Skills func() ([]Skill, error)
}

// Editor is the composer's Bubble Tea component over a Draft: soft-wrapped
// prose with chips drawn inline, a caret and selection, scrolling, pickers
// for @ mentions and $ skills, and the external editor. Update and View do
// no I/O and cost time proportional to what is visible, not to the draft.
type Editor struct {
	draft     *Draft
	reg       *chips.Registry
	Keys      KeyMap
	width     int
	maxHeight int
	focused   bool
	top       Pos // first visible row: Line and Col = row index within the line
	root      string
	home      string
	holder    string
	lay       *layoutCache
	styles    Styles

	picker     *Picker
	pickKind   pickerKind
	pickAt     Pos // where the trigger character is
	files      []string
	filesState loadState
	filesAgain bool                                                         // the picker opened while a listing ran: list again when it ends
	fileList   func(ctx context.Context, limit int) ([]string, bool, error) // Options.Files
	skillList  func() ([]Skill, error)                                      // Options.Skills
	skills     []Skill
	skillState loadState

	plain bool // the trigger characters are plain text (SetPlain)

	threadList  func() ([]ThreadItem, error)
	threads     []ThreadItem
	threadsNow  time.Time
	threadState loadState
}

type loadState int

const (
	notLoaded loadState = iota
	loading
	loaded
)

// New makes an editor over an empty draft.
func New(o Options) *Editor {
	e := &Editor{draft: NewDraft(), reg: o.Registry, maxHeight: o.MaxHeight, root: o.ProjectRoot, home: o.Home,
		holder: o.Placeholder, width: 80, focused: true, threadList: o.Threads, fileList: o.Files, skillList: o.Skills}
	if e.reg == nil {
		e.reg = chips.Default(chips.DefaultTheme())
	}
	if e.styles = DefaultStyles(); o.Styles != nil {
		e.styles = *o.Styles
	}
	if o.KeyMap != nil {
		e.Keys = *o.KeyMap
	} else {
		e.Keys = DefaultKeyMap()
	}
	if e.maxHeight <= 0 {
		e.maxHeight = 10
	}
	if e.holder == "" {
		e.holder = "Write a message — @ mentions a file, $ a skill, ctrl+g opens $EDITOR"
	}
	e.lay = newLayoutCache(e)
	return e
}

// Draft returns the draft being edited.
func (e *Editor) Draft() *Draft { return e.draft }

// SetDraft replaces the draft (for example one restored from the store).
func (e *Editor) SetDraft(d *Draft) {
	e.draft = d
	e.top = Pos{}
	e.closePicker()
	e.lay.reset()
	e.scrollToCaret()
}

// Reset clears the draft after a send.
func (e *Editor) Reset() { e.SetDraft(NewDraft()) }

// SetWidth sets the width in columns.
func (e *Editor) SetWidth(w int) {
	if w != e.width {
		e.width = max(w, 8)
		e.lay.reset()
		e.scrollToCaret()
	}
}

// SetMaxHeight sets how many rows of text show before the editor scrolls.
func (e *Editor) SetMaxHeight(h int) {
	e.maxHeight = max(h, 1)
	e.scrollToCaret()
}

// Focus and Blur switch whether the editor takes input and draws its caret.
func (e *Editor) Focus()        { e.focused = true }
func (e *Editor) Blur()         { e.focused = false; e.closePicker() }
func (e *Editor) Focused() bool { return e.focused }

// PickerOpen reports whether a picker is showing (esc belongs to it).
func (e *Editor) PickerOpen() bool { return e.pickKind != pickNone }

// PickerMatches reports whether a picker is showing with an entry to pick
// (enter picks it; with none, enter sends the text as typed).
func (e *Editor) PickerMatches() bool {
	if e.pickKind == pickNone {
		return false
	}
	_, ok := e.picker.Selected()
	return ok
}

// InsertCitation puts an assistant quote chip (the transcript's q) into
// the draft as InsertContext puts context: at the caret when the editor
// takes input, else appended after a separating space.
func (e *Editor) InsertCitation(c *contextref.Citation) {
	if e.focused {
		e.draft.InsertCitation(c)
	} else {
		e.draft.AppendCitation(c)
	}
	e.scrollToCaret()
}

// InsertContext puts context produced elsewhere (terminal pane, review
// import, paste) into the draft: at the caret when the editor takes input,
// else appended after a separating space (DESIGN.md section 4).
func (e *Editor) InsertContext(rec contextref.Record, label string) {
	if e.focused {
		e.draft.InsertChip(rec, label)
	} else {
		e.draft.AppendChip(rec, label)
	}
	e.scrollToCaret()
}

// wrapWidth is the width prose wraps at: one column stays free for the
// caret at a row's end.
func (e *Editor) wrapWidth() int { return max(e.width-1, 1) }

// Update handles keys, pastes and the editor's own messages.
func (e *Editor) Update(msg tea.Msg) (*Editor, tea.Cmd) {
	switch msg := msg.(type) {
	case FilesLoadedMsg:
		if msg.Root == e.root || e.root == "" {
			if msg.Err == nil || len(e.files) == 0 {
				e.files = msg.Paths // a failed refresh keeps the list shown
			}
			e.filesState = loaded
			if e.pickKind == pickFile {
				e.fillPicker()
			}
		}
		if e.filesAgain {
			// That listing began before the picker opened: files made
			// since are in the next one (its list shown meanwhile).
			e.filesAgain, e.filesState = false, loading
			return e, LoadFilesWith(e.fileList, e.root, 0)
		}
		return e, nil
	case SkillsLoadedMsg:
		e.skills, e.skillState = msg.Skills, loaded
		if e.pickKind == pickSkill {
			e.fillPicker()
		}
		return e, nil
	case ThreadsLoadedMsg:
		if msg.Err == nil {
			e.threads, e.threadsNow = msg.Threads, msg.Now
		}
		e.threadState = loaded
		if e.pickKind == pickThread {
			e.fillPicker()
			if msg.Err != nil {
				e.picker.SetError(msg.Err)
			}
		}
		return e, nil
	case editorFileMsg:
		if msg.err != nil {
			return e, notice("could not write the draft for the editor: "+msg.err.Error(), true)
		}
		return e, runExternalEditor(msg.path)
	case editorDoneMsg:
		if msg.err != nil {
			return e, notice("external editor: "+msg.err.Error(), true)
		}
		e.replaceWithMarkdown(msg.text)
		return e, nil
	}
	if !e.focused {
		return e, nil
	}
	switch msg := msg.(type) {
	case tea.PasteMsg:
		e.draft.InsertText(msg.Content)
		e.afterEdit()
		return e, nil
	case tea.KeyPressMsg:
		return e, e.key(msg)
	}
	return e, nil
}

func notice(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return NoticeMsg{Text: text, Err: isErr} }
}

func (e *Editor) key(msg tea.KeyPressMsg) tea.Cmd {
	k, d := &e.Keys, e.draft
	if e.pickKind != pickNone {
		switch {
		case key.Matches(msg, k.PickerClose):
			e.closePicker()
			return nil
		case key.Matches(msg, k.PickerNext):
			e.picker.Move(1)
			return nil
		case key.Matches(msg, k.PickerPrev):
			e.picker.Move(-1)
			return nil
		case key.Matches(msg, k.PickerChoose):
			if _, ok := e.picker.Selected(); !ok && (e.pickKind == pickThread || !e.picker.loading || e.picker.Total() > 0) {
				// Nothing to attach ("#123", "@nosuchfile", "$5": the
				// picker shows no matches): the key does what it does
				// without a picker, so enter sends the text as typed.
				// While a file or skill list loads for the first time, it
				// waits (a refresh of a list already shown does not).
				e.closePicker()
				break
			}
			e.choose()
			return nil
		}
	}
	w := e.lay.atomWidth
	switch {
	case key.Matches(msg, k.Submit), key.Matches(msg, k.Steer):
		if d.IsBlank() {
			return nil
		}
		md, recs, steer := d.Markdown(), d.Records(), key.Matches(msg, k.Steer)
		return func() tea.Msg { return SubmitMsg{Markdown: md, Records: recs, Steer: steer} }
	case key.Matches(msg, k.Newline):
		d.TypeRune('\n')
	case key.Matches(msg, k.Left):
		d.MoveLeft(false)
	case key.Matches(msg, k.Right):
		d.MoveRight(false)
	case key.Matches(msg, k.WordLeft):
		d.MoveWordLeft(false)
	case key.Matches(msg, k.WordRight):
		d.MoveWordRight(false)
	case key.Matches(msg, k.Up):
		d.MoveVisual(-1, e.wrapWidth(), w, false)
	case key.Matches(msg, k.Down):
		d.MoveVisual(1, e.wrapWidth(), w, false)
	case key.Matches(msg, k.LineStart):
		d.MoveLineStart(false)
	case key.Matches(msg, k.LineEnd):
		d.MoveLineEnd(false)
	case key.Matches(msg, k.DocStart):
		d.MoveDocStart(false)
	case key.Matches(msg, k.DocEnd):
		d.MoveDocEnd(false)
	case key.Matches(msg, k.SelectLeft):
		d.MoveLeft(true)
	case key.Matches(msg, k.SelectRight):
		d.MoveRight(true)
	case key.Matches(msg, k.SelectWordLeft):
		d.MoveWordLeft(true)
	case key.Matches(msg, k.SelectWordRight):
		d.MoveWordRight(true)
	case key.Matches(msg, k.SelectUp):
		d.MoveVisual(-1, e.wrapWidth(), w, true)
	case key.Matches(msg, k.SelectDown):
		d.MoveVisual(1, e.wrapWidth(), w, true)
	case key.Matches(msg, k.SelectLineStart):
		d.MoveLineStart(true)
	case key.Matches(msg, k.SelectLineEnd):
		d.MoveLineEnd(true)
	case key.Matches(msg, k.SelectDocStart):
		d.MoveDocStart(true)
	case key.Matches(msg, k.SelectDocEnd):
		d.MoveDocEnd(true)
	case key.Matches(msg, k.SelectAll):
		d.SelectAll()
	case key.Matches(msg, k.DeleteBack):
		if _, _, sel := d.Selection(); !sel {
			if atom, ok := d.atomBefore(d.caret); ok && atom < 0 {
				// A chip is selected first, deleted on the second
				// press (SelectedChip tells the hint bar).
				c := d.caret
				d.SetCaret(d.left(c), false)
				d.SetCaret(c, true)
				break
			}
		}
		d.DeleteBackward()
	case key.Matches(msg, k.DeleteForward):
		d.DeleteForward()
	case key.Matches(msg, k.DeleteWordBack):
		d.DeleteWordBackward()
	case key.Matches(msg, k.DeleteWordFwd):
		d.DeleteWordForward()
	case key.Matches(msg, k.DeleteLineStart):
		// As readline's: to the start of the logical line, however
		// it wraps. Chips it takes are said, with the way back.
		a, b, sel := d.Selection()
		if !sel {
			a, b = Pos{d.caret.Line, 0}, d.caret
			if a == b {
				a = d.left(b)
			}
		}
		n := d.chipsBetween(a, b)
		d.DeleteToLineStart()
		e.afterEdit()
		if n > 0 {
			return notice(chipsRemovedNotice(n, k.Undo), false)
		}
		return nil
	case key.Matches(msg, k.DeleteLineEnd):
		d.DeleteToLineEnd()
	case key.Matches(msg, k.Undo):
		d.Undo()
	case key.Matches(msg, k.Redo):
		d.Redo()
	case key.Matches(msg, k.ExternalEditor):
		e.closePicker()
		return writeDraftFile(d.Markdown())
	default:
		if msg.Text == "" || msg.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
			return nil
		}
		for _, r := range msg.Text {
			d.TypeRune(r)
		}
		cmd := e.maybeOpenPicker(msg.Text)
		e.afterEdit()
		return cmd
	}
	e.afterEdit()
	return nil
}

// SelectedChip is the chip selected alone, when one is: backspace next to
// a chip selects it and the next backspace deletes it, so the hint bar
// says so while this reports ok.
func (e *Editor) SelectedChip() (Chip, bool) {
	d := e.draft
	a, b, ok := d.Selection()
	if !ok || a.Line != b.Line || b.Col != a.Col+1 {
		return Chip{}, false
	}
	return d.ChipAt(d.lines.At(a.Line).atoms[a.Col])
}

// chipsBetween counts the chip atoms from a to b (a before b).
func (d *Draft) chipsBetween(a, b Pos) int {
	n := 0
	for l := a.Line; l <= b.Line && l < d.lines.Len(); l++ {
		atoms := d.lines.At(l).atoms
		from, to := 0, len(atoms)
		if l == a.Line {
			from = a.Col
		}
		if l == b.Line {
			to = min(b.Col, len(atoms))
		}
		for _, atom := range atoms[from:to] {
			if atom < 0 {
				n++
			}
		}
	}
	return n
}

// chipsRemovedNotice is what ctrl+u says when it took chips: how many and
// the key that brings them back.
func chipsRemovedNotice(n int, undo key.Binding) string {
	what, them := strconv.Itoa(n)+" chips", "them"
	if n == 1 {
		what, them = "1 chip", "it"
	}
	back := "undo"
	if keys := undo.Keys(); len(keys) > 0 {
		back = keys[0]
	}
	return "deleted " + what + " with the line — " + back + " brings " + them + " back"
}

// afterEdit keeps the caret in view and the picker's query in step.
func (e *Editor) afterEdit() {
	e.syncPicker()
	e.scrollToCaret()
}

// ---- pickers ----

// SetPlain makes @, $ and # plain characters (true) or picker triggers
// again (false): the app's ! shell mode, where "echo $HOME" is a command
// line, not a skill. Setting it closes an open picker.
func (e *Editor) SetPlain(plain bool) {
	e.plain = plain
	if plain {
		e.closePicker()
	}
}

// Plain reports whether the trigger characters are plain (SetPlain).
func (e *Editor) Plain() bool { return e.plain }

// maybeOpenPicker opens the file picker after '@' and the skill picker after
// '$' typed at a word start.
func (e *Editor) maybeOpenPicker(typed string) tea.Cmd {
	if e.plain || e.pickKind != pickNone || (typed != "@" && typed != "$" && typed != "#") || (typed == "#" && e.threadList == nil) {
		return nil
	}
	d := e.draft
	at := d.left(d.caret)
	if before, ok := d.atomBefore(at); ok && before >= 0 && !unicode.IsSpace(before) && before != '\n' {
		return nil
	}
	e.pickAt = at
	switch typed {
	case "@":
		e.pickKind = pickFile
		e.picker = NewPicker("@ file")
	case "#":
		e.pickKind = pickThread
		e.picker = NewPicker("# thread")
	default:
		e.pickKind = pickSkill
		e.picker = NewPicker("$ skill")
	}
	e.picker.SetStyles(e.styles.Picker)
	var cmd tea.Cmd
	switch {
	case e.pickKind == pickFile && e.filesState != loading:
		// Files come and go too (the user's, the agent's): the list is
		// read again each time the picker opens, the last one shown
		// meanwhile.
		e.filesState = loading
		cmd = LoadFilesWith(e.fileList, e.root, 0)
	case e.pickKind == pickFile:
		// A listing still runs, begun before this open: one more follows
		// it (FilesLoadedMsg), so a file made in between is offered.
		e.filesAgain = true

	case e.pickKind == pickSkill && e.skillState == notLoaded:
		e.skillState = loading
		cmd = LoadSkills(e.root, e.home)
		if list := e.skillList; list != nil {
			cmd = func() tea.Msg { s, err := list(); return SkillsLoadedMsg{Skills: s, Err: err} }
		}
	case e.pickKind == pickThread:
		// Threads come and go: the list is asked for each time.
		e.threadState = loading
		cmd = LoadThreads(e.threadList)
	}
	e.fillPicker()
	return cmd
}

func (e *Editor) fillPicker() {
	switch e.pickKind {
	case pickFile:
		items := make([]PickerItem, len(e.files))
		for i, p := range e.files {
			items[i] = PickerItem{Title: p, Value: p}
		}
		e.picker.SetItems(items)
		e.picker.SetLoading(e.filesState != loaded)
	case pickSkill:
		items := make([]PickerItem, len(e.skills))
		for i, s := range e.skills {
			items[i] = PickerItem{Title: s.Name, Detail: s.Description, Value: s.Path}
		}
		e.picker.SetItems(items)
		e.picker.SetLoading(e.skillState != loaded)
	case pickThread:
		e.picker.SetItems(threadItems(e.threads, e.threadsNow))
		e.picker.SetLoading(e.threadState != loaded)
	}
	e.syncPicker()
}

// syncPicker sets the query from the text after the trigger, or closes the
// picker when the caret left the trigger's word.
func (e *Editor) syncPicker() {
	if e.pickKind == pickNone {
		return
	}
	d := e.draft
	c := d.caret
	if e.pickAt.Line >= d.lines.Len() { // the draft changed under the picker
		e.closePicker()
		return
	}
	line := d.lines.At(e.pickAt.Line).atoms
	trigger := '@'
	switch e.pickKind {
	case pickSkill:
		trigger = '$'
	case pickThread:
		trigger = '#'
	}
	if c.Line != e.pickAt.Line || c.Col <= e.pickAt.Col || e.pickAt.Col >= len(line) || line[e.pickAt.Col] != trigger {
		e.closePicker()
		return
	}
	q := line[e.pickAt.Col+1 : c.Col]
	for _, r := range q {
		if r < 0 || unicode.IsSpace(r) {
			e.closePicker()
			return
		}
	}
	e.picker.SetQuery(string(q))
}

func (e *Editor) closePicker() {
	e.pickKind = pickNone
	e.picker = nil
}

// choose replaces the trigger and query with the chosen item's chip.
func (e *Editor) choose() {
	item, ok := e.picker.Selected()
	kind := e.pickKind
	if !ok {
		return
	}
	var thread contextref.Record
	if kind == pickThread {
		i, err := strconv.Atoi(item.Value)
		if err != nil || i < 0 || i >= len(e.threads) {
			return
		}
		thread = ThreadRecord(e.threads[i])
	}
	d := e.draft
	d.SetCaret(e.pickAt, false)
	d.SetCaret(Pos{e.pickAt.Line, e.draft.caret.Col + 1 + len([]rune(e.picker.Query()))}, true)
	e.closePicker()
	switch kind {
	case pickFile:
		d.InsertChip(MentionRecord(item.Value), "")
	case pickSkill:
		d.InsertChip(SkillRecord(item.Title), "")
	case pickThread:
		d.InsertChip(thread, "")
	}
	d.TypeRune(' ')
	d.BreakUndoGroup()
	e.scrollToCaret()
}

// MentionRecord makes the record of a file mention: its context id comes
// from the path, so mentioning one path twice points at one record.
func MentionRecord(path string) contextref.Record {
	return &contextref.MentionRecord{
		Base: contextref.NewBase(contextref.KindMention, contextref.ToContextID("mention-"+path), path),
		Path: path,
	}
}

// SkillRecord makes the record of a skill reference.
func SkillRecord(name string) contextref.Record {
	return &contextref.SkillRecord{
		Base: contextref.NewBase(contextref.KindSkill, contextref.ToContextID("skill-"+name), "$"+name),
		Name: name,
	}
}

// ---- external editor ----

func writeDraftFile(md string) tea.Cmd {
	return func() tea.Msg {
		f, err := os.CreateTemp("", "chipchat-draft-*.md")
		if err != nil {
			return editorFileMsg{err: err}
		}
		_, err = f.WriteString(md)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
			return editorFileMsg{err: err}
		}
		return editorFileMsg{path: f.Name()}
	}
}

// EditorCommand is the command line of the external editor: $VISUAL, else
// $EDITOR, else vi.
func EditorCommand() []string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(os.Getenv(v)); len(f) > 0 {
			return f
		}
	}
	return []string{"vi"}
}

func runExternalEditor(path string) tea.Cmd {
	args := EditorCommand()
	bin, err := exec.LookPath(args[0])
	if err != nil {
		os.Remove(path)
		return notice("no editor to run: set $VISUAL or $EDITOR ("+filepath.Base(args[0])+" not found)", true)
	}
	c := exec.Command(bin, append(args[1:], path)...)
	// The terminal itself, not the program's input: that is a filter
	// (internal/paste), and a reader that is not a file would be copied to
	// the editor through a pipe that outlives it and eats the next key.
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	return tea.Exec(tty.Command(c), func(err error) tea.Msg {
		defer os.Remove(path)
		if err != nil {
			return editorDoneMsg{err: err}
		}
		b, rerr := os.ReadFile(path)
		if rerr != nil {
			return editorDoneMsg{err: rerr}
		}
		return editorDoneMsg{text: string(b)}
	})
}

// replaceWithMarkdown rebuilds the draft's content from edited Markdown as
// one undo step: links whose record exists become chips again, links to
// unknown ids unresolved chips; the lifecycle drops records no longer
// referenced (shelf images stay).
func (e *Editor) replaceWithMarkdown(text string) {
	text = strings.TrimSuffix(text, "\n") // editors add a final newline
	d := e.draft
	d.SelectAll()
	d.InsertMarkdown(text, d.Records())
	e.scrollToCaret()
}
