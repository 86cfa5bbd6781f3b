// The fuzzy picker widget used by the `@` file and `$` skill pickers.
//
// Picker is pure state: the editor opens one, feeds it items (possibly after
// opening, when an asynchronous load finishes), sets the query typed after the
// trigger character, moves the selection and reads the chosen item. It does
// no I/O, and View draws only the visible rows, so its cost does not grow
// with the number of items.
//
// Decisions: items are matched with sahilm/fuzzy over their sanitized Title
// (control characters and escape sequences removed), ranked by word tier
// (the query as a whole word, then as a word's prefix, then scattered
// letters: pickerword.go), then score, then original order; an empty query lists every item in order. The filtered
// result is computed lazily, at most once per change of items or query, and
// a query that extends the previous one only rescans the previous matches.
// Changing the query puts the selection back on the best match; new items
// keep the selected item when it is still listed and the user moved to it
// (else the best match of the new items is selected). Selection wraps. View's
// maxRows is the height of the whole box (border and title included); the
// box shrinks to its content.
package composer

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"
)

// PickerItem is one choice. Title is matched and drawn, Detail is drawn dim
// after it when room allows, Value is what the caller inserts.
type PickerItem struct {
	Title, Detail, Value string
}

// Picker is the state of one fuzzy picker. The zero value is not usable:
// call NewPicker.
type Picker struct {
	title     string
	items     []PickerItem
	titles    []string // sanitized titles: what is matched and drawn
	ascii     []bool   // titles[i] is pure ASCII (enables the quick pre-filter)
	query     string
	loading   bool
	err       error
	truncated bool

	fresh  bool    // ranked reflects (items, query)
	cquery string  // the query cands and ranked were computed for
	cands  []int32 // items matching cquery, ascending (the pool for a longer query)
	ranked []int32 // matches in display order; unused for the empty query

	sel, off  int
	keep      bool // after new items, reselect keepValue when present
	keepValue string
	moved     bool // the user moved the selection since the query changed

	st PickerStyles
}

// NewPicker returns an empty picker whose title line starts with title
// (for example "@" or "$").
func NewPicker(title string) *Picker {
	return &Picker{title: title, st: DefaultPickerStyles()}
}

// SetStyles draws the picker in st (the theme's).
func (p *Picker) SetStyles(st PickerStyles) { p.st = st }

// SetItems replaces the items, keeping the query; the filter is recomputed
// on demand. It also ends the loading and error states. The slice is copied.
func (p *Picker) SetItems(items []PickerItem) {
	if p.fresh && p.moved {
		if it, ok := p.Selected(); ok {
			p.keep, p.keepValue = true, it.Value
		}
	}
	p.items = slices.Clone(items)
	p.titles = make([]string, len(items))
	p.ascii = make([]bool, len(items))
	for i, it := range items {
		p.titles[i] = pickerSanitize(it.Title)
		p.ascii[i] = pickerIsASCII(p.titles[i])
	}
	p.loading, p.err = false, nil
	p.fresh, p.cquery, p.cands, p.ranked = false, "", nil, nil
}

// SetLoading sets whether items are still being loaded.
func (p *Picker) SetLoading(loading bool) { p.loading = loading }

// SetError sets (or, with nil, clears) an error to show instead of the list.
func (p *Picker) SetError(err error) { p.err = err }

// SetTruncated marks the items as a truncated listing: counts show "N+".
func (p *Picker) SetTruncated(truncated bool) { p.truncated = truncated }

// SetQuery sets the filter text. Setting the same query again costs nothing;
// a different one puts the selection back on the best match.
func (p *Picker) SetQuery(q string) {
	if q == p.query {
		return
	}
	p.query = q
	p.fresh = false
	p.sel, p.off, p.keep, p.moved = 0, 0, false, false
}

// Query returns the filter text.
func (p *Picker) Query() string { return p.query }

// Total returns the number of items, matching or not.
func (p *Picker) Total() int { return len(p.items) }

// Len returns the number of items matching the query.
func (p *Picker) Len() int {
	p.refresh()
	if p.query == "" {
		return len(p.items)
	}
	return len(p.ranked)
}

