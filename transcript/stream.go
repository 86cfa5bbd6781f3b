package transcript

import (
	"strings"

	gstyles "charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// The open block of a streaming reply. Glamour renders a block in
// milliseconds, and the open block changes with every chunk, so while a
// reply streams its open block is drawn by a cheap path instead: line by
// line, each completed source line styled and wrapped once and kept (a
// heading bold in the heading colour, a list item with its bullet, a line
// of a fence highlighted by chroma on its own, with the code's margin), and
// only the partial last line drawn again per frame. A frame costs the new
// lines, not the block. When the block completes it is rendered through
// glamour once and cached like every completed block; when the reply ends
// its last block is too. So the drawing of a block changes once, when it
// completes.

// streamDraw is the cheap drawing of one open block: the rows of its
// completed lines, and the fence state after them.
type streamDraw struct {
	ok    bool
	lo    int   // the block's start
	fence int32 // the fence it continues (as blk.fence)
	w     int   // the width drawn at
	done  int   // source offset up to which complete lines are drawn
	rows  []string

	// prose: a line outside a fence was drawn (a block of code alone is
	// drawn by this path exactly as rendered in full: its drawing is its
	// render).
	prose   bool
	inFence bool
	fc      byte
	fn      int
	hl      *diffHighlighter // the open fence's highlighter (nil lexer: plain)
}

// streamLooks are the cheap path's styles, derived once from the glamour
// style.
type streamLooks struct {
	ok            bool
	body, heading lipgloss.Style
	code          *chroma.Style
}

func (m *Model) streamLooks() *streamLooks {
	sl := &m.sLooks
	if sl.ok {
		return sl
	}
	sl.ok = true
	sl.body, sl.heading = lipgloss.NewStyle(), lipgloss.NewStyle().Bold(true)
	if m.noColor {
		return sl
	}
	if base, ok := gstyles.DefaultStyles[m.style]; ok {
		if c := base.Document.Color; c != nil {
			sl.body = sl.body.Foreground(lipgloss.Color(*c))
		}
		if c := base.Heading.Color; c != nil {
			sl.heading = sl.heading.Foreground(lipgloss.Color(*c))
		}
	}
	if s := codeStyle(m.style); s != "" {
		sl.code = styles.Get(s)
	}
	return sl
}

// fullPerFrame is how many completed blocks of a streaming reply the
// frame after the text grew renders through glamour (SetItem and SetText
// grant it, grew; other frames — a key, a tick — render none, so a key
// costs no glamour while a reply streams); the others it reaches are
// drawn by the cheap path until a later frame has room (the newest first:
// the walk from the bottom reaches it first). A frame after the text grew
// by more than slowGrowth renders none either: such a stream scrolls its
// blocks past faster than a reader reads them (and a frame can render
// only one), so they wait until the reply ends, or until they are
// scrolled back to. A slow stream has every block rendered a frame after
// it completes.
const (
	fullPerFrame = 1
	slowGrowth   = 1 << 10
)

// grew notes that a text grew by n bytes since the last frame, and
// grants the next frame its full render unless it grew fast.
func (m *Model) grew(n int) {
	m.grown += max(n, 0)
	m.fullBudget = 0
	if m.grown <= slowGrowth {
		m.fullBudget = fullPerFrame
	}
}

// cheapGen is the generation a part's cheap drawing is cached under (the
// full render is cached under 0).
const cheapGen = 1

// streamPart draws block b of a streaming reply's text view when the cheap
// path does: the open block always, a completed block when its full render
// is not cached and this frame has rendered its share. ok false: render it
// in full (the frame's budget is taken).
func (m *Model) streamPart(tv *textView, b *blk, cw int) (lines []string, ok bool) {
	if b == &tv.open {
		m.streamed++
		return m.drawStream(&tv.stream, tv.src, b, cw, false), true
	}
	bp := tv.cache(b)
	if _, ok := bp.get(cw, 0); ok {
		return nil, false
	}
	if ls, ok := bp.get(cw, cheapGen); ok && m.fullBudget == 0 {
		return ls, true
	}
	// A block that may be code alone is drawn on, from where its drawing
	// stopped when it completed.
	if b.fence != 0 || startsFence(tv.src.Slice(b.lo, b.hi)) {
		var sd streamDraw
		if tv.closed.ok && tv.closed.lo == b.lo {
			sd, tv.closed = tv.closed, streamDraw{}
		}
		m.streamed++
		ls := m.drawStream(&sd, tv.src, b, cw, true)
		if !sd.prose {
			m.ring.add(bp)
			return bp.set(ls, cw, 0), true
		}
	}
	if m.fullBudget > 0 {
		m.fullBudget--
		return nil, false
	}
	m.streamed++
	m.ring.add(bp)
	var sd streamDraw
	return bp.set(m.drawStream(&sd, tv.src, b, cw, true), cw, cheapGen), true
}

// startsFence reports whether src's first line opens a fence.
func startsFence(src string) bool {
	if i := strings.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	_, _, ok := fenceOpen(src)
	return ok
}

// drawStream draws block b of src at width cw by the cheap path, sd
// keeping the rows of its completed lines from one frame to the next.
// complete: the block has ended (its last line is complete).
func (m *Model) drawStream(sd *streamDraw, src message.Text, b *blk, cw int, complete bool) []string {
	if !sd.ok || sd.lo != b.lo || sd.fence != b.fence || sd.w != cw || sd.done > b.hi+1 {
		*sd = streamDraw{ok: true, lo: b.lo, fence: b.fence, w: cw, done: b.lo}
		if b.fence != 0 {
			m.streamFence(sd, fenceAt(src, b.fence))
		}
	}
	end := min(src.Len(), b.hi+1) // a line ending at hi is complete when its newline follows
	w := win{t: src, s: src.Slice(b.lo, end), base: b.lo}
	var code []string // complete lines of a fence, highlighted together
	for sd.done < end {
		nl := strings.IndexByte(w.sl(sd.done, end), '\n')
		if nl < 0 {
			break
		}
		line := cleanLine(w.sl(sd.done, sd.done+nl))
		sd.done += nl + 1
		if sd.inFence && !fenceCloses(line, sd.fc, sd.fn) {
			code = append(code, line)
			continue
		}
		sd.rows, code = m.codeRows(sd, sd.rows, code, cw), code[:0]
		sd.rows = m.streamLine(sd, sd.rows, line, cw, true)
	}
	sd.rows = m.codeRows(sd, sd.rows, code, cw)
	rows := sd.rows
	if sd.done < b.hi {
		rows = m.streamLine(sd, rows[:len(rows):len(rows)], cleanLine(w.sl(sd.done, b.hi)), cw, complete)
	}
	if len(rows) == 0 {
		return []string{""}
	}
	return rows
}

// cleanLine is a source line as the cheap path draws it: sanitized, tabs
// expanded, reference links as their bracketed label.
func cleanLine(line string) string {
	line = chips.SanitizeLine(chips.ExpandTabs(strings.TrimRight(line, "\r")))
	if contextref.HasReferences(line) {
		line = contextref.Replace(line, func(o contextref.Occurrence) string { return "[" + o.Label + "]" })
	}
	return line
}

// codeRows appends the rows of complete lines of the open fence, each
// lexed on its own, once, when it completes: a line's colours do not
// depend on how the text arrived (lines that came in one chunk or in
// many are drawn alike). A token over several lines (a raw string, a
// block comment) is coloured right once the block completes and is drawn
// whole.
func (m *Model) codeRows(sd *streamDraw, rows, code []string, cw int) []string {
	lex := sd.hl != nil && sd.hl.lexer != nil
	for _, l := range code {
		if lex {
			if toks := sd.hl.lines(l + "\n"); len(toks) > 0 {
				l = sd.hl.paint(toks[0], nil)
			}
		}
		for _, r := range wrapIndent("  "+l, cw) {
			rows = append(rows, closeLine(r))
		}
	}
	return rows
}

// streamFence opens a fence at its opening line.
func (m *Model) streamFence(sd *streamDraw, line string) {
	c, n, ok := fenceOpen(line)
	if !ok {
		return
	}
	sd.inFence, sd.fc, sd.fn = true, c, n
	sd.hl = &diffHighlighter{}
	sl := m.streamLooks()
	if sl.code == nil {
		return
	}
	info := strings.Fields(strings.TrimLeft(strings.TrimLeft(line, " \t"), string(c)) + " ")
	if len(info) > 0 {
		if lx := lexerFor(info[0], ""); lx != nil {
			sd.hl.lexer, sd.hl.style = chroma.Coalesce(lx), sl.code
		}
	}
}

// streamLine appends the rows of one clean source line to rows. complete:
// the line has ended (a partial line changes no state and is drawn
// plain).
func (m *Model) streamLine(sd *streamDraw, rows []string, line string, cw int, complete bool) []string {
	sl := m.streamLooks()
	if sd.inFence {
		if fenceCloses(line, sd.fc, sd.fn) {
			if complete {
				sd.inFence, sd.hl = false, nil
			}
			return rows
		}
		if complete {
			return m.codeRows(sd, rows, []string{line}, cw)
		}
		for _, r := range wrapIndent("  "+line, cw) {
			rows = append(rows, closeLine(r))
		}
		return rows
	}
	if _, _, ok := fenceOpen(line); ok && complete {
		if len(rows) > 0 && rows[len(rows)-1] != "" {
			rows = append(rows, "")
		}
		m.streamFence(sd, line)
		return rows
	}
	if isBlank(line) {
		if len(rows) > 0 && rows[len(rows)-1] != "" {
			rows = append(rows, "")
		}
		return rows
	}
	sd.prose = true
	st := sl.body
	t := strings.TrimLeft(line, " ")
	switch {
	case strings.HasPrefix(t, "#"):
		h := strings.TrimLeft(t, "#")
		if len(t)-len(h) <= 6 && (h == "" || h[0] == ' ') {
			line, st = strings.TrimSpace(h), sl.heading
		}
	case listMarker(line) && (t[0] == '-' || t[0] == '*' || t[0] == '+'):
		line = line[:len(line)-len(t)] + "•" + t[1:]
	}
	for _, r := range wrapIndent(line, cw) {
		rows = append(rows, st.Render(r))
	}
	return rows
}
