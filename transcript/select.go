package transcript

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chipchat/chipchat/chips"
	"github.com/chipchat/chipchat/contextref"
	"github.com/chipchat/chipchat/message"
)

// The selection mode (one for the reply's text and for diffs). v on a
// reply's text item starts a selection over the reply's text — the
// Markdown source of its text items joined by a blank line, whitespace
// runs collapsed to one space (DESIGN.md 3.8) — one word at first, at the
// top of what is on screen. v on a tool call with a diff selects diff
// lines instead. Motions move the selection's moving end (w/b, →/← a
// word, j/k, ↓/↑ a sentence — in a diff a line —, o swaps the ends); y
// copies, q quotes, Q quotes with a comment (QuoteMsg), c comments on a
// diff selection (CommentDiffMsg), esc leaves. The selection is shown in a
// box over the bottom rows, and the blocks it covers are marked in the
// gutter.

// QuoteMsg asks the app to quote part of a reply: the citation link it
// builds goes at the composer's caret. Start and End are UTF-16 offsets
// into the reply's text (the Markdown source of its text items joined by a
// blank line, whitespace runs collapsed to one space); Text is that range
// of it (at most 8000 units), Prefix and Suffix up to 32 units around it.
// WithComment: the user wants to add a comment (Q).
type QuoteMsg struct {
	MessageID      string
	Text           string
	Start, End     int
	Prefix, Suffix string
	WithComment    bool
}

// Citation is the quote's citation as the contract writes it, in the
// environment envID's thread threadID, checked by parsing its own link
// back.
func (q QuoteMsg) Citation(envID, threadID string) (*contextref.Citation, error) {
	cit := &contextref.Citation{Version: 1, EnvironmentID: envID, ThreadID: threadID, MessageID: q.MessageID,
		Text: q.Text, Start: int64(q.Start), End: int64(q.End), Prefix: q.Prefix, Suffix: q.Suffix}
	return contextref.ParseCitationHref(cit.Href())
}

// CommentDiffMsg asks the app to start a review comment on the selected
// lines of a tool call's diff.
type CommentDiffMsg struct {
	MessageID, ItemID, CallID string
	Path                      string
	// Diff is the selected rows as unified diff lines (" ", "-", "+").
	Diff string
	// OldText and NewText are the selected rows' old and new sides.
	OldText, NewText string
	// StartLine and EndLine are the new file's line range the rows cover,
	// OldStart and OldEnd the old file's (0 when the rows have no line
	// of that side, or the diff's lines are unknown).
	StartLine, EndLine int
	OldStart, OldEnd   int
}

// Bounds of a quote (DESIGN.md 3.8).
const (
	quoteMaxUnits  = 8000
	quoteAffixUnit = 32
)

type selection struct {
	active bool
	at     stop // the item the selection started on
	diff   bool

	// Text: the reply's words and its normalized text.
	norm           string
	words          []word
	anchor, cursor int

	// Diff: the diff's rows (no hunk headers).
	rows      []diffLine
	ci        int // the content index of the diff
	rowAnchor int
	rowCursor int
}

// word is one run of non-space characters of the reply's text.
type word struct {
	item         int // index of the text item among the reply's items
	lo, hi       int // bytes in that item's text
	nlo, nhi     int // bytes in norm
	ulo, uhi     int // UTF-16 units in norm
	sentenceEnds bool
}

// jsSpace reports whether r is white space for JavaScript's \s.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// units is the length of s in UTF-16 units.
func units(s string) int {
	n := 0
	for _, r := range s {
		if u := utf16.RuneLen(r); u > 0 {
			n += u
		} else {
			n++
		}
	}
	return n
}

// replyWords splits the reply's text items into words and builds the
// normalized text: the items joined by a blank line, each whitespace run
// one space.
func replyWords(items []*itemView) (string, []word) {
	var b strings.Builder
	var words []word
	u := 0
	pendingSpace := false
	started := false
	for k, iv := range items {
		if iv.it.Kind != message.ItemText {
			continue
		}
		if started {
			pendingSpace = true // the blank line between items
		}
		started = true
		t := iv.it.Body().String() // a long text joined: what a selection reads
		for i := 0; i < len(t); {
			r, n := utf8.DecodeRuneInString(t[i:])
			if jsSpace(r) {
				pendingSpace = true
				i += n
				continue
			}
			j := i
			for j < len(t) {
				r2, n2 := utf8.DecodeRuneInString(t[j:])
				if jsSpace(r2) {
					break
				}
				j += n2
			}
			if pendingSpace {
				b.WriteByte(' ')
				u++
				pendingSpace = false
			}
			w := word{item: k, lo: i, hi: j, nlo: b.Len(), ulo: u}
			b.WriteString(t[i:j])
			u += units(t[i:j])
			w.nhi, w.uhi = b.Len(), u
			last, _ := utf8.DecodeLastRuneInString(t[i:j])
			w.sentenceEnds = strings.ContainsRune(".!?:;", last)
			words = append(words, w)
			i = j
		}
	}
	if pendingSpace && b.Len() > 0 {
		b.WriteByte(' ')
	}
	return b.String(), words
}