// Move moves the selection by delta rows, wrapping around both ends.
func (p *Picker) Move(delta int) {
	n := p.Len()
	if n == 0 {
		return
	}
	p.sel = ((p.sel+delta)%n + n) % n
	p.moved = true
}

// Selected returns the selected item, false when nothing matches.
func (p *Picker) Selected() (PickerItem, bool) {
	n := p.Len()
	if n == 0 {
		return PickerItem{}, false
	}
	return p.items[p.at(p.sel)], true
}

// at maps a row of the filtered list to an item index.
func (p *Picker) at(row int) int {
	if p.query == "" {
		return row
	}
	return int(p.ranked[row])
}

// refresh recomputes the filtered list when items or query changed.
func (p *Picker) refresh() {
	if p.fresh {
		return
	}
	p.fresh = true
	q := p.query
	if q == "" {
		p.cquery, p.cands, p.ranked = "", nil, nil
	} else {
		var pool []int32
		narrow := p.cquery != "" && strings.HasPrefix(q, p.cquery) && utf8.ValidString(p.cquery)
		if narrow {
			pool = p.cands
		}
		p.cands, p.ranked = pickerFilter(q, p.titles, p.ascii, pool, narrow)
		pickerExactFirst(q, p.titles, p.ranked)
		p.cquery = q
	}
	n := len(p.items)
	if q != "" {
		n = len(p.ranked)
	}
	if p.keep {
		p.keep = false
		p.sel = 0
		for row := 0; row < n; row++ {
			if p.items[p.at(row)].Value == p.keepValue {
				p.sel = row
				break
			}
		}
	}
	if p.sel >= n {
		p.sel = max(n-1, 0)
	}
}

// pickerExactFirst moves the entries whose title's first word is the
// query (without a leading "/") to the front of ranked, in their order: a
// name typed in full is what enter picks, though a longer title ("/review
// <instructions>") scores below a shorter near one ("/review-commit <sha>").
func pickerExactFirst(q string, titles []string, ranked []int32) {
	exact := func(t string) bool {
		w, _, _ := strings.Cut(t, " ")
		return strings.EqualFold(strings.TrimPrefix(w, "/"), strings.TrimPrefix(q, "/"))
	}
	front := 0
	for k, i := range ranked {
		if exact(titles[i]) {
			copy(ranked[front+1:k+1], ranked[front:k])
			ranked[front] = i
			front++
		}
	}
}

// pickerFilter matches q against titles (only those in pool when narrow) and
// returns the matching indexes in ascending order and in ranked order (score
// descending, then index ascending: what a stable sort by score gives).
//
// When both the query and a title are ASCII, the title is scored by
// pickerScoreASCII, a transcription of sahilm/fuzzy's scoring that gives the
// same match and score without allocating (a test checks the two agree);
// every other title goes through sahilm/fuzzy itself, which folds case with
// Unicode rules (k matches the Kelvin sign).
func pickerFilter(q string, titles []string, ascii []bool, pool []int32, narrow bool) (cands, ranked []int32) {
	var pat []byte
	asciiCanMatch := true
	if pickerIsASCII(q) {
		pat = []byte(q)
	} else {
		asciiCanMatch = pickerASCIICanMatch(q)
	}
	n := len(titles)
	if narrow {
		n = len(pool)
	}
	var scores []int
	var others []string
	var otherIdxs []int32
	for k := range n {
		i := int32(k)
		if narrow {
			i = pool[k]
		}
		t := titles[i]
		switch {
		case pat != nil && ascii[i]:
			if score, ok := pickerScoreASCII(pat, t); ok {
				cands = append(cands, i)
				scores = append(scores, score)
			}
		case ascii[i] && !asciiCanMatch:
		default:
			others = append(others, t)
			otherIdxs = append(otherIdxs, i)
		}
	}
	if len(others) > 0 {
		for _, m := range fuzzy.FindNoSort(q, others) {
			cands = append(cands, otherIdxs[m.Index])
			scores = append(scores, m.Score)
		}
		if !slices.IsSorted(cands) {
			order := make([]int, len(cands))
			for k := range order {
				order[k] = k
			}
			slices.SortFunc(order, func(a, b int) int { return int(cands[a]) - int(cands[b]) })
			c2, s2 := make([]int32, len(order)), make([]int, len(order))
			for k, o := range order {
				c2[k], s2[k] = cands[o], scores[o]
			}
			cands, scores = c2, s2
		}
	}
	pickerTiered(q, titles, cands, scores)
	return cands, pickerRank(cands, scores)
}

