package review

import (
	"context"
	"errors"
	"image/color"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
)

// CommentMsg carries a confirmed comment's record to the parent, which
// puts its chip at the composer's caret. One per comment.
type CommentMsg struct {
	Record *contextref.ReviewCommentRecord
}

// ClosedMsg says the pane was closed (esc with nothing else open).
type ClosedMsg struct{}

// Options configure a pane.
type Options struct {
	// ProjectDir is the project directory: git runs there and records'
	// paths are relative to it.
	ProjectDir string
	// Comparison is what a git pane shows (the working tree against HEAD
	// when zero). Agent panes ignore it.
	Comparison Comparison
	// Git runs git (the zero value: "git" from PATH).
	Git Git
	// GH is the gh command ("gh" when empty); NoPullRequest skips it. It
	// runs where git does (through Git.Exec when set).
	GH            string
	NoPullRequest bool
	// PRTimeout bounds gh (PRTimeout, 3 s, when zero).
	PRTimeout time.Duration
	// NewID mints a record's context id (NewContextID when nil). It runs in
	// a command.
	NewID func() string
	// KeyMap is the keys (DefaultKeyMap when zero).
	KeyMap KeyMap
	// Theme is the look (DefaultTheme when nil).
	Theme *Theme
}

// AgentDiff is one tool-call diff of an agent: the file's path (absolute
// or relative to the project) and its text before (nil: a new file) and
// after the edit.
type AgentDiff struct {
	Path    string
	OldText *string
	NewText string
	// Line is the line of the file the texts start at when they are a
	// snippet of it (message.ToolContent.Line: ≤ 1 the first; negative:
	// unknown, then the snippet is looked for in the file as it is now).
	Line int
}

// pane messages; Owns reports them.
type (
	loadedMsg struct {
		pane   uint64
		doc    *doc
		cursor int
		err    error
	}
	prMsg struct {
		pane uint64
		pr   *contextref.PullRequest
	}
	commentFailedMsg struct {
		pane uint64
		err  error
	}
)

// Owns reports whether msg is one of the pane's own messages (results of
// its commands), which the parent must hand to Update.
func Owns(msg tea.Msg) bool {
	switch msg.(type) {
	case loadedMsg, prMsg, commentFailedMsg, lexedMsg:
		return true
	}
	return false
}

var paneSeq atomic.Uint64

// mark is a written comment's rows, for the gutter.
type mark struct{ from, to int }

// Model is the review pane.
type Model struct {
	opts  Options
	keys  KeyMap
	theme Theme
	pane  uint64
	load  func(context.Context) (*doc, error)

	doc     *doc
	err     error
	pr      *contextref.PullRequest
	w, h    int
	cursor  int
	top     int
	fileTop int

	selecting bool
	anchor    int

	editing         bool
	editFrom        int // selection rows being commented
	editTo          int
	editSelected    bool // the editor was opened on a selection
	editor          textarea.Model
	editErr, status string

	marks   []mark
	pending *loadedMsg // a diff read while the editor was open

	// caches: rows per width, words and tokens for good
	rowCache  map[int]string
	cacheW    int
	listCache map[int]string // file list rows: file<<1 | is the cursor's
	listW     int
	words     map[lineKey][]span
	hl        *highlighter
	sgrs      map[sty]string
	colors    map[chroma.Colour]color.Color // syntax colours, made once
	tokStys   map[tokStyKey]styled          // token looks, made once
	painter   *painter                      // reused by every row
	sep       string                        // the file list's separator
	listRows  []string                      // View's file list lines, reused
	header    drawn[headerKey]
	footer    drawn[footerKey]
}

// drawn is a line drawn once for the state k it shows.
type drawn[K comparable] struct {
	k  K
	s  string
	ok bool
}

type headerKey struct {
	w   int
	doc *doc
	pr  *contextref.PullRequest
}

type footerKey struct {
	w         int
	status    string
	selecting bool
	lines     int
}

// New makes a pane on git's diff of opts.Comparison. Init starts reading
// it (and asks gh for the pull request).
func New(opts Options) *Model {
	m := newModel(opts)
	g, dir, cmp := opts.Git, opts.ProjectDir, opts.Comparison
	m.load = func(ctx context.Context) (*doc, error) {
		d, err := g.Load(ctx, dir, cmp)
		if err != nil {
			return nil, err
		}
		return buildDoc(d), nil
	}
	return m
}