// startSelection starts the selection on the focused item.
func (m *Model) startSelection() {
	s := m.cur()
	if s.it < 0 {
		return
	}
	vs := m.views(s.i)
	iv := vs[s.it]
	switch iv.it.Kind {
	case message.ItemText:
		norm, words := replyWords(vs)
		if len(words) == 0 {
			return
		}
		first := 0
		// The first word of the topmost block on screen, when the anchor
		// is in this reply's text.
		if m.top.i == s.i && m.top.it >= 0 && vs[m.top.it].it.Kind == message.ItemText {
			if b := m.textOf(s.i, m.top.it).part(m.top.k); b != nil {
				for k, w := range words {
					if w.item == m.top.it && w.lo >= b.lo {
						first = k
						break
					}
				}
			}
		} else {
			for k, w := range words {
				if w.item == s.it {
					first = k
					break
				}
			}
		}
		m.sel2 = selection{active: true, at: s, norm: norm, words: words, anchor: first, cursor: first}
	case message.ItemTool:
		if iv.it.Tool == nil {
			return
		}
		for ci, c := range iv.it.Tool.Content {
			if c.Type != message.ContentDiff {
				continue
			}
			var rows []diffLine
			for _, r := range unifiedLines(c) {
				if !r.hunk {
					rows = append(rows, r)
				}
			}
			if len(rows) == 0 {
				continue
			}
			first := 0
			for k, r := range rows {
				if r.kind != diffEqual {
					first = k
					break
				}
			}
			m.sel2 = selection{active: true, at: s, diff: true, rows: rows, ci: ci, rowAnchor: first, rowCursor: first}
			return
		}
	}
	if m.sel2.active {
		m.pop = popover{}
	}
}

// SelectionActive reports whether the selection mode is on (esc belongs to
// the transcript then).
func (m *Model) SelectionActive() bool { return m.sel2.active }

func (m *Model) selectionKey(msg tea.KeyPressMsg) tea.Cmd {
	s := &m.sel2
	k := msg.String()
	switch {
	case key.Matches(msg, m.Keys.Close) || k == "v":
		m.sel2 = selection{}
		return nil
	}
	if s.diff {
		switch k {
		case "j", "down", "w", "right":
			s.rowCursor = min(len(s.rows)-1, s.rowCursor+1)
		case "k", "up", "b", "left":
			s.rowCursor = max(0, s.rowCursor-1)
		case "o":
			s.rowAnchor, s.rowCursor = s.rowCursor, s.rowAnchor
		case "y":
			lo, hi := s.rowRange()
			cm := CopyMsg{MessageID: m.ents[s.at.i].msg.ID, Markdown: diffText(s.rows[lo : hi+1])}
			m.sel2 = selection{}
			return func() tea.Msg { return cm }
		case "c":
			cm := m.commentDiff()
			m.sel2 = selection{}
			return func() tea.Msg { return cm }
		}
		return nil
	}
	switch k {
	case "w", "right", "l":
		s.cursor = min(len(s.words)-1, s.cursor+1)
	case "b", "left", "h":
		s.cursor = max(0, s.cursor-1)
	case "j", "down", ")":
		c := s.cursor
		for c < len(s.words)-1 {
			c++
			if s.words[c].sentenceEnds {
				break
			}
		}
		s.cursor = c
	case "k", "up", "(":
		c := s.cursor
		for c > 0 {
			c--
			if c > 0 && s.words[c-1].sentenceEnds {
				break
			}
		}
		s.cursor = c
	case "o":
		s.anchor, s.cursor = s.cursor, s.anchor
	case "y":
		cm := CopyMsg{MessageID: m.ents[s.at.i].msg.ID, Markdown: m.selectedSource()}
		m.sel2 = selection{}
		return func() tea.Msg { return cm }
	case "q", "Q":
		qm := m.quote(k == "Q")
		m.sel2 = selection{}
		return func() tea.Msg { return qm }
	default:
		return nil
	}
	m.revealCursor()
	return nil
}

func (s *selection) wordRange() (int, int) {
	return min(s.anchor, s.cursor), max(s.anchor, s.cursor)
}

func (s *selection) rowRange() (int, int) {
	return min(s.rowAnchor, s.rowCursor), max(s.rowAnchor, s.rowCursor)
}