// pickerRank orders cands (ascending item indexes) by score descending, ties
// in index order: a counting sort when the scores span a small range (the
// usual case), else a comparison sort.
func pickerRank(cands []int32, scores []int) []int32 {
	ranked := make([]int32, len(cands))
	if len(cands) == 0 {
		return ranked
	}
	lo, hi := slices.Min(scores), slices.Max(scores)
	if span := hi - lo; span >= 0 && span < 1<<16 {
		counts := make([]int, span+2)
		for _, sc := range scores {
			counts[hi-sc+1]++
		}
		for k := 1; k < len(counts); k++ {
			counts[k] += counts[k-1]
		}
		for k, sc := range scores {
			slot := hi - sc
			ranked[counts[slot]] = cands[k]
			counts[slot]++
		}
		return ranked
	}
	keys := make([]uint64, len(cands))
	for k := range cands {
		keys[k] = pickerRankKey(scores[k], cands[k])
	}
	slices.Sort(keys)
	for k, key := range keys {
		ranked[k] = int32(uint32(key))
	}
	return ranked
}

// pickerASCIICanMatch reports whether some ASCII text could match the
// non-ASCII query: every rune must be ASCII or fold to ASCII (the Kelvin
// sign folds to k, the long s to s).
func pickerASCIICanMatch(q string) bool {
	for _, r := range q {
		if r < utf8.RuneSelf {
			continue
		}
		ok := false
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < utf8.RuneSelf {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// pickerScoreASCII scores the ASCII title s for the ASCII pattern exactly as
// sahilm/fuzzy v0.1.3 does (FindFromIterNoSort: first-character, camel-case,
// after-separator and growing adjacency bonuses, leading and unmatched
// character penalties, the best candidate committed when the next pattern
// character comes up), without building the matched-index list.
func pickerScoreASCII(pat []byte, s string) (int, bool) {
	if len(pat) == 0 {
		return 0, false
	}
	// The pattern, lower-cased (on the stack for usual lengths).
	var buf [64]byte
	lp := buf[:0]
	for _, c := range pat {
		lp = append(lp, pickerLower[c])
	}
	if z := strings.IndexByte(s, 0); z >= 0 {
		s = s[:z] // the matcher stops at a NUL
	}
	if len(lp) == 1 {
		// One character (the first keystroke, which matches nearly every
		// title): its only commit is at the end, on the best occurrence.
		best, at := -1, -1
		for j := 0; j < len(s); j++ {
			c := s[j]
			if pickerLower[c] != lp[0] {
				continue
			}
			score := 0
			if j == 0 {
				score = 10
			} else {
				last := s[j-1]
				if 'a' <= last && last <= 'z' && 'A' <= c && c <= 'Z' {
					score += 20
				}
				if pickerSeparator[last] {
					score += 20
				}
			}
			if score > best {
				best, at = score, j
			}
		}
		if at < 0 {
			return 0, false
		}
		return best + max(at*-5, -15) + 1 - len(s), true
	}
	// A title that does not hold the pattern as a subsequence cannot match:
	// a cheap rejection before scoring.
	k := 0
	for i := 0; i < len(s) && k < len(lp); i++ {
		if pickerLower[s[i]] == lp[k] {
			k++
		}
	}
	if k < len(lp) {
		return 0, false
	}
	total, matched, lastMatch := 0, 0, -1
	pi, bestScore, matchedIndex, adj := 0, -1, -1, 0
	var last byte
	lastIndex := 0
	for j := 0; j < len(s); j++ {
		c := s[j]
		if pi < len(lp) && pickerLower[c] == lp[pi] {
			score := 0
			if j == 0 {
				score += 10
			}
			if 'a' <= last && last <= 'z' && 'A' <= c && c <= 'Z' {
				score += 20
			}
			if j != 0 && pickerSeparator[last] {
				score += 20
			}
			if matched > 0 && lastMatch == lastIndex {
				bonus := adj*2 + 5
				score += bonus
				adj += bonus
			}
			if score > bestScore {
				bestScore, matchedIndex = score, j
			}
		}
		// Commit the best candidate when the next pattern character comes
		// up next, or at the end of the text.
		var nextp, nextc byte
		if pi < len(lp)-1 {
			nextp = lp[pi+1]
		}
		if j+1 < len(s) {
			nextc = s[j+1]
		}
		if (nextc == 0 || pickerLower[nextc] == nextp) && matchedIndex > -1 {
			if matched == 0 {
				bestScore += max(matchedIndex*-5, -15)
			}
			total += bestScore
			matched++
			lastMatch = matchedIndex
			bestScore = -1
			pi++
		}
		lastIndex = j
		last = c
	}
	total += matched - len(s)
	return total, matched == len(lp)
}

// pickerLower maps ASCII upper-case letters to lower case, other bytes to
// themselves.
var pickerLower = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i + 'a' - 'A')
		}
	}
	return t
}()

