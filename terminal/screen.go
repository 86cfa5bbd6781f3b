package terminal

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// Attribute bits of a Style.
const (
	AttrBold uint8 = 1 << iota
	AttrFaint
	AttrItalic
	AttrUnderline
	AttrReverse
	AttrBlink
	AttrInvisible
	AttrStrike
)

// Color is a packed colour: 0 is the default colour; 0x01_0000NN is palette
// entry NN (0–255); 0x02_RRGGBB is a true colour.
type Color uint32

const (
	colorPalette Color = 1 << 24
	colorRGB     Color = 2 << 24
)

// PaletteColor returns palette colour n (0–255).
func PaletteColor(n int) Color { return colorPalette | Color(n&0xff) }

// RGBColor returns a true colour.
func RGBColor(r, g, b int) Color {
	return colorRGB | Color(r&0xff)<<16 | Color(g&0xff)<<8 | Color(b&0xff)
}

// Style is the drawing style of a cell.
type Style struct {
	Fg, Bg Color
	Attr   uint8
}

// Cell is one column of a line. A wide character occupies its cell (Width 2)
// and the next one, a continuation cell (Width 0, Rune 0). An empty cell has
// Rune 0 and Width 1 and reads as a space.
type Cell struct {
	Rune  rune
	Width uint8
	Style Style
}

// Line is one row of the screen or of the scrollback.
type Line struct {
	Cells []Cell
	// Wrapped is true when the text of this line goes on, by autowrap, in
	// the next line.
	Wrapped bool
	// comb holds combining marks (zero-width runes) attached to a cell, by
	// column. Rare, so kept out of Cell.
	comb map[int]string
}

func (l *Line) reset(cols int, st Style) {
	if cap(l.Cells) >= cols {
		l.Cells = l.Cells[:cols]
	} else {
		l.Cells = make([]Cell, cols)
	}
	blank := Cell{Width: 1, Style: Style{Bg: st.Bg}}
	for i := range l.Cells {
		l.Cells[i] = blank
	}
	l.Wrapped = false
	l.comb = nil
}