// NewAgent makes a pane on one agent edit; the same keys make comments
// pinned to the lines the agent changed. The diff is computed in Init's
// command; an absolute path is made relative to the project directory.
func NewAgent(opts Options, ad AgentDiff) *Model {
	opts.Comparison = Comparison{Kind: Agent}
	m := newModel(opts)
	g, dir := opts.Git, opts.ProjectDir
	m.load = func(ctx context.Context) (*doc, error) {
		rel := AgentPath(dir, ad.Path)
		if rel == "" {
			return nil, errors.New("review: the agent's diff names no file")
		}
		f := DiffText(rel, ad.OldText, ad.NewText, DefaultContext)
		line := ad.Line
		if line < 0 {
			line = locateSnippet(filepath.Join(dir, filepath.FromSlash(rel)), ad.OldText, ad.NewText)
		}
		shiftLines(f, max(line, 1)-1)
		return buildDoc(&Diff{Comparison: opts.Comparison, Files: []*File{f}, Root: dir, Head: g.Head(ctx, dir)}), nil
	}
	return m
}

// NewFromDiff makes a pane on a diff read elsewhere (Diff.Root is where
// git is asked for HEAD when a comment is written).
func NewFromDiff(opts Options, d *Diff) *Model {
	opts.Comparison = d.Comparison
	m := newModel(opts)
	m.load = func(context.Context) (*doc, error) { return buildDoc(d), nil }
	return m
}

func newModel(opts Options) *Model {
	m := &Model{opts: opts, keys: opts.KeyMap, pane: paneSeq.Add(1), w: 80, h: 24,
		rowCache: map[int]string{}, words: map[lineKey][]span{}, sgrs: map[sty]string{}}
	if m.keys.isZero() {
		m.keys = DefaultKeyMap()
	}
	if opts.Theme != nil {
		m.theme = *opts.Theme
	} else {
		m.theme = DefaultTheme()
	}
	m.hl = newHighlighter(m.theme.Syntax)
	ed := textarea.New()
	ed.ShowLineNumbers = false
	ed.Prompt = "│ "
	ed.Placeholder = "Comment…"
	ed.CharLimit = maxCommentText
	ed.SetHeight(3)
	st := textarea.DefaultDarkStyles()
	if m.theme.Light {
		// textarea's light styles keep its pale "│ " prompt and cursor
		// (colour 7): the theme's faint and text colours instead.
		st = textarea.DefaultLightStyles()
		st.Focused.Prompt = lipgloss.NewStyle().Foreground(m.theme.FaintFg)
		st.Blurred.Prompt = st.Focused.Prompt
		st.Cursor.Color = m.theme.FileFg
	}
	st.Cursor.Blink = false
	st.Focused.CursorLine = lipgloss.NewStyle()
	if m.theme.Accent == nil {
		st = textarea.Styles{Cursor: textarea.CursorStyle{Blink: false}}
	}
	ed.SetStyles(st)
	ed.KeyMap.InsertNewline = m.keys.Newline
	m.editor = ed
	return m
}

// AgentPath is an agent's path relative to the project directory (slash
// separated); a path outside it stays absolute.
func AgentPath(projectDir, p string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		return filepath.ToSlash(filepath.Clean(p))
	}
	rel := func(base, target string) (string, bool) {
		r, err := filepath.Rel(base, target)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "", false
		}
		return filepath.ToSlash(r), true
	}
	if projectDir != "" {
		if r, ok := rel(projectDir, p); ok {
			return r
		}
		// Through symbolic links (/tmp → /private/tmp and the like).
		if bd, err := filepath.EvalSymlinks(projectDir); err == nil {
			target := p
			if t, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
				target = filepath.Join(t, filepath.Base(p))
			}
			if r, ok := rel(bd, target); ok {
				return r
			}
		}
	}
	return filepath.ToSlash(p)
}