// pickerSeparator marks the bytes after which a match earns the separator
// bonus.
var pickerSeparator = func() (t [256]bool) {
	for _, c := range []byte("/-_ .\\") {
		t[c] = true
	}
	return t
}()

// pickerRankKey packs a match so that ascending keys are descending scores,
// then ascending item indexes. Scores are clamped to 31 bits (the matcher's
// adjacency bonus doubles per character and can overflow on long queries).
func pickerRankKey(score int, idx int32) uint64 {
	const limit = 1<<31 - 1
	score = max(-limit, min(score, limit))
	return uint64(int64(limit)-int64(score))<<32 | uint64(uint32(idx))
}

func pickerIsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// pickerSanitize makes outside text safe to draw on one line: invalid UTF-8
// becomes U+FFFD, escape sequences are stripped (ansi.Strip), line breaks and
// tabs become spaces, and the remaining C0/C1 controls, DEL and the bidi
// embedding/override/isolate controls are dropped.
func pickerSanitize(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= utf8.RuneSelf {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = ansi.Strip(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f':
			b.WriteByte(' ')
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ---- drawing ----

// PickerStyles are how a picker draws: its border and title line, its
// notes ("loading…", "no matches"), an error, and the matched characters
// of a row (on the selected row, reversed).
type PickerStyles struct {
	Border, Header, Note, Error, Match lipgloss.Style
}

// DefaultPickerStyles draw for a dark background: matches and errors in
// the terminal's magenta and red.
func DefaultPickerStyles() PickerStyles {
	return PickerStyles{
		Border: lipgloss.NewStyle().Faint(true),
		Header: lipgloss.NewStyle().Bold(true),
		Note:   lipgloss.NewStyle().Faint(true).Italic(true),
		Error:  lipgloss.NewStyle().Foreground(lipgloss.Color("1")),
		Match:  lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("5")),
	}
}

// LightPickerStyles draw for a light background: matches dark magenta,
// errors dark red, both ≥ 4.5:1 on white and reversed.
func LightPickerStyles() PickerStyles {
	st := DefaultPickerStyles()
	st.Error = lipgloss.NewStyle().Foreground(lipgloss.Color(LightPickerError))
	st.Match = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color(LightPickerMatch))
	return st
}

// LightPickerStyles' colours (their contrast is tested).
const (
	LightPickerMatch = "#A21CAF"
	LightPickerError = "#B91C1C"
)

// NoColorPickerStyles draw matches bold and underlined, errors bold.
func NoColorPickerStyles() PickerStyles {
	st := DefaultPickerStyles()
	st.Error = lipgloss.NewStyle().Bold(true)
	st.Match = lipgloss.NewStyle().Bold(true).Underline(true)
	return st
}

// pickerGlyph is one grapheme cluster of a drawn text.
type pickerGlyph struct {
	text    string
	width   int
	matched bool
}

// pickerGlyphs splits s into grapheme clusters; a cluster is matched when one
// of its runes starts at a byte offset listed in matched.
func pickerGlyphs(s string, matched []int) []pickerGlyph {
	var out []pickerGlyph
	mi := 0
	for off := 0; off < len(s); {
		cluster, w := ansi.FirstGraphemeCluster(s[off:], ansi.GraphemeWidth)
		if cluster == "" {
			break
		}
		end := off + len(cluster)
		hit := false
		for mi < len(matched) && matched[mi] < end {
			if matched[mi] >= off {
				hit = true
			}
			mi++
		}
		out = append(out, pickerGlyph{cluster, w, hit})
		off = end
	}
	return out
}

func pickerGlyphsWidth(gs []pickerGlyph) int {
	w := 0
	for _, g := range gs {
		w += g.width
	}
	return w
}

// pickerFitRight keeps the leading glyphs of gs that fit in w columns,
// ending with "…" when something was cut.
func pickerFitRight(gs []pickerGlyph, w int) []pickerGlyph {
	if pickerGlyphsWidth(gs) <= w {
		return gs
	}
	if w <= 0 {
		return nil
	}
	used, k := 0, 0
	for k < len(gs) && used+gs[k].width <= w-1 {
		used += gs[k].width
		k++
	}
	return append(slices.Clip(gs[:k]), pickerGlyph{text: "…", width: 1})
}

// pickerFitLeft keeps the trailing glyphs of gs that fit in w columns,
// starting with "…" when something was cut (the end of a path matters most).
func pickerFitLeft(gs []pickerGlyph, w int) []pickerGlyph {
	if pickerGlyphsWidth(gs) <= w {
		return gs
	}
	if w <= 0 {
		return nil
	}
	used, k := 0, len(gs)
	for k > 0 && used+gs[k-1].width <= w-1 {
		used += gs[k-1].width
		k--
	}
	return append([]pickerGlyph{{text: "…", width: 1}}, gs[k:]...)
}

// pickerRender draws glyphs with base, matched runs with match on top.
func pickerRender(gs []pickerGlyph, base, match lipgloss.Style) string {
	var b, run strings.Builder
	runMatched := false
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if runMatched {
			b.WriteString(match.Render(run.String()))
		} else {
			b.WriteString(base.Render(run.String()))
		}
		run.Reset()
	}
	for _, g := range gs {
		if g.matched != runMatched {
			flush()
			runMatched = g.matched
		}
		run.WriteString(g.text)
	}
	flush()
	return b.String()
}