// quote is the QuoteMsg of the selected words: at most quoteMaxUnits
// units (the end moves back to fit), with up to quoteAffixUnit units of
// the normalized text on each side.
func (m *Model) quote(withComment bool) QuoteMsg {
	s := &m.sel2
	lo, hi := s.wordRange()
	a, b := s.words[lo], s.words[hi]
	for hi > lo && b.uhi-a.ulo > quoteMaxUnits {
		hi--
		b = s.words[hi]
	}
	nhi, uhi := b.nhi, b.uhi
	if uhi-a.ulo > quoteMaxUnits { // one word longer than a quote may be
		nhi = cutUnits(s.norm, a.nlo, quoteMaxUnits)
		uhi = a.ulo + units(s.norm[a.nlo:nhi])
	}
	return QuoteMsg{
		MessageID:   m.ents[s.at.i].msg.ID,
		Text:        s.norm[a.nlo:nhi],
		Start:       a.ulo,
		End:         uhi,
		Prefix:      lastUnits(s.norm[:a.nlo], quoteAffixUnit),
		Suffix:      s.norm[nhi:cutUnits(s.norm, nhi, quoteAffixUnit)],
		WithComment: withComment,
	}
}

// cutUnits is the byte offset in s after at most n UTF-16 units from
// byte from (never inside a character).
func cutUnits(s string, from, n int) int {
	i := from
	for i < len(s) {
		r, sz := utf8.DecodeRuneInString(s[i:])
		u := utf16.RuneLen(r)
		if u < 0 {
			u = 1
		}
		if n < u {
			break
		}
		n -= u
		i += sz
	}
	return i
}

// lastUnits is the end of s holding at most n UTF-16 units.
func lastUnits(s string, n int) string {
	i := len(s)
	for i > 0 {
		r, sz := utf8.DecodeLastRuneInString(s[:i])
		u := utf16.RuneLen(r)
		if u < 0 {
			u = 1
		}
		if n < u {
			break
		}
		n -= u
		i -= sz
	}
	return s[i:]
}

// selectedSource is the Markdown source the selected words span (items
// joined by a blank line).
func (m *Model) selectedSource() string {
	s := &m.sel2
	lo, hi := s.wordRange()
	vs := m.views(s.at.i)
	var parts []string
	for w := lo; w <= hi; {
		item := s.words[w].item
		end := w
		for end+1 <= hi && s.words[end+1].item == item {
			end++
		}
		parts = append(parts, vs[item].it.Body().Slice(s.words[w].lo, s.words[end].hi))
		w = end + 1
	}
	return strings.Join(parts, "\n\n")
}

func diffText(rows []diffLine) string {
	var b strings.Builder
	for _, r := range rows {
		switch r.kind {
		case diffDelete:
			b.WriteByte('-')
		case diffInsert:
			b.WriteByte('+')
		default:
			b.WriteByte(' ')
		}
		b.WriteString(r.text)
		b.WriteByte('\n')
	}
	return b.String()
}

// commentDiff is the CommentDiffMsg of the selected diff rows.
func (m *Model) commentDiff() CommentDiffMsg {
	s := &m.sel2
	iv := m.views(s.at.i)[s.at.it]
	c := iv.it.Tool.Content[s.ci]
	lo, hi := s.rowRange()
	rows := s.rows[lo : hi+1]
	cm := CommentDiffMsg{MessageID: m.ents[s.at.i].msg.ID, ItemID: iv.it.ID, CallID: iv.it.Tool.CallID, Path: c.Path, Diff: diffText(rows)}
	var oldB, newB strings.Builder
	for _, r := range rows {
		if r.kind != diffInsert {
			oldB.WriteString(r.text + "\n")
			cm.OldStart, cm.OldEnd = firstSet(cm.OldStart, r.old), r.old
		}
		if r.kind != diffDelete {
			newB.WriteString(r.text + "\n")
			cm.StartLine, cm.EndLine = firstSet(cm.StartLine, r.new), r.new
		}
	}
	cm.OldText, cm.NewText = oldB.String(), newB.String()
	return cm
}

func firstSet(cur, v int) int {
	if cur == 0 {
		return v
	}
	return cur
}

// revealCursor scrolls the block holding the selection's moving end into
// view.
func (m *Model) revealCursor() {
	s := &m.sel2
	if s.diff || len(s.words) == 0 {
		return
	}
	w := s.words[s.cursor]
	tv := m.textOf(s.at.i, w.item)
	for k := 0; k < tv.count(); k++ {
		if b := tv.part(k); b != nil && w.lo < max(b.hi, b.lo+1) && w.lo >= b.lo {
			m.ensureSpan(ppos{s.at.i, w.item, k}, 0, m.ph(ppos{s.at.i, w.item, k}), max(1, m.height-m.selBoxHeight()))
			return
		}
	}
}