// Init reads the diff and, unless told not to, asks gh for the pull
// request, both in the background.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.loadCmd("", 0)}
	pane := m.pane
	if !m.opts.NoPullRequest {
		g, dir, gh, timeout := m.opts.Git, m.opts.ProjectDir, m.opts.GH, m.opts.PRTimeout
		cmds = append(cmds, func() tea.Msg {
			return prMsg{pane: pane, pr: g.PullRequest(context.Background(), dir, gh, timeout)}
		})
	}
	return tea.Batch(cmds...)
}

// loadCmd reads the diff in the background and finds the row for the
// cursor: the line numbered line of the file at path when it is still
// there (a reload), else the first line.
func (m *Model) loadCmd(path string, line int) tea.Cmd {
	pane, load := m.pane, m.load
	return func() tea.Msg {
		d, err := load(context.Background())
		msg := loadedMsg{pane: pane, doc: d, err: err}
		if d != nil {
			msg.cursor = max(d.nextSelectable(0, 1), 0)
			if path != "" {
				msg.cursor = d.placeRow(path, line, msg.cursor)
			}
		}
		return msg
	}
}

// SetSize sets the pane's size in cells.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = max(w, 1), max(h, 1)
	m.editor.SetWidth(max(m.paneWidth()-2, 4))
	m.ensureVisible()
}

// Size is the pane's size in cells, as SetSize set it: View draws exactly
// that many lines, none wider.
func (m *Model) Size() (w, h int) { return m.w, m.h }

// Loaded reports whether the diff is read.
func (m *Model) Loaded() bool { return m.doc != nil || m.err != nil }

// Editing reports whether the comment editor is open (the parent should
// then send every key to the pane).
func (m *Model) Editing() bool { return m.editing }

// PullRequest is the pull request gh reported, or nil.
func (m *Model) PullRequest() *contextref.PullRequest { return clonePR(m.pr) }

// Comparison is what the pane compares.
func (m *Model) Comparison() Comparison { return m.opts.Comparison }

// layout

func (m *Model) listWidth() int {
	if m.doc == nil || len(m.doc.diff.Files) < 2 || m.w < 60 {
		return 0
	}
	return min(max(m.w/4, 16), 36)
}

func (m *Model) paneWidth() int {
	if lw := m.listWidth(); lw > 0 {
		return m.w - lw - 1
	}
	return m.w
}

const editorRows = 4

func (m *Model) bodyHeight() int { return max(m.h-2, 1) }

func (m *Model) viewHeight() int {
	h := m.bodyHeight()
	if m.editing {
		h -= editorRows
	}
	return max(h, 1)
}

// apply shows a loaded diff, and starts lexing it.
func (m *Model) apply(msg loadedMsg) tea.Cmd {
	m.doc, m.err, m.pending, m.status = msg.doc, msg.err, nil, ""
	m.marks, m.rowCache, m.selecting = nil, map[int]string{}, false
	m.listCache = nil
	m.words = map[lineKey][]span{}
	m.hl.reset()
	if m.doc != nil {
		m.cursor, m.top = msg.cursor, 0
		m.ensureVisible()
		m.editor.SetWidth(max(m.paneWidth()-2, 4))
	}
	return m.lexNext()
}

// lexNext lexes the next file not lexed yet, the cursor's first, in a
// command; nil when every file is.
func (m *Model) lexNext() tea.Cmd {
	if m.doc == nil || len(m.doc.rows) == 0 || m.hl.busy {
		return nil
	}
	fi := m.hl.nextToLex(m.doc, m.doc.fileOf(m.cursor))
	if fi < 0 {
		return nil
	}
	m.hl.busy = true
	return m.hl.lexCmd(m.pane, m.doc, fi)
}