// Text returns the plain text of the line, trailing spaces trimmed.
func (l *Line) Text() string {
	var b strings.Builder
	for i, c := range l.Cells {
		if c.Width == 0 {
			continue
		}
		if c.Rune == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteRune(c.Rune)
		}
		if l.comb != nil {
			b.WriteString(l.comb[i])
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// ring is a fixed-size ring of rows: scrolling the whole ring is O(1).
type ring struct {
	lines []*Line
	top   int
}

func (r *ring) row(y int) *Line { return r.lines[(r.top+y)%len(r.lines)] }

// Mark is an OSC 133 shell-integration mark.
type Mark struct {
	Kind byte  // 'A' prompt start, 'B' command start, 'C' output start, 'D' command done
	Line int64 // absolute line of the cursor when the mark arrived
	Code int   // exit code given with D, -1 when absent
}

type cursor struct {
	x, y        int
	style       Style
	pendingWrap bool
	origin      bool
	charsetG0   byte
}

// Screen is the VT emulator: a screen held as a ring of lines, a bounded
// scrollback ring and a byte-at-a-time state machine parser. It is not safe
// for concurrent use: the Terminal guards it with a mutex.
type Screen struct {
	cols, rows int

	main, alt ring
	cur       *ring
	inAlt     bool

	// scrollback: a ring of at most sbMax lines, oldest at sbStart.
	sb      []*Line
	sbStart int
	sbLen   int
	sbMax   int
	// scrolled counts lines that ever left the top of the main screen:
	// absolute line of main screen row y is scrolled+y.
	scrolled int64

	c        cursor
	saved    cursor
	savedAlt cursor

	top, bottom int // scroll region, inclusive
	tabs        []bool

	// modes
	autowrap     bool
	insert       bool
	cursorHidden bool
	appCursor    bool
	appKeypad    bool
	bracketPaste bool
	mouseMode    int // 0 none, else 1000/1002/1003
	mouseSGR     bool

	title   string
	cwd     string
	marks   []Mark
	replies []byte

	// parser
	state     int
	params    [16]int
	sub       [16]bool // param i was introduced by ':'
	nparams   int
	hasParam  bool
	private   byte
	inter     byte
	oscBuf    []byte
	strEsc    bool
	utf8Buf   [4]byte
	utf8Len   int
	utf8Need  int
	lastRune  rune
	lastWidth int
}

const (
	stGround = iota
	stEscape
	stEscInter
	stCSI
	stOSC
	stString // DCS, SOS, PM, APC: skipped to ST
	stCharset
)

// NewScreen makes a screen of cols×rows cells keeping at most scrollback
// lines of history (10,000 when scrollback < 0).
func NewScreen(cols, rows, scrollback int) *Screen {
	if cols < 1 {
		cols = 1
	}
	if rows < 1 {
		rows = 1
	}
	if scrollback < 0 {
		scrollback = 10000
	}
	s := &Screen{cols: cols, rows: rows, sbMax: scrollback, autowrap: true}
	s.main = newRing(cols, rows)
	s.alt = newRing(cols, rows)
	s.cur = &s.main
	s.top, s.bottom = 0, rows-1
	s.resetTabs()
	s.c.charsetG0 = 'B'
	return s
}

func newRing(cols, rows int) ring {
	r := ring{lines: make([]*Line, rows)}
	for i := range r.lines {
		l := &Line{}
		l.reset(cols, Style{})
		r.lines[i] = l
	}
	return r
}

func (s *Screen) resetTabs() {
	s.tabs = make([]bool, s.cols)
	for i := 0; i < s.cols; i += 8 {
		s.tabs[i] = true
	}
}

// Size returns the columns and rows.
func (s *Screen) Size() (cols, rows int) { return s.cols, s.rows }

// Cursor returns the cursor position (0-based) and whether it is visible.
func (s *Screen) Cursor() (x, y int, visible bool) { return s.c.x, s.c.y, !s.cursorHidden }

// AltScreen reports whether the alternate screen is active.
func (s *Screen) AltScreen() bool { return s.inAlt }

// AppCursorKeys reports DECCKM (arrows send ESC O x).
func (s *Screen) AppCursorKeys() bool { return s.appCursor }

// BracketedPaste reports whether the program asked for bracketed paste.
func (s *Screen) BracketedPaste() bool { return s.bracketPaste }

// MouseMode returns the mouse tracking mode requested (0, 1000, 1002, 1003)
// and whether SGR encoding (1006) is on.
func (s *Screen) MouseMode() (int, bool) { return s.mouseMode, s.mouseSGR }

// Title returns the window title set by OSC 0/2, sanitized.
func (s *Screen) Title() string { return s.title }

// Cwd returns the directory reported by OSC 7, if any.
func (s *Screen) Cwd() string { return s.cwd }

// Marks returns the OSC 133 marks still within the history.
func (s *Screen) Marks() []Mark {
	first := s.FirstLine()
	out := make([]Mark, 0, len(s.marks))
	for _, m := range s.marks {
		if m.Line >= first {
			out = append(out, m)
		}
	}
	return out
}

// Prompts returns the absolute lines of OSC 133 prompt starts (A marks).
func (s *Screen) Prompts() []int64 {
	var out []int64
	for _, m := range s.Marks() {
		if m.Kind == 'A' {
			out = append(out, m.Line)
		}
	}
	return out
}

// Replies returns and clears the bytes the emulator must send back to the
// program (answers to DSR and DA queries).
func (s *Screen) Replies() []byte {
	r := s.replies
	s.replies = nil
	return r
}

// FirstLine is the absolute number of the oldest line still held.
func (s *Screen) FirstLine() int64 { return s.scrolled - int64(s.sbLen) }

// ScreenTop is the absolute number of the first screen row.
func (s *Screen) ScreenTop() int64 { return s.scrolled }

// LastLine is the absolute number of the last screen row.
func (s *Screen) LastLine() int64 { return s.scrolled + int64(s.rows) - 1 }

// CursorLine is the absolute line of the cursor.
func (s *Screen) CursorLine() int64 { return s.scrolled + int64(s.c.y) }

// line returns the line with absolute number n, or nil.
func (s *Screen) line(n int64) *Line {
	if n >= s.scrolled {
		y := n - s.scrolled
		if y >= int64(s.rows) {
			return nil
		}
		return s.cur.row(int(y))
	}
	i := n - s.FirstLine()
	if i < 0 {
		return nil
	}
	return s.sb[(s.sbStart+int(i))%len(s.sb)]
}

// Lines returns the plain text (trailing spaces trimmed) of absolute lines
// from..to inclusive, clamped to what is held.
func (s *Screen) Lines(from, to int64) []string {
	if from < s.FirstLine() {
		from = s.FirstLine()
	}
	if to > s.LastLine() {
		to = s.LastLine()
	}
	var out []string
	for n := from; n <= to; n++ {
		out = append(out, s.line(n).Text())
	}
	return out
}

// LineWrapped reports whether absolute line n continues in the next one.
func (s *Screen) LineWrapped(n int64) bool {
	if l := s.line(n); l != nil {
		return l.Wrapped
	}
	return false
}

// CellAt returns the cell at column x of absolute line n (an empty cell
// outside the held area).
func (s *Screen) CellAt(x int, n int64) Cell {
	l := s.line(n)
	if l == nil || x < 0 || x >= len(l.Cells) {
		return Cell{Width: 1}
	}
	return l.Cells[x]
}

// ---- writing ----

// Write feeds program output to the emulator. It never fails.
func (s *Screen) Write(p []byte) (int, error) {
	n := len(p)
	for i := 0; i < len(p); {
		if s.state == stGround && s.utf8Need == 0 {
			// fast path: a run of printable ASCII
			b := p[i]
			if b >= 0x20 && b < 0x7f {
				j := i + 1
				for j < len(p) && p[j] >= 0x20 && p[j] < 0x7f {
					j++
				}
				s.printASCII(p[i:j])
				i = j
				continue
			}
		}
		s.step(p[i])
		i++
	}
	return n, nil
}

func (s *Screen) printASCII(p []byte) {
	if s.c.charsetG0 == '0' || s.insert {
		for _, b := range p {
			s.print(rune(b), 1)
		}
		return
	}
	for len(p) > 0 {
		if s.c.pendingWrap {
			s.wrap()
		}
		l := s.cur.row(s.c.y)
		x := s.c.x
		room := s.cols - x
		k := len(p)
		if k > room {
			k = room
		}
		st := s.c.style
		if x > 0 && l.Cells[x].Width == 0 {
			s.fixWide(l, x)
		}
		cells := l.Cells[x : x+k]
		for i := range cells {
			cells[i] = Cell{Rune: rune(p[i]), Width: 1, Style: st}
		}
		if x+k < s.cols && l.Cells[x+k].Width == 0 {
			l.Cells[x+k] = Cell{Width: 1, Style: Style{Bg: st.Bg}}
		}
		if l.comb != nil {
			for i := x; i < x+k; i++ {
				delete(l.comb, i)
			}
		}
		s.lastRune, s.lastWidth = rune(p[k-1]), 1
		p = p[k:]
		x += k
		if x >= s.cols {
			s.c.x = s.cols - 1
			if s.autowrap {
				s.c.pendingWrap = true
			}
		} else {
			s.c.x = x
		}
	}
}

// fixWide clears the left half of a wide character whose right half at x
// is being overwritten.
func (s *Screen) fixWide(l *Line, x int) {
	if x > 0 && l.Cells[x-1].Width == 2 {
		l.Cells[x-1] = Cell{Width: 1, Style: Style{Bg: l.Cells[x-1].Style.Bg}}
	}
}

func (s *Screen) wrap() {
	s.cur.row(s.c.y).Wrapped = true
	s.c.pendingWrap = false
	s.c.x = 0
	s.index()
}

var decGraphics = map[rune]rune{
	'`': '◆', 'a': '▒', 'f': '°', 'g': '±', 'j': '┘', 'k': '┐', 'l': '┌', 'm': '└',
	'n': '┼', 'o': '⎺', 'p': '⎻', 'q': '─', 'r': '⎼', 's': '⎽', 't': '├', 'u': '┤',
	'v': '┴', 'w': '┬', 'x': '│', 'y': '≤', 'z': '≥', '{': 'π', '|': '≠', '}': '£', '~': '·',
}

func (s *Screen) print(r rune, w int) {
	if s.c.charsetG0 == '0' {
		if g, ok := decGraphics[r]; ok {
			r = g
		}
	}
	if w == 0 {
		// combining mark: attach to the previous cell
		x, y := s.c.x, s.c.y
		if !s.c.pendingWrap {
			x--
		}
		l := s.cur.row(y)
		if x >= 0 && x < s.cols {
			if l.Cells[x].Width == 0 && x > 0 {
				x--
			}
			if l.comb == nil {
				l.comb = map[int]string{}
			}
			if len(l.comb[x]) < 32 {
				l.comb[x] += string(r)
			}
		}
		return
	}
	if w > s.cols {
		return
	}
	if s.c.pendingWrap {
		s.wrap()
	}
	if s.c.x+w > s.cols {
		// a wide char that does not fit: wrap first (or clip)
		if s.autowrap {
			s.clearCells(s.cur.row(s.c.y), s.c.x, s.cols)
			s.wrap()
		} else {
			s.c.x = s.cols - w
			s.c.pendingWrap = false
		}
	}
	l := s.cur.row(s.c.y)
	x := s.c.x
	if s.insert {
		s.insertCells(l, x, w)
	}
	if l.Cells[x].Width == 0 {
		s.fixWide(l, x)
	}
	if l.Cells[x].Width == 2 && w == 1 && x+1 < s.cols {
		l.Cells[x+1] = Cell{Width: 1, Style: Style{Bg: l.Cells[x].Style.Bg}}
	}
	l.Cells[x] = Cell{Rune: r, Width: uint8(w), Style: s.c.style}
	if w == 2 {
		if x+2 < s.cols && l.Cells[x+1].Width == 2 {
			l.Cells[x+2] = Cell{Width: 1, Style: Style{Bg: l.Cells[x+1].Style.Bg}}
		}
		l.Cells[x+1] = Cell{Width: 0, Style: s.c.style}
	}
	if l.comb != nil {
		delete(l.comb, x)
	}
	s.lastRune, s.lastWidth = r, w
	x += w
	if x >= s.cols {
		s.c.x = s.cols - 1
		if s.autowrap {
			s.c.pendingWrap = true
		}
	} else {
		s.c.x = x
	}
}

// index moves the cursor down one line, scrolling at the region's bottom.
func (s *Screen) index() {
	if s.c.y == s.bottom {
		s.scrollUp(s.top, s.bottom, 1)
	} else if s.c.y < s.rows-1 {
		s.c.y++
	}
}

func (s *Screen) reverseIndex() {
	if s.c.y == s.top {
		s.scrollDown(s.top, s.bottom, 1)
	} else if s.c.y > 0 {
		s.c.y--
	}
}

// scrollUp scrolls rows top..bottom up by n lines.
func (s *Screen) scrollUp(top, bottom, n int) {
	if n <= 0 {
		return
	}
	if n > bottom-top+1 {
		n = bottom - top + 1
	}
	r := s.cur
	if top == 0 && bottom == s.rows-1 {
		for i := 0; i < n; i++ {
			old := r.lines[r.top]
			var fresh *Line
			if !s.inAlt {
				fresh = s.pushScrollback(old)
				s.scrolled++
			} else {
				fresh = old
			}
			if fresh == nil {
				fresh = &Line{}
			}
			fresh.reset(s.cols, s.c.style)
			r.lines[r.top] = fresh
			r.top = (r.top + 1) % len(r.lines)
		}
		return
	}
	for i := 0; i < n; i++ {
		first := r.row(top)
		for y := top; y < bottom; y++ {
			r.lines[(r.top+y)%len(r.lines)] = r.row(y + 1)
		}
		first.reset(s.cols, s.c.style)
		r.lines[(r.top+bottom)%len(r.lines)] = first
	}
}

// pushScrollback appends l to the scrollback and returns a line that may be
// reused (the evicted one), or nil.
func (s *Screen) pushScrollback(l *Line) *Line {
	if s.sbMax == 0 {
		return l
	}
	if len(s.sb) < s.sbMax {
		// grow lazily
		if s.sbLen == len(s.sb) {
			nl := len(s.sb) * 2
			if nl < 64 {
				nl = 64
			}
			if nl > s.sbMax {
				nl = s.sbMax
			}
			nsb := make([]*Line, nl)
			for i := 0; i < s.sbLen; i++ {
				nsb[i] = s.sb[(s.sbStart+i)%len(s.sb)]
			}
			s.sb, s.sbStart = nsb, 0
		}
	}
	if s.sbLen < len(s.sb) {
		s.sb[(s.sbStart+s.sbLen)%len(s.sb)] = l
		s.sbLen++
		return nil
	}
	ev := s.sb[s.sbStart]
	s.sb[s.sbStart] = l
	s.sbStart = (s.sbStart + 1) % len(s.sb)
	s.pruneMarks()
	return ev
}

func (s *Screen) pruneMarks() {
	if len(s.marks) == 0 || s.marks[0].Line >= s.FirstLine() {
		return
	}
	first := s.FirstLine()
	i := 0
	for i < len(s.marks) && s.marks[i].Line < first {
		i++
	}
	s.marks = append(s.marks[:0], s.marks[i:]...)
}

func (s *Screen) scrollDown(top, bottom, n int) {
	if n > bottom-top+1 {
		n = bottom - top + 1
	}
	r := s.cur
	for i := 0; i < n; i++ {
		last := r.row(bottom)
		for y := bottom; y > top; y-- {
			r.lines[(r.top+y)%len(r.lines)] = r.row(y - 1)
		}
		last.reset(s.cols, s.c.style)
		r.lines[(r.top+top)%len(r.lines)] = last
	}
}

func (s *Screen) step(b byte) {
	// C0 controls act in every state except inside strings
	switch s.state {
	case stOSC, stString:
		s.stepString(b)
		return
	}
	if b < 0x20 || b == 0x7f {
		if b == 0x1b {
			s.utf8Need = 0
			s.state = stEscape
			s.inter = 0
			return
		}
		if b == 0x18 || b == 0x1a { // CAN, SUB
			s.state = stGround
			return
		}
		if b == 0x7f {
			return
		}
		s.control(b)
		return
	}
	switch s.state {
	case stGround:
		s.ground(b)
	case stEscape:
		s.escape(b)
	case stEscInter:
		if b >= 0x20 && b <= 0x2f {
			return
		}
		s.state = stGround
	case stCharset:
		if s.inter == '(' {
			s.c.charsetG0 = b
		}
		s.state = stGround
	case stCSI:
		s.csiByte(b)
	}
}

func (s *Screen) ground(b byte) {
	if b < 0x80 {
		s.utf8Need = 0
		s.print(rune(b), 1)
		return
	}
	if s.utf8Need == 0 {
		switch {
		case b&0xe0 == 0xc0:
			s.utf8Need = 2
		case b&0xf0 == 0xe0:
			s.utf8Need = 3
		case b&0xf8 == 0xf0:
			s.utf8Need = 4
		default:
			s.print(utf8.RuneError, 1)
			return
		}
		s.utf8Buf[0] = b
		s.utf8Len = 1
		return
	}
	if b&0xc0 != 0x80 {
		s.utf8Need = 0
		s.print(utf8.RuneError, 1)
		s.ground(b)
		return
	}
	s.utf8Buf[s.utf8Len] = b
	s.utf8Len++
	if s.utf8Len < s.utf8Need {
		return
	}
	s.utf8Need = 0
	r, _ := utf8.DecodeRune(s.utf8Buf[:s.utf8Len])
	s.print(r, runeWidth(r))
}

func runeWidth(r rune) int {
	if r < 0x300 {
		return 1
	}
	w := runewidth.RuneWidth(r)
	if w == 0 {
		// zero-width joiners, combining marks, variation selectors
		return 0
	}
	if w > 2 {
		w = 2
	}
	return w
}

func (s *Screen) control(b byte) {
	switch b {
	case '\r':
		s.c.x = 0
		s.c.pendingWrap = false
	case '\n', 0x0b, 0x0c:
		s.c.pendingWrap = false
		s.index()
	case '\b':
		if s.c.pendingWrap {
			s.c.pendingWrap = false
		} else if s.c.x > 0 {
			s.c.x--
		}
	case '\t':
		s.tab(1)
	case 0x0e, 0x0f: // SO/SI: G1/G0 shifts, ignored
	case 0x07: // BEL
	}
}

func (s *Screen) tab(n int) {
	for ; n > 0; n-- {
		x := s.c.x + 1
		for x < s.cols-1 && !s.tabs[x] {
			x++
		}
		if x > s.cols-1 {
			x = s.cols - 1
		}
		s.c.x = x
	}
	s.c.pendingWrap = false
}

func (s *Screen) backTab(n int) {
	for ; n > 0; n-- {
		x := s.c.x - 1
		for x > 0 && !s.tabs[x] {
			x--
		}
		if x < 0 {
			x = 0
		}
		s.c.x = x
	}
	s.c.pendingWrap = false
}

func (s *Screen) escape(b byte) {
	s.state = stGround
	switch b {
	case '[':
		s.state = stCSI
		s.nparams = 0
		s.hasParam = false
		s.private = 0
		s.inter = 0
		s.params[0] = 0
		s.sub[0] = false
	case ']':
		s.state = stOSC
		s.oscBuf = s.oscBuf[:0]
		s.strEsc = false
	case 'P', 'X', '^', '_':
		s.state = stString
		s.strEsc = false
	case '(', ')', '*', '+':
		s.inter = b
		s.state = stCharset
	case '#', '%', ' ':
		s.state = stEscInter
	case '7':
		s.saveCursor()
	case '8':
		s.restoreCursor()
	case 'D':
		s.c.pendingWrap = false
		s.index()
	case 'E':
		s.c.pendingWrap = false
		s.c.x = 0
		s.index()
	case 'M':
		s.c.pendingWrap = false
		s.reverseIndex()
	case 'H':
		if s.c.x < s.cols {
			s.tabs[s.c.x] = true
		}
	case 'c':
		s.fullReset()
	case '=':
		s.appKeypad = true
	case '>':
		s.appKeypad = false
	}
}

func (s *Screen) stepString(b byte) {
	if s.strEsc {
		s.strEsc = false
		if b == '\\' {
			s.endString()
			return
		}
		// ESC then something else: the string is aborted, ESC starts anew
		s.state = stEscape
		s.escape(b)
		return
	}
	switch b {
	case 0x1b:
		s.strEsc = true
		return
	case 0x07:
		if s.state == stOSC {
			s.endString()
			return
		}
	case 0x18, 0x1a:
		s.state = stGround
		return
	}
	if s.state == stOSC && len(s.oscBuf) < 4096 {
		s.oscBuf = append(s.oscBuf, b)
	}
}

func (s *Screen) endString() {
	if s.state == stOSC {
		s.osc(string(s.oscBuf))
	}
	s.state = stGround
}

func (s *Screen) osc(str string) {
	num, rest, _ := strings.Cut(str, ";")
	switch num {
	case "0", "2":
		s.title = sanitizeTitle(rest)
	case "7":
		s.cwd = sanitizeTitle(rest)
	case "133":
		if rest == "" {
			return
		}
		m := Mark{Kind: rest[0], Line: s.CursorLine(), Code: -1}
		switch m.Kind {
		case 'A', 'B', 'C', 'D':
		default:
			return
		}
		if m.Kind == 'D' {
			if _, code, ok := strings.Cut(rest, ";"); ok {
				code, _, _ = strings.Cut(code, ";")
				if n, err := strconv.Atoi(code); err == nil {
					m.Code = n
				}
			}
		}
		if s.inAlt {
			return
		}
		s.marks = append(s.marks, m)
		if len(s.marks) > 4096 {
			s.marks = append(s.marks[:0], s.marks[len(s.marks)-2048:]...)
		}
	}
}

func sanitizeTitle(t string) string {
	t = strings.ToValidUTF8(t, "\uFFFD")
	var b strings.Builder
	for _, r := range t {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			continue
		}
		b.WriteRune(r)
	}
	out := b.String()
	if len(out) > 256 {
		out = strings.ToValidUTF8(out[:256], "")
	}
	return out
}

func (s *Screen) csiByte(b byte) {
	switch {
	case b >= '0' && b <= '9':
		if s.nparams == 0 {
			s.nparams = 1
			s.params[0] = 0
			s.sub[0] = false
		}
		p := &s.params[s.nparams-1]
		if *p < 100000 {
			*p = *p*10 + int(b-'0')
		}
		s.hasParam = true
	case b == ';' || b == ':':
		if s.nparams == 0 {
			s.nparams = 1
			s.params[0] = 0
			s.sub[0] = false
		}
		if s.nparams < len(s.params) {
			s.params[s.nparams] = 0
			s.sub[s.nparams] = b == ':'
			s.nparams++
		}
	case b >= '<' && b <= '?':
		s.private = b
	case b >= 0x20 && b <= 0x2f:
		s.inter = b
	case b >= 0x40 && b <= 0x7e:
		s.state = stGround
		s.csi(b)
	default:
		s.state = stGround
	}
}

func (s *Screen) param(i, def int) int {
	if i >= s.nparams || s.params[i] == 0 {
		return def
	}
	return s.params[i]
}

func (s *Screen) clampCursor() {
	if s.c.x >= s.cols {
		s.c.x = s.cols - 1
	}
	if s.c.x < 0 {
		s.c.x = 0
	}
	if s.c.y >= s.rows {
		s.c.y = s.rows - 1
	}
	if s.c.y < 0 {
		s.c.y = 0
	}
}

func (s *Screen) moveTo(x, y int) {
	s.c.pendingWrap = false
	if s.c.origin {
		y += s.top
		if y > s.bottom {
			y = s.bottom
		}
		if y < s.top {
			y = s.top
		}
	}
	s.c.x, s.c.y = x, y
	s.clampCursor()
}

func (s *Screen) csi(final byte) {
	if s.private == '?' {
		switch final {
		case 'h', 'l':
			for i := 0; i < max(s.nparams, 1); i++ {
				s.setPrivateMode(s.params[i], final == 'h')
			}
		}
		return
	}
	if s.private == '>' {
		if final == 'c' {
			s.replies = append(s.replies, "\x1b[>1;10;0c"...)
		}
		return
	}
	if s.private != 0 {
		return
	}
	if s.inter != 0 {
		if s.inter == '!' && final == 'p' {
			s.softReset()
		}
		return
	}
	n := s.param(0, 1)
	switch final {
	case '@':
		l := s.cur.row(s.c.y)
		s.insertCells(l, s.c.x, n)
		s.c.pendingWrap = false
	case 'A':
		s.cursorUpDown(-n)
	case 'B', 'e':
		s.cursorUpDown(n)
	case 'C', 'a':
		s.c.x += n
		s.c.pendingWrap = false
		s.clampCursor()
	case 'D':
		s.c.x -= n
		s.c.pendingWrap = false
		s.clampCursor()
	case 'E':
		s.cursorUpDown(n)
		s.c.x = 0
	case 'F':
		s.cursorUpDown(-n)
		s.c.x = 0
	case 'G', '`':
		s.c.x = n - 1
		s.c.pendingWrap = false
		s.clampCursor()
	case 'H', 'f':
		s.moveTo(s.param(1, 1)-1, n-1)
	case 'I':
		s.tab(n)
	case 'Z':
		s.backTab(n)
	case 'J':
		s.eraseDisplay(s.param(0, 0))
	case 'K':
		s.eraseLine(s.param(0, 0))
	case 'L':
		if s.c.y >= s.top && s.c.y <= s.bottom {
			s.scrollDown(s.c.y, s.bottom, n)
			s.c.x = 0
			s.c.pendingWrap = false
		}
	case 'M':
		if s.c.y >= s.top && s.c.y <= s.bottom {
			// DL never feeds the scrollback
			s.scrollUpRegionNoSB(s.c.y, s.bottom, n)
			s.c.x = 0
			s.c.pendingWrap = false
		}
	case 'P':
		s.deleteCells(n)
	case 'S':
		s.scrollUp(s.top, s.bottom, n)
	case 'T':
		s.scrollDown(s.top, s.bottom, n)
	case 'X':
		l := s.cur.row(s.c.y)
		end := min(s.c.x+n, s.cols)
		s.clearCells(l, s.c.x, end)
		s.c.pendingWrap = false
	case 'b':
		if s.lastRune != 0 {
			for i := 0; i < min(n, 65535); i++ {
				s.print(s.lastRune, s.lastWidth)
			}
		}
	case 'c':
		if s.param(0, 0) == 0 {
			s.replies = append(s.replies, "\x1b[?62;22c"...)
		}
	case 'd':
		s.moveTo(s.c.x, n-1)
	case 'g':
		switch s.param(0, 0) {
		case 0:
			if s.c.x < s.cols {
				s.tabs[s.c.x] = false
			}
		case 3:
			for i := range s.tabs {
				s.tabs[i] = false
			}
		}
	case 'h', 'l':
		for i := 0; i < s.nparams; i++ {
			if s.params[i] == 4 {
				s.insert = final == 'h'
			}
		}
	case 'm':
		s.sgr()
	case 'n':
		switch s.param(0, 0) {
		case 5:
			s.replies = append(s.replies, "\x1b[0n"...)
		case 6:
			y := s.c.y
			if s.c.origin {
				y -= s.top
			}
			s.replies = append(s.replies, "\x1b["+strconv.Itoa(y+1)+";"+strconv.Itoa(s.c.x+1)+"R"...)
		}
	case 'r':
		top := s.param(0, 1) - 1
		bottom := s.param(1, s.rows) - 1
		if bottom >= s.rows {
			bottom = s.rows - 1
		}
		if top < bottom {
			s.top, s.bottom = top, bottom
			s.moveTo(0, 0)
		}
	case 's':
		s.saveCursor()
	case 'u':
		s.restoreCursor()
	}
}

func (s *Screen) cursorUpDown(n int) {
	s.c.pendingWrap = false
	y := s.c.y + n
	if n < 0 && s.c.y >= s.top && y < s.top {
		y = s.top
	}
	if n > 0 && s.c.y <= s.bottom && y > s.bottom {
		y = s.bottom
	}
	s.c.y = y
	s.clampCursor()
}

func (s *Screen) scrollUpRegionNoSB(top, bottom, n int) {
	if top == 0 && bottom == s.rows-1 {
		// do it by hand so nothing enters the scrollback
		if n > s.rows {
			n = s.rows
		}
		r := s.cur
		for i := 0; i < n; i++ {
			first := r.row(0)
			first.reset(s.cols, s.c.style)
			r.top = (r.top + 1) % len(r.lines)
		}
		return
	}
	s.scrollUp(top, bottom, n)
}

func (s *Screen) clearCells(l *Line, from, to int) {
	if from < 0 {
		from = 0
	}
	if to > len(l.Cells) {
		to = len(l.Cells)
	}
	if from >= to {
		return
	}
	if from > 0 && l.Cells[from].Width == 0 {
		s.fixWide(l, from)
	}
	if to < len(l.Cells) && l.Cells[to].Width == 0 {
		l.Cells[to] = Cell{Width: 1, Style: Style{Bg: l.Cells[to].Style.Bg}}
	}
	blank := Cell{Width: 1, Style: Style{Bg: s.c.style.Bg}}
	for i := from; i < to; i++ {
		l.Cells[i] = blank
	}
	if l.comb != nil {
		for i := from; i < to; i++ {
			delete(l.comb, i)
		}
	}
}

func (s *Screen) insertCells(l *Line, x, n int) {
	if x >= s.cols {
		return
	}
	if n > s.cols-x {
		n = s.cols - x
	}
	if l.Cells[x].Width == 0 {
		s.fixWide(l, x)
	}
	copy(l.Cells[x+n:], l.Cells[x:s.cols-n])
	s.clearCells(l, x, x+n)
	if last := l.Cells[s.cols-1]; last.Width == 2 {
		l.Cells[s.cols-1] = Cell{Width: 1, Style: Style{Bg: last.Style.Bg}}
	}
	l.comb = nil
}

func (s *Screen) deleteCells(n int) {
	l := s.cur.row(s.c.y)
	x := s.c.x
	if n > s.cols-x {
		n = s.cols - x
	}
	if l.Cells[x].Width == 0 {
		s.fixWide(l, x)
	}
	copy(l.Cells[x:], l.Cells[x+n:])
	if l.Cells[x].Width == 0 {
		l.Cells[x] = Cell{Width: 1, Style: Style{Bg: l.Cells[x].Style.Bg}}
	}
	s.clearCells(l, s.cols-n, s.cols)
	l.comb = nil
	s.c.pendingWrap = false
}

func (s *Screen) eraseLine(mode int) {
	l := s.cur.row(s.c.y)
	switch mode {
	case 0:
		s.clearCells(l, s.c.x, s.cols)
		l.Wrapped = false
	case 1:
		s.clearCells(l, 0, s.c.x+1)
	case 2:
		s.clearCells(l, 0, s.cols)
		l.Wrapped = false
	}
	s.c.pendingWrap = false
}

func (s *Screen) eraseDisplay(mode int) {
	switch mode {
	case 0:
		s.eraseLine(0)
		for y := s.c.y + 1; y < s.rows; y++ {
			s.cur.row(y).reset(s.cols, s.c.style)
		}
	case 1:
		s.eraseLine(1)
		for y := 0; y < s.c.y; y++ {
			s.cur.row(y).reset(s.cols, s.c.style)
		}
	case 2:
		for y := 0; y < s.rows; y++ {
			s.cur.row(y).reset(s.cols, s.c.style)
		}
	case 3:
		if !s.inAlt {
			s.sbLen, s.sbStart = 0, 0
			s.sb = nil
			s.pruneMarks()
		}
	}
	s.c.pendingWrap = false
}

func (s *Screen) saveCursor() {
	if s.inAlt {
		s.savedAlt = s.c
	} else {
		s.saved = s.c
	}
}

func (s *Screen) restoreCursor() {
	if s.inAlt {
		s.c = s.savedAlt
	} else {
		s.c = s.saved
	}
	if s.c.charsetG0 == 0 {
		s.c.charsetG0 = 'B'
	}
	s.clampCursor()
}

func (s *Screen) setPrivateMode(m int, on bool) {
	switch m {
	case 1:
		s.appCursor = on
	case 6:
		s.c.origin = on
		s.moveTo(0, 0)
	case 7:
		s.autowrap = on
		if !on {
			s.c.pendingWrap = false
		}
	case 25:
		s.cursorHidden = !on
	case 47, 1047:
		s.setAlt(on, false)
	case 1049:
		if on {
			s.saveCursor()
			s.setAlt(true, true)
		} else {
			s.setAlt(false, false)
			s.restoreCursor()
		}
	case 1000, 1002, 1003:
		if on {
			s.mouseMode = m
		} else {
			s.mouseMode = 0
		}
	case 1006:
		s.mouseSGR = on
	case 2004:
		s.bracketPaste = on
	}
}

func (s *Screen) setAlt(on, clear bool) {
	if on == s.inAlt {
		if on && clear {
			for y := 0; y < s.rows; y++ {
				s.alt.row(y).reset(s.cols, Style{})
			}
		}
		return
	}
	s.inAlt = on
	if on {
		s.cur = &s.alt
		if clear {
			for y := 0; y < s.rows; y++ {
				s.alt.row(y).reset(s.cols, Style{})
			}
		}
	} else {
		s.cur = &s.main
	}
	s.c.pendingWrap = false
}

func (s *Screen) softReset() {
	s.cursorHidden = false
	s.insert = false
	s.c.origin = false
	s.autowrap = true
	s.appCursor = false
	s.top, s.bottom = 0, s.rows-1
	s.c.style = Style{}
	s.c.charsetG0 = 'B'
	s.saved = cursor{charsetG0: 'B'}
}

func (s *Screen) fullReset() {
	cols, rows, sb := s.cols, s.rows, s.sbMax
	scrolled := s.scrolled
	keepSB, keepStart, keepLen := s.sb, s.sbStart, s.sbLen
	marks := s.marks
	*s = *NewScreen(cols, rows, sb)
	s.cur = &s.main
	s.scrolled = scrolled
	s.sb, s.sbStart, s.sbLen = keepSB, keepStart, keepLen
	s.marks = marks
}

func (s *Screen) sgr() {
	if s.nparams == 0 {
		s.c.style = Style{}
		return
	}
	st := &s.c.style
	for i := 0; i < s.nparams; i++ {
		p := s.params[i]
		switch {
		case p == 0:
			*st = Style{}
		case p == 1:
			st.Attr |= AttrBold
		case p == 2:
			st.Attr |= AttrFaint
		case p == 3:
			st.Attr |= AttrItalic
		case p == 4:
			// 4:0 means no underline
			if i+1 < s.nparams && s.sub[i+1] {
				if s.params[i+1] == 0 {
					st.Attr &^= AttrUnderline
				} else {
					st.Attr |= AttrUnderline
				}
				for i+1 < s.nparams && s.sub[i+1] {
					i++
				}
			} else {
				st.Attr |= AttrUnderline
			}
		case p == 5 || p == 6:
			st.Attr |= AttrBlink
		case p == 7:
			st.Attr |= AttrReverse
		case p == 8:
			st.Attr |= AttrInvisible
		case p == 9:
			st.Attr |= AttrStrike
		case p == 21:
			st.Attr |= AttrUnderline
		case p == 22:
			st.Attr &^= AttrBold | AttrFaint
		case p == 23:
			st.Attr &^= AttrItalic
		case p == 24:
			st.Attr &^= AttrUnderline
		case p == 25:
			st.Attr &^= AttrBlink
		case p == 27:
			st.Attr &^= AttrReverse
		case p == 28:
			st.Attr &^= AttrInvisible
		case p == 29:
			st.Attr &^= AttrStrike
		case p >= 30 && p <= 37:
			st.Fg = PaletteColor(p - 30)
		case p == 39:
			st.Fg = 0
		case p >= 40 && p <= 47:
			st.Bg = PaletteColor(p - 40)
		case p == 49:
			st.Bg = 0
		case p >= 90 && p <= 97:
			st.Fg = PaletteColor(p - 90 + 8)
		case p >= 100 && p <= 107:
			st.Bg = PaletteColor(p - 100 + 8)
		case p == 38 || p == 48 || p == 58:
			c, next := s.extColor(i)
			i = next
			if p == 38 {
				st.Fg = c
			} else if p == 48 {
				st.Bg = c
			}
		default:
			// skip sub-parameters of unknown attributes
			for i+1 < s.nparams && s.sub[i+1] {
				i++
			}
		}
	}
}

// extColor reads 38;5;n / 38;2;r;g;b and their colon forms starting at
// param i; it returns the colour and the index of the last param used.
func (s *Screen) extColor(i int) (Color, int) {
	if i+1 >= s.nparams {
		return 0, i
	}
	colon := s.sub[i+1]
	if colon {
		// collect the sub-parameters
		j := i + 1
		var sp []int
		for j < s.nparams && s.sub[j] {
			sp = append(sp, s.params[j])
			j++
		}
		last := j - 1
		if len(sp) >= 2 && sp[0] == 5 {
			return PaletteColor(sp[1]), last
		}
		if len(sp) >= 4 && sp[0] == 2 {
			if len(sp) >= 5 {
				return RGBColor(sp[2], sp[3], sp[4]), last
			}
			return RGBColor(sp[1], sp[2], sp[3]), last
		}
		return 0, last
	}
	switch s.params[i+1] {
	case 5:
		if i+2 < s.nparams {
			return PaletteColor(s.params[i+2]), i + 2
		}
		return 0, s.nparams - 1
	case 2:
		if i+4 < s.nparams {
			return RGBColor(s.params[i+2], s.params[i+3], s.params[i+4]), i + 4
		}
		return 0, s.nparams - 1
	}
	return 0, i + 1
}

// Resize changes the screen size. Lines are cut or padded (no reflow). When
// rows shrink, rows above the cursor go to the scrollback so the cursor
// stays on screen.
func (s *Screen) Resize(cols, rows int) {
	if cols < 1 {
		cols = 1
	}
	if rows < 1 {
		rows = 1
	}
	if cols == s.cols && rows == s.rows {
		return
	}
	// shrink rows: push lines off the top of the main screen while the
	// cursor would fall below
	for _, alt := range []bool{false, true} {
		r := &s.main
		if alt {
			r = &s.alt
		}
		lines := make([]*Line, 0, s.rows)
		for y := 0; y < s.rows; y++ {
			lines = append(lines, r.row(y))
		}
		curY := s.c.y
		if alt != s.inAlt {
			curY = -1
		}
		// drop from the top while the cursor would be off screen
		for len(lines) > rows && curY >= rows {
			if !alt {
				if ev := s.pushScrollback(lines[0]); ev != nil {
					_ = ev
				}
				s.scrolled++
			}
			lines = lines[1:]
			curY--
		}
		if len(lines) > rows {
			lines = lines[:rows]
		}
		for len(lines) < rows {
			l := &Line{}
			l.reset(cols, Style{})
			lines = append(lines, l)
		}
		for _, l := range lines {
			resizeLine(l, cols)
		}
		r.lines, r.top = lines, 0
		if alt == s.inAlt && curY >= 0 {
			s.c.y = curY
		}
	}
	if !s.inAlt {
		// the saved alt-cursor adjusts nothing
	}
	s.cols, s.rows = cols, rows
	s.top, s.bottom = 0, rows-1
	s.resetTabs()
	s.c.pendingWrap = false
	s.clampCursor()
	for _, c := range []*cursor{&s.saved, &s.savedAlt} {
		c.x = min(c.x, cols-1)
		c.y = min(c.y, rows-1)
	}
}

func resizeLine(l *Line, cols int) {
	n := len(l.Cells)
	if n == cols {
		return
	}
	if n > cols {
		l.Cells = l.Cells[:cols]
		if cols > 0 && l.Cells[cols-1].Width == 2 {
			l.Cells[cols-1] = Cell{Width: 1}
		}
		for k := range l.comb {
			if k >= cols {
				delete(l.comb, k)
			}
		}
		l.Wrapped = false
		return
	}
	nc := make([]Cell, cols)
	copy(nc, l.Cells)
	for i := n; i < cols; i++ {
		nc[i] = Cell{Width: 1}
	}
	l.Cells = nc
}