// covered reports whether the selection covers part q (its gutter shows
// the selection mark).
func (m *Model) covered(q ppos) bool {
	s := &m.sel2
	if !s.active || q.i != s.at.i || q.it < 0 {
		return false
	}
	if s.diff {
		return q.it == s.at.it
	}
	lo, hi := s.wordRange()
	a, b := s.words[lo], s.words[hi]
	iv := m.views(q.i)[q.it]
	if iv.it.Kind != message.ItemText || q.it < a.item || q.it > b.item {
		return false
	}
	bl := m.textOf(q.i, q.it).part(q.k)
	if bl == nil {
		return false
	}
	from, to := 0, iv.it.TextLen()
	if q.it == a.item {
		from = a.lo
	}
	if q.it == b.item {
		to = b.hi
	}
	return bl.lo < to && max(bl.hi, bl.lo+1) > from
}

// selBoxHeight is the rows of the selection box.
func (m *Model) selBoxHeight() int {
	if !m.sel2.active {
		return 0
	}
	return min(len(m.selBoxLines()), max(1, m.height/2))
}

// selBoxLines draws the selection box: a border with the keys, the
// selected text (or diff rows), wrapped, at most a third of the height.
func (m *Model) selBoxLines() []string {
	s := &m.sel2
	inner := max(1, m.width-4)
	var body []string
	var title string
	l := m.ilooks
	if s.diff {
		lo, hi := s.rowRange()
		title = " Selection · " + countOf(hi-lo+1, "diff line") + " "
		for _, r := range s.rows[lo : hi+1] {
			sign := " "
			switch r.kind {
			case diffDelete:
				sign = "-"
			case diffInsert:
				sign = "+"
			}
			body = append(body, ansi.Truncate(lineNo(r.number, 4)+" "+sign+" "+chips.SanitizeLine(chips.ExpandTabs(r.text)), inner, "…"))
		}
	} else {
		lo, hi := s.wordRange()
		a, b := s.words[lo], s.words[hi]
		title = " Selection · " + countOf(hi-lo+1, "word") + " "
		pre := lastUnits(s.norm[:a.nlo], quoteAffixUnit)
		post := s.norm[b.nhi:cutUnits(s.norm, b.nhi, quoteAffixUnit)]
		// The words as the reply shows them, not their Markdown (the
		// quote itself is of the source, as the contract wants).
		text := l.Faint.Render(chips.SanitizeLine(shownWords(pre))) + chips.SanitizeLine(shownWords(s.norm[a.nlo:b.nhi])) + l.Faint.Render(chips.SanitizeLine(shownWords(post)))
		body = wrapIndent(text, inner)
	}
	maxBody := max(1, m.height/3)
	if len(body) > maxBody {
		half := maxBody / 2
		body = append(append(body[:half:half], l.Faint.Render("…")), body[len(body)-(maxBody-half-1):]...)
		if maxBody-half-1 <= 0 {
			body = body[:maxBody]
		}
	}
	// Worded as the other pickers' hints: each key says what it does.
	hint := " w/b word · j/k sentence · o other end · y copy · q quote · Q quote with comment · esc close "
	if s.diff {
		hint = " j/k line · o other end · y copy · c comment · esc close "
	}
	if m.width < 4 {
		return body
	}
	b := m.sty.border
	out := []string{border(b, "╭─", title, "╮", m.width, m.sty.title)}
	for _, r := range body {
		out = append(out, b.Render("│")+" "+fit(r, inner)+"\x1b[m "+b.Render("│"))
	}
	return append(out, border(b, "╰─", hint, "╯", m.width, m.sty.status))
}

// countOf is "1 word", "2 words".
func countOf(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// shownWords is a run of a reply's Markdown source words (whitespace
// already folded) as the reply draws them: without code fence lines
// ("```text"), heading, list and quote marks, emphasis (* and ~) and code
// marks, and with a link's text for the link.
func shownWords(s string) string {
	ws := strings.Split(mdLinkText.ReplaceAllString(s, "$1"), " ")
	out := ws[:0]
	for _, w := range ws {
		switch {
		case strings.HasPrefix(w, "```") || strings.HasPrefix(w, "~~~"):
			continue // a fence line: its marker and language
		case w != "" && strings.Trim(w, "#") == "":
			continue // a heading's marks
		case w == ">" || w == "-" || w == "*" || w == "+":
			continue // a quote's or list item's mark
		}
		if strings.Contains(w, "`") {
			w = strings.ReplaceAll(w, "`", "") // code: drawn as written
		} else {
			w = strings.Trim(w, "*~") // emphasis (not _: snake_case)
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

var mdLinkText = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