// Update handles keys and the pane's own messages.
func (m *Model) Update(msg tea.Msg) (*Model, tea.Cmd) {
	switch msg := msg.(type) {
	case loadedMsg:
		if msg.pane != m.pane {
			return m, nil
		}
		if m.editing {
			// The editor's rows belong to the diff on screen: the new one
			// comes when the editor closes.
			m.pending = &msg
			return m, nil
		}
		return m, m.apply(msg)
	case lexedMsg:
		if msg.pane != m.pane {
			return m, nil
		}
		if m.hl.lexed(msg, m.doc) {
			m.dropRows(msg.file)
			return m, m.lexNext()
		}
		return m, nil
	case prMsg:
		if msg.pane == m.pane {
			m.pr = msg.pr
		}
		return m, nil
	case commentFailedMsg:
		if msg.pane == m.pane {
			m.status = "Comment not added: " + msg.err.Error()
		}
		return m, nil
	case tea.KeyPressMsg:
		if m.editing {
			return m.updateEditor(msg)
		}
		return m.updateKeys(msg)
	case tea.PasteMsg:
		if m.editing {
			var cmd tea.Cmd
			m.editor, cmd = m.editor.Update(msg)
			return m, cmd
		}
	case tea.MouseWheelMsg:
		if m.doc != nil && !m.editing {
			switch msg.Button {
			case tea.MouseWheelUp:
				m.scroll(-3)
			case tea.MouseWheelDown:
				m.scroll(3)
			}
		}
	}
	return m, nil
}

func (m *Model) updateKeys(msg tea.KeyPressMsg) (*Model, tea.Cmd) {
	k := m.keys
	if key.Matches(msg, k.Close) {
		if m.selecting {
			m.selecting = false
			return m, nil
		}
		return m, func() tea.Msg { return ClosedMsg{} }
	}
	if key.Matches(msg, k.Reload) {
		m.status = "Reading the diff again…"
		return m, m.loadCmd(m.cursorPlace())
	}
	if m.doc == nil || len(m.doc.rows) == 0 {
		return m, nil
	}
	m.status = ""
	switch {
	case key.Matches(msg, k.Down):
		m.moveTo(m.step(1))
	case key.Matches(msg, k.Up):
		m.moveTo(m.step(-1))
	case key.Matches(msg, k.PageDown):
		m.moveTo(m.stepRows(m.viewHeight() - 1))
	case key.Matches(msg, k.PageUp):
		m.moveTo(m.stepRows(-(m.viewHeight() - 1)))
	case key.Matches(msg, k.Top):
		m.moveTo(m.doc.nextSelectable(0, 1))
	case key.Matches(msg, k.Bottom):
		m.moveTo(m.doc.nextSelectable(len(m.doc.rows)-1, -1))
	case key.Matches(msg, k.NextHunk):
		m.jumpHunk(1)
	case key.Matches(msg, k.PrevHunk):
		m.jumpHunk(-1)
	case key.Matches(msg, k.NextFile):
		m.jumpFile(1)
	case key.Matches(msg, k.PrevFile):
		m.jumpFile(-1)
	case key.Matches(msg, k.Select):
		if m.selecting {
			m.selecting = false
		} else if m.doc.rows[m.cursor].kind == rowLine {
			m.selecting, m.anchor = true, m.cursor
		}
	case key.Matches(msg, k.Comment):
		return m, m.openEditor()
	}
	return m, nil
}

// cursorPlace is the file and line number the cursor is on ("" before a
// diff is loaded), so a reload can put it back.
func (m *Model) cursorPlace() (string, int) {
	if m.doc == nil || len(m.doc.rows) == 0 {
		return "", 0
	}
	rw := m.doc.rows[m.cursor]
	f := m.doc.diff.Files[rw.file]
	if rw.kind != rowLine {
		return f.Path(), 0
	}
	return f.Path(), f.Hunks[rw.hunk].Lines[rw.line].Number()
}

// step is the next selectable row from the cursor in direction dir.
func (m *Model) step(dir int) int {
	if r := m.doc.nextSelectable(m.cursor+dir, dir); r >= 0 {
		return r
	}
	return m.cursor
}

// stepRows moves about n rows and lands on a selectable one.
func (m *Model) stepRows(n int) int {
	t := min(max(m.cursor+n, 0), len(m.doc.rows)-1)
	dir := 1
	if n < 0 {
		dir = -1
	}
	if r := m.doc.nextSelectable(t, dir); r >= 0 {
		return r
	}
	if r := m.doc.nextSelectable(t, -dir); r >= 0 {
		return r
	}
	return m.cursor
}

// moveTo puts the cursor on row r; while selecting, it stays in the
// anchor's hunk.
func (m *Model) moveTo(r int) {
	if r < 0 {
		return
	}
	if m.selecting {
		first, last, _ := m.doc.hunkSpan(m.anchor)
		r = min(max(r, first), last)
		if !m.doc.selectable(r) {
			r = m.doc.nextSelectable(r, -1)
		}
	}
	m.cursor = r
	m.ensureVisible()
}