// header returns the plain title line: "@ src/ma — 3 of 1204".
func (p *Picker) header() (left, right string) {
	left = pickerSanitize(p.title)
	if q := p.query; q != "" {
		if left != "" {
			left += " "
		}
		left += q
	}
	switch {
	case p.err != nil:
		right = "error"
	case p.loading && len(p.items) == 0:
		right = "loading…"
	default:
		plus := ""
		if p.truncated {
			plus = "+"
		}
		right = fmt.Sprintf("%d of %d%s", p.Len(), len(p.items), plus)
		if p.loading {
			right += " loading…"
		}
	}
	return left, right
}

// headerText fits the title line in w columns, cutting the title and query
// from the left first so that the end of the query and the counts stay.
func (p *Picker) headerText(w int) string {
	left, right := p.header()
	sep := " — "
	if left == "" {
		sep = ""
	}
	full := left + sep + right
	if ansi.StringWidth(full) <= w {
		return full
	}
	rw := ansi.StringWidth(sep + right)
	if w-rw >= 2 {
		return pickerPlain(pickerFitLeft(pickerGlyphs(left, nil), w-rw)) + sep + right
	}
	return pickerPlain(pickerFitRight(pickerGlyphs(full, nil), w))
}

func pickerPlain(gs []pickerGlyph) string {
	var b strings.Builder
	for _, g := range gs {
		b.WriteString(g.text)
	}
	return b.String()
}