func (m *Model) jumpHunk(dir int) {
	i := m.doc.hunkHeaderAtOrBefore(m.cursor)
	j := i + dir
	if dir < 0 {
		// [ first goes to the start of the hunk the cursor is in.
		if i >= 0 && m.cursor > m.doc.hunkRows[i]+1 && m.doc.fileOf(m.doc.hunkRows[i]) == m.doc.fileOf(m.cursor) {
			j = i
		}
	}
	if j < 0 || j >= len(m.doc.hunkRows) {
		return
	}
	h := m.doc.hunkRows[j]
	if m.selecting {
		m.moveTo(h + 1)
		return
	}
	m.cursor = h + 1
	m.top = h
	m.ensureVisible()
}

func (m *Model) jumpFile(dir int) {
	fi := m.doc.fileOf(m.cursor)
	j := fi + dir
	if dir < 0 && m.cursor > m.doc.nextSelectable(m.doc.fileRow[fi], 1) {
		j = fi
	}
	if j < 0 || j >= len(m.doc.fileRow) {
		return
	}
	fr := m.doc.fileRow[j]
	r := m.doc.nextSelectable(fr, 1)
	if m.selecting {
		m.moveTo(r)
		return
	}
	m.cursor = r
	m.top = fr
	m.ensureVisible()
}

func (m *Model) scroll(n int) {
	vh := m.viewHeight()
	m.top = min(max(m.top+n, 0), max(len(m.doc.rows)-vh, 0))
	if m.cursor < m.top || m.cursor >= m.top+vh {
		target := m.top
		if n < 0 {
			target = m.top + vh - 1
		}
		if r := m.doc.nextSelectable(min(target, len(m.doc.rows)-1), 1); r >= 0 && r < m.top+vh {
			m.cursor = r
		} else if r := m.doc.nextSelectable(min(target, len(m.doc.rows)-1), -1); r >= 0 {
			m.cursor = r
		}
	}
}

// ensureVisible scrolls so the cursor has a little room above and below.
func (m *Model) ensureVisible() {
	if m.doc == nil {
		return
	}
	vh := m.viewHeight()
	margin := min(2, vh/4)
	if m.cursor < m.top+margin {
		m.top = m.cursor - margin
	}
	if m.cursor > m.top+vh-1-margin {
		m.top = m.cursor - vh + 1 + margin
	}
	m.top = min(max(m.top, 0), max(len(m.doc.rows)-vh, 0))
	// The file list follows the cursor's file.
	fi, bh := m.doc.fileOf(m.cursor), m.bodyHeight()
	if fi < m.fileTop {
		m.fileTop = fi
	}
	if fi >= m.fileTop+bh {
		m.fileTop = fi - bh + 1
	}
}

// selection is the rows of the selection, or of the cursor's line.
func (m *Model) selection() (from, to int) {
	from, to = m.cursor, m.cursor
	if m.selecting {
		from, to = min(m.anchor, m.cursor), max(m.anchor, m.cursor)
	}
	return from, to
}

func (m *Model) openEditor() tea.Cmd {
	from, to := m.selection()
	if m.doc.rows[from].kind != rowLine {
		m.status = "Nothing to comment on here: move to a diff line"
		return nil
	}
	m.editing, m.editFrom, m.editTo, m.editSelected = true, from, to, m.selecting
	m.editErr = ""
	m.editor.Reset()
	m.editor.SetWidth(max(m.paneWidth()-2, 4))
	m.ensureVisible()
	return m.editor.Focus()
}

func (m *Model) closeEditor() {
	m.editing = false
	m.editor.Blur()
	m.ensureVisible()
}

// applyPending shows a diff that was loaded while the editor was open.
func (m *Model) applyPending() tea.Cmd {
	if m.pending != nil {
		return m.apply(*m.pending)
	}
	return nil
}

func (m *Model) updateEditor(msg tea.KeyPressMsg) (*Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Cancel):
		m.closeEditor()
		m.selecting = m.editSelected
		return m, m.applyPending()
	case key.Matches(msg, m.keys.Newline):
		m.editor.InsertString("\n")
		return m, nil
	case key.Matches(msg, m.keys.Confirm):
		return m, m.confirm()
	}
	var cmd tea.Cmd
	m.editor, cmd = m.editor.Update(msg)
	return m, cmd
}

// confirm turns the editor's text into a record: checked here, finished
// (HEAD's commit, the context id) in a command.
func (m *Model) confirm() tea.Cmd {
	text := m.editor.Value()
	if strings.TrimSpace(text) == "" {
		m.editErr = "write a comment, or esc to drop it"
		return nil
	}
	c, err := m.commentAt(m.editFrom, m.editTo, text)
	if err == nil {
		_, err = newRecord(c)
	}
	if err != nil {
		m.editErr = err.Error()
		return nil
	}
	m.closeEditor()
	m.selecting = false
	m.marks = append(m.marks, mark{m.editFrom, m.editTo})
	m.rowCache = map[int]string{}
	start, end := selectedRange(c.hunk.Lines[c.lo : c.hi+1])
	m.status = "Comment added: " + chips.SanitizeLine(recordLabel(c.filePath, RangeLabel(start, end)))
	g, root, newID, pane := m.opts.Git, m.doc.diff.Root, m.opts.NewID, m.pane
	if newID == nil {
		newID = NewContextID
	}
	var lex tea.Cmd
	if m.pending != nil {
		status := m.status
		lex = m.applyPending()
		m.status = status
	}
	return tea.Batch(lex, func() tea.Msg {
		if root != "" {
			c.revision = g.Head(context.Background(), root)
		}
		c.id = newID()
		rec, err := newRecord(c)
		if err != nil {
			return commentFailedMsg{pane: pane, err: err}
		}
		return CommentMsg{Record: rec}
	})
}

// commentAt copies what a record of rows from..to needs out of the model.
func (m *Model) commentAt(from, to int, text string) (comment, error) {
	a, b := m.doc.rows[from], m.doc.rows[to]
	if a.kind != rowLine || b.kind != rowLine || a.file != b.file || a.hunk != b.hunk {
		return comment{}, errors.New("a comment covers lines of one hunk")
	}
	f := m.doc.diff.Files[a.file]
	return comment{
		cmp:      m.opts.Comparison,
		filePath: RelPath(m.doc.diff.Prefix, f.Path()),
		hunk:     f.Hunks[a.hunk],
		lo:       int(a.line),
		hi:       int(b.line),
		text:     text,
		id:       "pending",
		pr:       clonePR(m.pr),
	}, nil
}