// View draws the picker in at most width columns and maxRows lines (border
// and title line included): a rounded box whose top border carries the title
// line when there is room (width ≥ 8 and maxRows ≥ 3), else a plain title
// line followed by rows. Matched characters are highlighted and the selected
// row is reversed. Only visible rows are drawn. View keeps the scroll offset
// that shows the selection (its only state change); it does no I/O.
func (p *Picker) View(width, maxRows int) string {
	if width <= 0 || maxRows <= 0 {
		return ""
	}
	p.refresh()
	bordered := width >= 8 && maxRows >= 3
	inner, rowsAvail := width, maxRows-1
	if bordered {
		inner, rowsAvail = width-2, maxRows-2
	}
	var body []string
	if rowsAvail > 0 {
		body = p.body(inner, rowsAvail)
	}
	var lines []string
	if bordered {
		text := p.headerText(width - 5)
		fill := width - 5 - ansi.StringWidth(text)
		top := p.st.Border.Render("╭─ ") + p.st.Header.Render(text) +
			p.st.Border.Render(" "+strings.Repeat("─", max(fill, 0))+"╮")
		lines = append(lines, top)
		side := p.st.Border.Render("│")
		for _, l := range body {
			lines = append(lines, side+l+side)
		}
		lines = append(lines, p.st.Border.Render("╰"+strings.Repeat("─", width-2)+"╯"))
	} else {
		lines = append(lines, p.st.Header.Render(p.headerText(width)))
		lines = append(lines, body...)
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > width { // safety net; the layout should never need it
			lines[i] = ansi.Truncate(l, width, "")
		}
	}
	return strings.Join(lines, "\n")
}

// body draws the rows (or the one state line) in exactly w columns each.
func (p *Picker) body(w, rows int) []string {
	note := func(s string, st lipgloss.Style) []string {
		gs := pickerFitRight(pickerGlyphs(" "+pickerSanitize(s), nil), w)
		pad := w - pickerGlyphsWidth(gs)
		return []string{st.Render(pickerPlain(gs)) + strings.Repeat(" ", pad)}
	}
	n := p.Len()
	switch {
	case p.err != nil:
		return note("error: "+p.err.Error(), p.st.Error)
	case p.loading && len(p.items) == 0:
		return note("loading…", p.st.Note)
	case len(p.items) == 0:
		return note("nothing to pick", p.st.Note)
	case n == 0:
		return note("no matches", p.st.Note)
	}
	rows = min(rows, n)
	if p.sel < p.off {
		p.off = p.sel
	}
	if p.sel >= p.off+rows {
		p.off = p.sel - rows + 1
	}
	p.off = max(0, min(p.off, n-rows))
	out := make([]string, 0, rows)
	for row := p.off; row < p.off+rows; row++ {
		out = append(out, p.row(p.at(row), row == p.sel, w))
	}
	return out
}

// row draws item i in exactly w columns.
func (p *Picker) row(i int, selected bool, w int) string {
	base := lipgloss.NewStyle()
	if selected {
		base = base.Reverse(true)
	}
	match := base.Inherit(p.st.Match)
	detail := base.Faint(true)

	padL, padR := 1, 1
	if w < 3 {
		padL, padR = 0, 0
	}
	cw := w - padL - padR
	title := p.titles[i]
	var matched []int
	if q := p.query; q != "" {
		if tier, at := pickerWordTier(q, title); tier != tierScattered && at >= 0 {
			for k := range len(q) { // the word that ranked it, not letters scattered before it
				matched = append(matched, at+k)
			}
		} else if ms := fuzzy.Find(p.query, []string{title}); len(ms) == 1 {
			matched = ms[0].MatchedIndexes
		}
	}
	tg := pickerFitLeft(pickerGlyphs(title, matched), cw)
	used := pickerGlyphsWidth(tg)
	var b strings.Builder
	b.WriteString(base.Render(strings.Repeat(" ", padL)))
	b.WriteString(pickerRender(tg, base, match))
	if d := p.items[i].Detail; d != "" && cw-used >= 6 {
		dg := pickerFitRight(pickerGlyphs(pickerSanitize(d), nil), cw-used-2)
		b.WriteString(base.Render("  "))
		b.WriteString(pickerRender(dg, detail, detail))
		used += 2 + pickerGlyphsWidth(dg)
	}
	if pad := cw - used + padR; pad > 0 {
		b.WriteString(base.Render(strings.Repeat(" ", pad)))
	}
	return b.String()
}