// View draws the pane: exactly Size's lines, none wider than its width.
// It indexes the prepared rows and draws only those on screen; a drawn row
// is kept until the width changes, and the frame is written into one
// string (no string a line, no join).
func (m *Model) View() string {
	header, footer := m.headerLine(), m.footerLine()
	bh := m.bodyHeight()
	var msg string
	switch {
	case m.err != nil:
		msg = m.plain("  "+chips.SanitizeLine(m.err.Error()), m.w)
	case m.doc == nil:
		msg = m.plain("  Reading the diff…", m.w)
	case len(m.doc.rows) == 0:
		msg = m.plain("  No changes.", m.w)
	}
	if m.h == 1 {
		return footer
	}
	if msg != "" || m.doc == nil {
		n := len(header) + len(msg) + len(footer) + m.h
		var b strings.Builder
		b.Grow(n)
		b.WriteString(header)
		lines := 1
		if m.h > 2 {
			b.WriteByte('\n')
			b.WriteString(msg)
			lines++
		}
		for ; lines < m.h-1; lines++ {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
		b.WriteString(footer)
		return b.String()
	}
	lw, pw := m.listWidth(), m.paneWidth()
	body := m.diffLines(pw)
	sep := ""
	if lw > 0 {
		sep = m.separator()
	}
	// body lines past the screen (m.h-2 of them fit) are not drawn
	rows := min(bh, m.h-2)
	n := len(header) + len(footer) + m.h
	list := m.listRows[:0]
	for i := 0; i < rows; i++ {
		if i < len(body) {
			n += len(body[i])
		}
		if lw > 0 {
			l := m.fileListLine(m.fileTop+i, lw)
			list = append(list, l)
			n += len(l) + len(sep)
		}
	}
	m.listRows = list
	var b strings.Builder
	b.Grow(n)
	b.WriteString(header)
	for i := 0; i < rows; i++ {
		b.WriteByte('\n')
		if lw > 0 {
			b.WriteString(list[i])
			b.WriteString(sep)
		}
		if i < len(body) {
			b.WriteString(body[i])
		}
	}
	for lines := 1 + rows; lines < m.h-1; lines++ {
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.WriteString(footer)
	return b.String()
}

// separator is the line between the file list and the diff.
func (m *Model) separator() string {
	if m.sep == "" {
		m.sep = m.newPainter(1).style(sty{fg: m.theme.NumFg}) + "│\x1b[0m"
	}
	return m.sep
}

// diffLines is the diff pane's rows on screen, and the editor under them.
func (m *Model) diffLines(pw int) []string {
	if pw != m.cacheW {
		m.rowCache, m.cacheW = map[int]string{}, pw
	}
	if len(m.rowCache) > 4096 {
		m.rowCache = map[int]string{}
	}
	vh := m.viewHeight()
	from, to := -1, -1
	if m.selecting || m.editing {
		from, to = m.selection()
		if m.editing {
			from, to = m.editFrom, m.editTo
		}
	}
	out := make([]string, 0, m.bodyHeight())
	for r := m.top; r < m.top+vh && r < len(m.doc.rows); r++ {
		var dec uint8
		if r == m.cursor && !m.editing {
			dec |= decCursor
		}
		if r >= from && r <= to {
			dec |= decSelected
		}
		if m.marked(r) {
			dec |= decComment
		}
		key := r<<3 | int(dec)
		s, ok := m.rowCache[key]
		if !ok {
			s = m.renderRow(r, pw, dec)
			m.rowCache[key] = s
		}
		out = append(out, s)
	}
	for len(out) < vh {
		out = append(out, "")
	}
	if m.editing {
		out = append(out, m.editorLines(pw)...)
	}
	return out
}

// dropRows forgets the drawn rows of file fi (its tokens came).
func (m *Model) dropRows(fi int32) {
	for key := range m.rowCache {
		if r := key >> 3; r < len(m.doc.rows) && m.doc.rows[r].file == fi {
			delete(m.rowCache, key)
		}
	}
}

func (m *Model) marked(r int) bool {
	for _, mk := range m.marks {
		if r >= mk.from && r <= mk.to {
			return true
		}
	}
	return false
}

func (m *Model) editorLines(pw int) []string {
	c, err := m.commentAt(m.editFrom, m.editTo, "")
	title := "Comment"
	if err == nil {
		s, e := selectedRange(c.hunk.Lines[c.lo : c.hi+1])
		title = "Comment on " + recordLabel(c.filePath, RangeLabel(s, e))
	}
	hint := " · " + m.keys.Confirm.Help().Key + " confirm · " + m.keys.Newline.Help().Key + " newline · " + m.keys.Cancel.Help().Key + " drop"
	p := m.newPainter(pw)
	p.text(chips.SanitizeLine(title), sty{fg: m.theme.Accent, bold: true})
	if m.editErr != "" {
		p.text(" · "+chips.SanitizeLine(m.editErr), sty{fg: m.theme.DelFg, bold: true})
	} else {
		p.text(hint, sty{fg: m.theme.FaintFg, faint: m.theme.FaintFg == nil})
	}
	out := []string{p.String()}
	ev := strings.Split(m.editor.View(), "\n")
	for i := 0; i < editorRows-1; i++ {
		l := ""
		if i < len(ev) {
			l = ev[i]
		}
		if ansi.StringWidth(l) > pw {
			l = ansi.Truncate(l, pw, "")
		}
		out = append(out, l)
	}
	return out
}

// fileListLine is row i of the file list, drawn once per width and state.
func (m *Model) fileListLine(i, lw int) string {
	if lw != m.listW || m.listCache == nil {
		m.listCache, m.listW = map[int]string{}, lw
	}
	key := i << 1
	if i == m.doc.fileOf(m.cursor) {
		key |= 1
	}
	s, ok := m.listCache[key]
	if !ok {
		s = m.drawFileListLine(i, lw)
		m.listCache[key] = s
	}
	return s
}

func (m *Model) drawFileListLine(i, lw int) string {
	p := m.newPainter(lw)
	files := m.doc.diff.Files
	if i < 0 || i >= len(files) {
		p.fill(sty{})
		return p.String()
	}
	f := files[i]
	cur := i == m.doc.fileOf(m.cursor)
	base := sty{reverse: cur, bold: cur}
	letter := base
	switch f.Status {
	case Added:
		letter.fg = m.theme.AddFg
	case Deleted:
		letter.fg = m.theme.DelFg
	default:
		letter.fg = m.theme.Accent
	}
	if cur {
		letter.fg = nil
	}
	p.text(" "+string(statusLetter(f))+" ", letter)
	name := chips.SanitizeLine(f.Path())
	room := lw - 4
	if w := ansi.StringWidth(name); w > room && room > 1 {
		name = "…" + ansi.TruncateLeft(name, w-room+1, "")
	}
	p.text(name, base)
	p.fill(base)
	return p.String()
}

// headerLine is the title line, drawn again only when what it shows
// changes.
func (m *Model) headerLine() string {
	k := headerKey{m.w, m.doc, m.pr}
	if m.header.ok && m.header.k == k {
		return m.header.s
	}
	m.header = drawn[headerKey]{k, m.drawHeaderLine(), true}
	return m.header.s
}

func (m *Model) drawHeaderLine() string {
	p := m.newPainter(m.w)
	p.text(" Review ", sty{fg: m.theme.Accent, bold: true, reverse: m.theme.Accent == nil})
	p.text(" "+chips.SanitizeLine(m.opts.Comparison.Title()), sty{bold: true})
	if m.doc != nil {
		n := len(m.doc.diff.Files)
		files := strconv.Itoa(n) + " files"
		if n == 1 {
			files = "1 file"
		}
		p.text(" · "+files+" ", sty{fg: m.theme.FaintFg})
		p.text("+"+strconv.Itoa(m.doc.added), sty{fg: m.theme.AddFg})
		p.text(" ", sty{})
		p.text("-"+strconv.Itoa(m.doc.deleted), sty{fg: m.theme.DelFg})
	}
	if m.pr != nil {
		pr := " · #" + strconv.FormatInt(m.pr.Number, 10) + " " + m.pr.State
		if m.pr.IsDraft {
			pr += " draft"
		}
		p.text(pr, sty{fg: m.theme.HunkFg, bold: true})
		p.text(" "+chips.SanitizeLine(m.pr.Title), sty{})
	}
	return p.String()
}

// footerLine is the status or help line, drawn again only when what it
// shows changes.
func (m *Model) footerLine() string {
	k := footerKey{w: m.w, status: m.status, selecting: m.selecting}
	if m.selecting && m.status == "" {
		k.lines = m.selectedLines(m.selection())
	}
	if m.footer.ok && m.footer.k == k {
		return m.footer.s
	}
	m.footer = drawn[footerKey]{k, m.drawFooterLine(), true}
	return m.footer.s
}

func (m *Model) drawFooterLine() string {
	p := m.newPainter(m.w)
	if m.status != "" {
		p.text(" "+m.status, sty{fg: m.theme.Accent})
		return p.String()
	}
	k := m.keys
	var parts []string
	for _, b := range []key.Binding{k.Down, k.NextHunk, k.NextFile, k.Select, k.Comment, k.Close} {
		h := b.Help()
		if m.selecting && b.Help().Desc == k.Close.Help().Desc {
			h.Desc = "clear selection"
		}
		parts = append(parts, h.Key+" "+h.Desc)
	}
	if m.selecting {
		from, to := m.selection()
		parts = append([]string{strconv.Itoa(m.selectedLines(from, to)) + " lines selected"}, parts...)
	}
	p.text(" "+strings.Join(parts, " · "), sty{fg: m.theme.FaintFg, faint: m.theme.FaintFg == nil})
	return p.String()
}

// selectedLines counts the diff lines of a selection (it stays in one
// hunk, so the lines' indexes say it).
func (m *Model) selectedLines(from, to int) int {
	return int(m.doc.rows[to].line-m.doc.rows[from].line) + 1
}

func (m *Model) plain(s string, w int) string {
	p := m.newPainter(w)
	p.text(s, sty{fg: m.theme.FaintFg})
	return p.String()
}
