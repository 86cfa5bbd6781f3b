package contextref

import (
	"math/bits"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// UpgradeLegacy turns the context blocks of an older T3 Code message into
// reference links and records, in memory (DESIGN.md 3.6): review blocks
// anywhere in the text, and the trailing <preview_annotation>,
// <element_context> and <terminal_context> blocks. It returns the upgraded
// text and the records: terminals, elements, previews, reviews, with ids
// legacy_<kind>_<n> (n from 1 per kind).
//
// When no legacy block applies, or the upgrade must be abandoned (a malformed
// trailing block, a record failing the schema), the text comes back unchanged
// with nil records. A text holding none of <terminal_context,
// <element_context, <preview_annotation, <review_comment (each followed by a
// word boundary) nor U+FFFC returns at once, without allocating.
//
// It is total, runs in about linear time, and is idempotent: upgrading its own
// output changes nothing.
//
// Decisions where the contract is silent:
//
//   - An upgrade that yields no record at all leaves the text unchanged: a
//     lone U+FFFC, an empty block or an invalid review block changes nothing.
//   - Each record is checked by encoding it and decoding it with DecodeRecord,
//     and is returned as decoded (fields the schema trims come back trimmed).
//     The number of records is not capped.
//   - Review opener: "<review_comment", then any number of attributes each
//     preceded by white space, optional white space, ">". An attribute is
//     name="value" with no space around "=", the name matching
//     [A-Za-z_:][-A-Za-z0-9_:.]*; anything else means no opener there. A
//     repeated attribute keeps its first value. Values unescape &lt; &gt;
//     &quot; &amp; in one left-to-right pass (so "&amp;lt;" gives "&lt;").
//   - "Needs filePath, sectionId": present and not blank after trimming.
//     Indices of more than 2^53-1 make the record fail the schema (atomic).
//   - Fences when looking for the end of a review block: the body's first
//     line is the rest of the opener's line. A line opens a fence when it
//     starts (no indentation) with 3+ backticks; while a fence is open a line
//     made only of at least as many backticks closes it. A closing tag on the
//     opening line of a fence still ends the block. An opener with no end is
//     plain text and the search goes on right after its "<"; after a block,
//     valid or not, it goes on after its closing tag.
//   - The fence that gives text and diff is the last match of the pattern
//     /(`{3,})(\w+)?[^\n]*\n([\s\S]*?)\n\1/g with JavaScript's matching
//     semantics. fenceLanguage is the word, "diff" when the fence has none,
//     and absent when the body has no fence.
//   - Review label: the part of the trimmed filePath after its last "/" or
//     "\" (the whole path when that part is empty), a space, then rangeLabel,
//     or "line" when rangeLabel is blank.
//   - A review block lying inside a trailing terminal/element/preview block
//     is part of that block's text, not a review of its own.
//   - Trailing blocks follow the contract's patterns to the letter: the block
//     of a kind starts at the first "<kind>\n" of the text.
//   - Entries: a header line is "- " … ":" (trailing white space allowed);
//     an indented line before any header makes the block malformed; blank
//     lines are kept verbatim in the entry (terminal text keeps them too).
//   - Terminal: the header label is trimmed for terminalLabel and terminalId;
//     the record label is the whole header. A header matching neither
//     "<label> line N" nor "<label> lines A-B" makes the block malformed. The
//     inline label is written with the numbers in plain decimal.
//   - Element: a header not starting with "<name>" (name non-empty, up to the
//     first ">") makes the block malformed. componentName is the name when it
//     has an upper-case letter (Unicode). Key lines are [a-z]+ ":" value,
//     the value trimmed; the first of each key wins; unknown keys and other
//     lines are ignored. "html:" and "styles:" take the following lines that
//     start with two spaces (or are blank), the two spaces removed, joined and
//     trimmed; a value on the key's own line is their first line. An empty
//     selector is null; source "file[:line[:column]]" is parsed from the
//     right, an empty file name is null and an empty source is null.
//   - Preview: the lines are split on "\n" only; the style changes are the
//     consecutive "- " lines right after the line "Requested visual
//     changes:", each trimmed. An empty page gives a null pageTitle. A page
//     starting with http:// or https:// (any case) is a URL. elements is
//     absent when there is none.
//   - Inline labels @<slug>:<range> are matched in the prose only (never
//     inside a link this upgrade inserted), judging both boundaries on the
//     prose as it stands before any inline label is replaced, in one
//     left-to-right pass: an occurrence binds the first still unplaced
//     terminal with that label. This equals placing terminals one by one at
//     their first occurrence unless two labels overlap in the prose.
//   - Appended links go after "\n\n" only when some prose remains.
//   - Should the upgraded text fail to reference every record, or upgrade
//     again into more records, the upgrade is abandoned: text unchanged, nil
//     records. Only odd texts get there: half a reference link already in the
//     prose, a vanishing U+FFFC that completes a block, a label that closes
//     an open review tag.
//
// The private token of rule 1 is never visible: this implementation keeps the
// positions of the replaced blocks and stands one U+E000 in for each, which
// behaves exactly like the contract's token and cannot grow with the text.
func UpgradeLegacy(text string) (string, []Record) {
	if !hasLegacyTrigger(text) {
		return text, nil
	}
	out, recs, ok := upgradeLegacyOnce(text)
	if !ok || len(recs) == 0 {
		return text, nil
	}
	if !referencesAll(out, recs) {
		return text, nil
	}
	if hasLegacyTrigger(out) {
		if _, more, ok := upgradeLegacyOnce(out); ok && len(more) > 0 {
			return text, nil
		}
	}
	return out, recs
}

const (
	legacyPlaceholder = "\uFFFC"
	reviewOpenTag     = "<review_comment"
	reviewCloseTag    = "</review_comment>"
	reviewToken       = "\uE000" // stands in for a replaced review block

	terminalBlockOpen  = "<terminal_context>\n"
	terminalBlockClose = "\n</terminal_context>"
	elementBlockOpen   = "<element_context>\n"
	elementBlockClose  = "\n</element_context>"
	previewBlockOpen   = "<preview_annotation>\n"
	previewBlockClose  = "\n</preview_annotation>"

	legacyPreviewLabel = "Preview annotation"
)

var legacyOpenTags = [...]string{"<terminal_context", "<element_context", "<preview_annotation", reviewOpenTag}

// hasLegacyTrigger reports whether the upgrade has anything to look at. It
// never allocates.
func hasLegacyTrigger(s string) bool {
	if strings.Contains(s, legacyPlaceholder) {
		return true
	}
	for i := 0; i < len(s); i++ {
		k := strings.IndexByte(s[i:], '<')
		if k < 0 {
			return false
		}
		i += k
		rest := s[i:]
		for _, o := range legacyOpenTags {
			if strings.HasPrefix(rest, o) && (len(rest) == len(o) || !isASCIIWordByte(rest[len(o)])) {
				return true
			}
		}
	}
	return false
}

func isASCIIWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// referencesAll reports whether every record has a link in text.
func referencesAll(text string, recs []Record) bool {
	seen := make(map[[2]string]bool, len(recs))
	for _, o := range Scan(text) {
		seen[[2]string{o.Kind, o.ContextID}] = true
	}
	for _, r := range recs {
		b := r.RecordBase()
		if !seen[[2]string{b.Kind, b.ContextID}] {
			return false
		}
	}
	return true
}

// upgradeLegacyOnce runs the rules once. ok is false when the upgrade must be
// abandoned.
func upgradeLegacyOnce(text string) (string, []Record, bool) {
	blocks := findReviewBlocks(text)
	res, ok := runLegacy(text, blocks, nil)
	if ok && len(res.buried) > 0 {
		// Review blocks inside trailing blocks belong to those blocks' text:
		// run again with them left as text. The trailing blocks are the same
		// (the review text lies strictly inside them), so this settles it.
		skip := make([]bool, len(blocks))
		for _, i := range res.buried {
			skip[i] = true
		}
		res, ok = runLegacy(text, blocks, skip)
		if ok && len(res.buried) > 0 {
			return "", nil, false
		}
	}
	return res.text, res.recs, ok
}

// ---------------------------------------------------------------------------
// Rule 1: review blocks.

// reviewBlock is one valid review block of the text.
type reviewBlock struct {
	start, end int // span of the whole block, closing tag included
	rec        ReviewCommentRecord
	label      string
	bad        bool // an index is not a safe integer: fails the schema
}

type reviewAttr struct{ name, value string }

// findReviewBlocks returns the valid review blocks of text in order.
func findReviewBlocks(text string) []reviewBlock {
	if !strings.Contains(text, reviewOpenTag) || !strings.Contains(text, reviewCloseTag) {
		return nil
	}
	var ends *reviewEnds
	var out []reviewBlock
	for pos := 0; pos < len(text); {
		k := strings.Index(text[pos:], reviewOpenTag)
		if k < 0 {
			break
		}
		o := pos + k
		attrs, body, ok := parseReviewOpener(text, o)
		if !ok {
			pos = o + 1
			continue
		}
		if ends == nil {
			ends = newReviewEnds(text)
		}
		c := ends.endFrom(body)
		if c < 0 {
			pos = o + 1
			continue
		}
		end := c + len(reviewCloseTag)
		if b, ok := makeReviewBlock(attrs, text[body:c]); ok {
			b.start, b.end = o, end
			out = append(out, b)
		}
		pos = end
	}
	return out
}

// parseReviewOpener reads `<review_comment` + attributes + `>` at o and
// returns the attributes (values still escaped) and where the body starts.
func parseReviewOpener(text string, o int) ([]reviewAttr, int, bool) {
	var attrs []reviewAttr
	i := o + len(reviewOpenTag)
	for {
		j := skipJSSpace(text, i)
		if j < len(text) && text[j] == '>' {
			return attrs, j + 1, true
		}
		if j == i || j >= len(text) {
			return nil, 0, false
		}
		n := j
		if !isAttrNameStart(text[n]) {
			return nil, 0, false
		}
		for n++; n < len(text) && isAttrNameByte(text[n]); n++ {
		}
		if n+1 >= len(text) || text[n] != '=' || text[n+1] != '"' {
			return nil, 0, false
		}
		q := strings.IndexByte(text[n+2:], '"')
		if q < 0 {
			return nil, 0, false
		}
		attrs = append(attrs, reviewAttr{name: text[j:n], value: text[n+2 : n+2+q]})
		i = n + 2 + q + 1
	}
}

func isAttrNameStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':'
}

func isAttrNameByte(c byte) bool {
	return isAttrNameStart(c) || c >= '0' && c <= '9' || c == '-' || c == '.'
}

// skipJSSpace returns the index of the first non-white-space character at or
// after i.
func skipJSSpace(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == ' ' || c >= '\t' && c <= '\r' {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isJSSpace(r) {
			return i
		}
		i += size
	}
	return i
}

func unescapeAttr(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] == '&' {
			switch {
			case strings.HasPrefix(s[i:], "&lt;"):
				b.WriteByte('<')
				i += 4
				continue
			case strings.HasPrefix(s[i:], "&gt;"):
				b.WriteByte('>')
				i += 4
				continue
			case strings.HasPrefix(s[i:], "&quot;"):
				b.WriteByte('"')
				i += 6
				continue
			case strings.HasPrefix(s[i:], "&amp;"):
				b.WriteByte('&')
				i += 5
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigitByte(s[i]) {
			return false
		}
	}
	return true
}

// parseSafeInt reads a string of ASCII digits; ok is false past 2^53-1.
func parseSafeInt(s string) (int64, bool) {
	var n int64
	for i := 0; i < len(s); i++ {
		n = n*10 + int64(s[i]-'0')
		if n > maxSafeInteger {
			return 0, false
		}
	}
	return n, true
}

// makeReviewBlock builds the record fields of a review block, or reports the
// block invalid (it then stays text).
func makeReviewBlock(attrs []reviewAttr, body string) (reviewBlock, bool) {
	get := func(name string) (string, bool) {
		for _, a := range attrs {
			if a.name == name {
				return unescapeAttr(a.value), true
			}
		}
		return "", false
	}
	filePath, ok1 := get("filePath")
	sectionID, ok2 := get("sectionId")
	si, ok3 := get("startIndex")
	ei, ok4 := get("endIndex")
	if !ok1 || !ok2 || !ok3 || !ok4 || isBlankJS(filePath) || isBlankJS(sectionID) || !allDigits(si) || !allDigits(ei) {
		return reviewBlock{}, false
	}
	var b reviewBlock
	a, aok := parseSafeInt(si)
	e, eok := parseSafeInt(ei)
	b.bad = !aok || !eok
	if a > e {
		a, e = e, a
	}
	sectionTitle, _ := get("sectionTitle")
	rangeLabel, _ := get("rangeLabel")
	b.rec = ReviewCommentRecord{
		SectionID:    sectionID,
		SectionTitle: sectionTitle,
		FilePath:     filePath,
		StartIndex:   a,
		EndIndex:     e,
		RangeLabel:   rangeLabel,
	}
	if f, ok := lastFence(body); ok {
		b.rec.Text = TrimJS(body[:f.start])
		b.rec.Diff = f.content
		lang := f.lang
		if lang == "" {
			lang = "diff"
		}
		b.rec.FenceLanguage = &lang
	} else {
		b.rec.Text = TrimJS(body)
	}
	fp := TrimJS(filePath)
	base := fp[strings.LastIndexAny(fp, "/\\")+1:]
	if base == "" {
		base = fp
	}
	rl := rangeLabel
	if isBlankJS(rl) {
		rl = "line"
	}
	b.label = base + " " + rl
	return b, true
}

// reviewEnds finds where review blocks end: the first closing tag not inside
// an open fence. Everything is precomputed once per text so that any number
// of openers costs O(log n) each.
type reviewEnds struct {
	text       string
	tags       []int // positions of every closing tag
	lineStarts []int
	tree       []int32 // max-tree of closing-fence lengths per line
	size       int
	res        []int // per line (and one past the last): the end reached from that line outside any fence, or -1
}

func newReviewEnds(text string) *reviewEnds {
	r := &reviewEnds{text: text}
	for i := 0; ; {
		k := strings.Index(text[i:], reviewCloseTag)
		if k < 0 {
			break
		}
		r.tags = append(r.tags, i+k)
		i += k + len(reviewCloseTag)
	}
	r.lineStarts = append(r.lineStarts, 0)
	for i := 0; ; {
		k := strings.IndexByte(text[i:], '\n')
		if k < 0 {
			break
		}
		i += k + 1
		r.lineStarts = append(r.lineStarts, i)
	}
	n := len(r.lineStarts)
	r.size = 1
	for r.size < n {
		r.size <<= 1
	}
	r.tree = make([]int32, 2*r.size)
	open := make([]int32, n)
	for k := 0; k < n; k++ {
		line := text[r.lineStarts[k]:r.lineEnd(k)]
		run := backtickRun(line)
		if run >= 3 {
			open[k] = clampInt32(run)
		}
		if run > 0 && run == len(line) {
			r.tree[r.size+k] = clampInt32(run)
		}
	}
	for i := r.size - 1; i >= 1; i-- {
		r.tree[i] = max(r.tree[2*i], r.tree[2*i+1])
	}
	r.res = make([]int, n+1)
	r.res[n] = -1
	t := len(r.tags) - 1
	for k := n - 1; k >= 0; k-- {
		ls, le := r.lineStarts[k], r.lineEnd(k)
		for t >= 0 && r.tags[t] >= le {
			t--
		}
		// The first tag of the line is the smallest tag ≥ ls.
		first := -1
		for u := t; u >= 0 && r.tags[u] >= ls; u-- {
			first = r.tags[u]
		}
		switch {
		case first >= 0:
			r.res[k] = first
		case open[k] > 0:
			m := r.firstAtLeast(k+1, open[k])
			if m < 0 {
				r.res[k] = -1
			} else {
				r.res[k] = r.res[m+1]
			}
		default:
			r.res[k] = r.res[k+1]
		}
	}
	return r
}

func clampInt32(n int) int32 {
	if n > 1<<31-1 {
		return 1<<31 - 1
	}
	return int32(n)
}

func backtickRun(s string) int {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n
}

func (r *reviewEnds) lineEnd(k int) int {
	if k+1 < len(r.lineStarts) {
		return r.lineStarts[k+1] - 1
	}
	return len(r.text)
}

// firstAtLeast returns the first line ≥ from that is a closing fence of at
// least v backticks, or -1.
func (r *reviewEnds) firstAtLeast(from int, v int32) int {
	if from >= len(r.lineStarts) {
		return -1
	}
	i := from + r.size
	for {
		if r.tree[i] >= v {
			for i < r.size {
				i *= 2
				if r.tree[i] < v {
					i++
				}
			}
			return i - r.size
		}
		for i&1 == 1 {
			i >>= 1
		}
		if i == 0 {
			return -1
		}
		i++
	}
}

// endFrom returns the position of the closing tag that ends a body starting
// at b, or -1.
func (r *reviewEnds) endFrom(b int) int {
	k := sort.SearchInts(r.lineStarts, b+1) - 1 // line holding b
	nl := r.lineEnd(k)
	if t := sort.SearchInts(r.tags, b); t < len(r.tags) && r.tags[t] < nl {
		return r.tags[t]
	}
	if k+1 >= len(r.lineStarts) {
		return -1
	}
	if run := backtickRun(r.text[b:nl]); run >= 3 {
		m := r.firstAtLeast(k+1, clampInt32(run))
		if m < 0 {
			return -1
		}
		return r.res[m+1]
	}
	return r.res[k+1]
}

type fenceMatch struct {
	start   int
	lang    string
	content string
}

// lastFence returns the last match in body of
// /(`{3,})(\w+)?[^\n]*\n([\s\S]*?)\n\1/g, matched as JavaScript does.
func lastFence(body string) (fenceMatch, bool) {
	if !strings.Contains(body, "```") {
		return fenceMatch{}, false
	}
	// Every newline with the backtick run after it, and the largest run
	// from each newline on.
	type nlRun struct{ pos, run int }
	var nls []nlRun
	for i := 0; ; {
		k := strings.IndexByte(body[i:], '\n')
		if k < 0 {
			break
		}
		i += k
		nls = append(nls, nlRun{i, backtickRun(body[i+1:])})
		i++
	}
	sufMax := make([]int, len(nls)+1)
	for j := len(nls) - 1; j >= 0; j-- {
		sufMax[j] = max(nls[j].run, sufMax[j+1])
	}
	var last fenceMatch
	found := false
	j0 := 0
	for pos := 0; pos < len(body); {
		k := strings.Index(body[pos:], "```")
		if k < 0 {
			break
		}
		i := pos + k
		run := backtickRun(body[i:])
		for j0 < len(nls) && nls[j0].pos < i+run {
			j0++
		}
		if j0 >= len(nls) {
			break
		}
		n1 := nls[j0].pos // the newline ending the opening line
		j := j0 + 1       // the closing newline comes after it
		if j >= len(nls) || sufMax[j] < 3 {
			break // no later position can match either
		}
		kk := min(run, sufMax[j])
		for nls[j].run < kk {
			j++
		}
		c := nls[j].pos
		w := i + kk
		for w < len(body) && isASCIIWordByte(body[w]) {
			w++
		}
		last = fenceMatch{start: i, lang: body[i+kk : w], content: body[n1+1 : c]}
		found = true
		pos = c + 1 + kk
	}
	return last, found
}

// ---------------------------------------------------------------------------
// Rules 2 to 4.

type legacyResult struct {
	text   string
	recs   []Record
	buried []int // review blocks whose token fell inside a trailing block
}

type legacyRegion struct {
	kind    string
	content string
}

// runLegacy applies rules 1 to 4 with the review blocks found, leaving the
// ones marked in skip as text.
func runLegacy(text string, blocks []reviewBlock, skip []bool) (legacyResult, bool) {
	// Rule 1: replace the blocks by tokens, remembering where they are.
	var tokPos, tokBlock []int
	s1 := text
	for i := range blocks {
		if skip == nil || !skip[i] {
			tokBlock = append(tokBlock, i)
		}
	}
	if len(tokBlock) > 0 {
		var b strings.Builder
		b.Grow(len(text))
		last := 0
		for _, i := range tokBlock {
			b.WriteString(text[last:blocks[i].start])
			tokPos = append(tokPos, b.Len())
			b.WriteString(reviewToken)
			last = blocks[i].end
		}
		b.WriteString(text[last:])
		s1 = b.String()
	}

	// Rule 2: tokens at the very end are kept for the end.
	prose := s1
	inProse := len(tokPos)
	for inProse > 0 {
		t := trimEndJS(prose)
		if tokPos[inProse-1]+len(reviewToken) != len(t) {
			break
		}
		prose = t[:tokPos[inProse-1]]
		inProse--
	}
	prose = strings.TrimRight(prose, "\n")

	// Rule 3: peel trailing blocks.
	var regions []legacyRegion
	for {
		if cut, content, ok := trailingBlock(prose, previewBlockOpen, previewBlockClose); ok {
			regions = append(regions, legacyRegion{KindPreviewAnnotation, content})
			prose = prose[:cut]
			continue
		}
		if cut, content, ok := trailingBlock(prose, elementBlockOpen, elementBlockClose); ok {
			regions = append(regions, legacyRegion{KindElement, content})
			prose = prose[:cut]
			continue
		}
		if cut, content, ok := trailingBlock(prose, terminalBlockOpen, terminalBlockClose); ok {
			regions = append(regions, legacyRegion{KindTerminal, content})
			prose = prose[:cut]
			continue
		}
		break
	}
	var res legacyResult
	for k := 0; k < inProse; k++ {
		if tokPos[k] >= len(prose) {
			res.buried = append(res.buried, tokBlock[k])
		}
	}
	if len(res.buried) > 0 {
		return res, true
	}

	// Parse the peeled blocks, in text order.
	var terms []legacyTerminal
	var elems []legacyElement
	var previews []legacyPreview
	for r := len(regions) - 1; r >= 0; r-- {
		reg := regions[r]
		switch reg.kind {
		case KindTerminal, KindElement:
			entries, ok := parseLegacyEntries(reg.content)
			if !ok {
				return res, false
			}
			for _, e := range entries {
				if reg.kind == KindTerminal {
					t, ok := buildLegacyTerminal(e)
					if !ok {
						return res, false
					}
					terms = append(terms, t)
				} else {
					d, label, ok := buildLegacyElement(e)
					if !ok {
						return res, false
					}
					elems = append(elems, legacyElement{d, label})
				}
			}
		case KindPreviewAnnotation:
			p, ok := buildLegacyPreview(reg.content)
			if !ok {
				return res, false
			}
			previews = append(previews, p)
		}
	}

	// Records, in contract order, each checked against the schema.
	recs := make([]Record, 0, len(terms)+len(elems)+len(previews)+len(tokBlock))
	links := make([]string, 0, cap(recs))
	add := func(r Record) bool {
		raw, err := MarshalRecord(r)
		if err != nil {
			return false
		}
		d, err := DecodeRecord(raw)
		if err != nil {
			return false
		}
		recs = append(recs, d)
		links = append(links, LinkFor(d))
		return true
	}
	for i := range terms {
		r := terms[i].rec
		r.Base = NewBase(KindTerminal, "legacy_terminal_"+strconv.Itoa(i+1), terms[i].label)
		if !add(&r) {
			return res, false
		}
	}
	for i := range elems {
		r := &ElementRecord{Base: NewBase(KindElement, "legacy_element_"+strconv.Itoa(i+1), elems[i].label), ElementDetails: elems[i].d}
		if !add(r) {
			return res, false
		}
	}
	for i := range previews {
		r := previews[i].rec
		r.Base = NewBase(KindPreviewAnnotation, "legacy_preview-annotation_"+strconv.Itoa(i+1), previews[i].label)
		if !add(&r) {
			return res, false
		}
	}
	for n, i := range tokBlock {
		b := &blocks[i]
		if b.bad {
			return res, false
		}
		r := b.rec
		r.Base = NewBase(KindReviewComment, "legacy_review-comment_"+strconv.Itoa(n+1), b.label)
		if !add(&r) {
			return res, false
		}
	}
	if len(recs) == 0 {
		return res, true
	}

	// Rule 4.
	nt, ne, np := len(terms), len(elems), len(previews)
	termLinks := links[:nt]
	reviewLinks := links[nt+ne+np:]
	needles := make([]string, nt)
	for i := range terms {
		needles[i] = terms[i].needle
	}
	body, placed := placeLegacyLinks(prose, tokPos[:inProse], reviewLinks[:inProse], termLinks, needles)
	var tail []string
	for i, ok := range placed {
		if !ok {
			tail = append(tail, termLinks[i])
		}
	}
	tail = append(tail, links[nt:nt+ne+np]...)
	tail = append(tail, reviewLinks[inProse:]...)
	if len(tail) > 0 {
		if body != "" {
			body += "\n\n"
		}
		body += strings.Join(tail, " ")
	}
	res.text = body
	res.recs = recs
	return res, true
}

// trailingBlock matches \n*<open>([\s\S]*?)<close>\s*$ (open ends and close
// starts with the newline) as JavaScript does: the block starts at the first
// opener of the text. cut is where the newlines before the opener start.
func trailingBlock(s, open, close string) (cut int, content string, ok bool) {
	t := trimEndJS(s)
	if !strings.HasSuffix(t, close) {
		return 0, "", false
	}
	closeNL := len(t) - len(close)
	i := strings.Index(s, open)
	if i < 0 || i+len(open) > closeNL {
		return 0, "", false
	}
	cut = i
	for cut > 0 && s[cut-1] == '\n' {
		cut--
	}
	return cut, s[i+len(open) : closeNL], true
}

// placeLegacyLinks is rule 4 on the prose: review tokens become their links,
// U+FFFC placeholders bind terminals in order (extra ones vanish), terminals
// left over bind at their inline label; trailing white space is trimmed.
// placed tells which terminals found a place.
func placeLegacyLinks(prose string, tokPos []int, reviewLinks, termLinks, needles []string) (string, []bool) {
	type mark struct {
		pos, end int
		link     string
	}
	placed := make([]bool, len(termLinks))
	var marks []mark
	var f strings.Builder
	f.Grow(len(prose))
	next := 0
	// Each inserted link stands in f as one space, so that no inline label
	// can match across it and the boundary rules see a non-word character
	// there, as they would see '[' or ')'.
	emit := func(seg string) {
		for {
			k := strings.Index(seg, legacyPlaceholder)
			if k < 0 {
				f.WriteString(seg)
				return
			}
			f.WriteString(seg[:k])
			if next < len(termLinks) {
				marks = append(marks, mark{f.Len(), f.Len() + 1, termLinks[next]})
				f.WriteByte(' ')
				placed[next] = true
				next++
			}
			seg = seg[k+len(legacyPlaceholder):]
		}
	}
	last := 0
	for i, p := range tokPos {
		emit(prose[last:p])
		marks = append(marks, mark{f.Len(), f.Len() + 1, reviewLinks[i]})
		f.WriteByte(' ')
		last = p + len(reviewToken)
	}
	emit(prose[last:])
	flat := f.String()
	if next < len(termLinks) {
		starts := bindInlineLabels(flat, needles[next:])
		for j, p := range starts {
			if p >= 0 {
				i := next + j
				marks = append(marks, mark{p, p + len(needles[i]), termLinks[i]})
				placed[i] = true
			}
		}
		sort.Slice(marks, func(a, b int) bool { return marks[a].pos < marks[b].pos })
	}
	if len(marks) == 0 {
		return trimEndJS(flat), placed
	}
	var b strings.Builder
	size := len(flat)
	for _, m := range marks {
		size += len(m.link)
	}
	b.Grow(size)
	last = 0
	for _, m := range marks {
		b.WriteString(flat[last:m.pos])
		b.WriteString(m.link)
		last = m.end
	}
	b.WriteString(flat[last:])
	return trimEndJS(b.String()), placed
}

// ---------------------------------------------------------------------------
// Inline labels.

const (
	hashMod  = 1<<61 - 1
	hashBase = 0x1d5b3f2a9c4e7 % hashMod
)

func mulMod(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	r := (lo & hashMod) + (lo >> 61) + (hi << 3)
	r = (r & hashMod) + (r >> 61)
	if r >= hashMod {
		r -= hashMod
	}
	return r
}

func addMod(a, b uint64) uint64 {
	r := a + b
	if r >= hashMod {
		r -= hashMod
	}
	return r
}

func hashStep(h uint64, c byte) uint64 { return addMod(mulMod(h, hashBase), uint64(c)+1) }

func isInlineWordRune(r rune) bool {
	return r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// inlinePrevOK: the character before p is not a letter, number, mark, '_',
// '@', '.' or '-'.
func inlinePrevOK(s string, p int) bool {
	if p == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:p])
	return !(r == '@' || r == '.' || isInlineWordRune(r))
}

// inlineNextOK: the text from e does not start with a letter, number, mark,
// '_' or '-', nor with a run of '.'/'@' followed by one.
func inlineNextOK(s string, e int) bool {
	i := e
	for i < len(s) && (s[i] == '.' || s[i] == '@') {
		i++
	}
	if i == len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !isInlineWordRune(r)
}

// bindInlineLabels returns, for each needle (in terminal order), where in s
// it binds, or -1. One left-to-right pass: at each '@' that may start a
// label, the occurrences there (needles hold no white space, so they end
// before the next white space) are looked up by rolling hash; the one whose
// first unplaced terminal comes first binds, and the pass resumes after it.
// The work is bounded by the pairs ('@', label end) less than the longest
// needle apart.
func bindInlineLabels(s string, needles []string) []int {
	starts := make([]int, len(needles))
	for i := range starts {
		starts[i] = -1
	}
	if strings.IndexByte(s, '@') < 0 {
		return starts
	}
	type group struct {
		needle string
		ids    []int
		next   int
	}
	groups := make(map[string]*group)
	byHash := make(map[uint64][]*group)
	maxLen := 0
	for i, n := range needles {
		g := groups[n]
		if g == nil {
			g = &group{needle: n}
			groups[n] = g
			var h uint64
			for j := 0; j < len(n); j++ {
				h = hashStep(h, n[j])
			}
			byHash[h] = append(byHash[h], g)
			maxLen = max(maxLen, len(n))
		}
		g.ids = append(g.ids, i)
	}
	lenSet := make([]bool, maxLen+1)
	for n := range groups {
		lenSet[len(n)] = true
	}
	var ats []int
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], '@')
		if k < 0 {
			break
		}
		p := i + k
		if inlinePrevOK(s, p) {
			ats = append(ats, p)
		}
		i = p + 1
	}
	if len(ats) == 0 {
		return starts
	}
	var ends []int
	for e := ats[0] + 1; e <= len(s); e++ {
		if isDigitByte(s[e-1]) && (e == len(s) || !isDigitByte(s[e])) && inlineNextOK(s, e) {
			ends = append(ends, e)
		}
	}
	if len(ends) == 0 {
		return starts
	}
	// Prefix hashes, kept only where a label may start or end.
	atHash := make([]uint64, len(ats))
	endHash := make([]uint64, len(ends))
	var h uint64
	ai, ei := 0, 0
	for i := ats[0]; i <= len(s) && ei < len(ends); i++ {
		for ai < len(ats) && ats[ai] == i {
			atHash[ai] = h
			ai++
		}
		for ei < len(ends) && ends[ei] == i {
			endHash[ei] = h
			ei++
		}
		if i < len(s) {
			h = hashStep(h, s[i])
		}
	}
	pow := make([]uint64, maxLen+1)
	pow[0] = 1
	for i := 1; i <= maxLen; i++ {
		pow[i] = mulMod(pow[i-1], hashBase)
	}
	remaining := len(needles)
	ep := 0
	ws := -1 // first white space after the current '@'
	resume := 0
	for ai, p := range ats {
		if p < resume {
			continue
		}
		if ws <= p {
			ws = nextJSSpace(s, p+1)
		}
		limit := min(p+maxLen, ws)
		for ep < len(ends) && ends[ep] <= p {
			ep++
		}
		var best *group
		bestEnd := 0
		for k := ep; k < len(ends) && ends[k] <= limit; k++ {
			e := ends[k]
			l := e - p
			if !lenSet[l] {
				continue
			}
			hh := endHash[k] + hashMod - mulMod(atHash[ai], pow[l])
			if hh >= hashMod {
				hh -= hashMod
			}
			for _, g := range byHash[hh] {
				if g.next < len(g.ids) && len(g.needle) == l && s[p:e] == g.needle &&
					(best == nil || g.ids[g.next] < best.ids[best.next]) {
					best, bestEnd = g, e
				}
			}
		}
		if best != nil {
			starts[best.ids[best.next]] = p
			best.next++
			resume = bestEnd
			if remaining--; remaining == 0 {
				break
			}
		}
	}
	return starts
}

// nextJSSpace returns the index of the first white space at or after i, or
// len(s).
func nextJSSpace(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == ' ' || c >= '\t' && c <= '\r' {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if isJSSpace(r) {
			return i
		}
		i += size
	}
	return i
}

// ---------------------------------------------------------------------------
// Trailing block bodies.

type legacyEntry struct {
	header string
	lines  []string
}

// parseLegacyEntries splits a terminal or element block body into entries:
// "- <header>:" starts one, lines starting with two spaces belong to it (the
// two spaces removed), blank lines are kept; anything else is malformed.
func parseLegacyEntries(content string) ([]legacyEntry, bool) {
	var out []legacyEntry
	for rest, more := content, true; more; {
		var line string
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			line, more = rest, false
		}
		switch {
		case strings.HasPrefix(line, "  "):
			if len(out) == 0 {
				return nil, false
			}
			out[len(out)-1].lines = append(out[len(out)-1].lines, line[2:])
		case isBlankJS(line):
			if len(out) > 0 {
				out[len(out)-1].lines = append(out[len(out)-1].lines, line)
			}
		case strings.HasPrefix(line, "- "):
			h := trimEndJS(line)
			if len(h) < 3 || h[len(h)-1] != ':' {
				return nil, false
			}
			out = append(out, legacyEntry{header: h[2 : len(h)-1]})
		default:
			return nil, false
		}
	}
	return out, true
}

type legacyTerminal struct {
	rec    TerminalRecord
	label  string
	needle string
}

// buildLegacyTerminal reads a terminal entry: header "<label> line N" or
// "<label> lines A-B"; body lines lose a leading "<digits> |" and the space
// after it.
func buildLegacyTerminal(e legacyEntry) (legacyTerminal, bool) {
	name, start, end, rng, ok := parseTerminalHeader(e.header)
	if !ok {
		return legacyTerminal{}, false
	}
	label := TrimJS(name)
	id := terminalSlug(label)
	var b strings.Builder
	for i, l := range e.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(stripLineNumber(l))
	}
	return legacyTerminal{
		rec: TerminalRecord{
			TerminalID:    id,
			TerminalLabel: label,
			LineStart:     start,
			LineEnd:       end,
			Text:          b.String(),
		},
		label:  e.header,
		needle: "@" + id + ":" + rng,
	}, true
}

// parseTerminalHeader matches ^(.+) lines (\d+)-(\d+)$ or ^(.+) line (\d+)$.
func parseTerminalHeader(h string) (name string, start, end int64, rng string, ok bool) {
	j := len(h)
	i := j
	for i > 0 && isDigitByte(h[i-1]) {
		i--
	}
	if i == j {
		return "", 0, 0, "", false
	}
	if i > 0 && h[i-1] == '-' {
		k := i - 1
		m := k
		for m > 0 && isDigitByte(h[m-1]) {
			m--
		}
		if m < k && strings.HasSuffix(h[:m], " lines ") && m > len(" lines ") {
			a, aok := parseSafeInt(h[m:k])
			b, bok := parseSafeInt(h[i:j])
			if !aok || !bok {
				return "", 0, 0, "", false
			}
			return h[:m-len(" lines ")], a, b, strconv.FormatInt(a, 10) + "-" + strconv.FormatInt(b, 10), true
		}
	}
	if strings.HasSuffix(h[:i], " line ") && i > len(" line ") {
		n, nok := parseSafeInt(h[i:j])
		if !nok {
			return "", 0, 0, "", false
		}
		return h[:i-len(" line ")], n, n, strconv.FormatInt(n, 10), true
	}
	return "", 0, 0, "", false
}

func stripLineNumber(s string) string {
	i := 0
	for i < len(s) && isDigitByte(s[i]) {
		i++
	}
	if i == 0 || !strings.HasPrefix(s[i:], " |") {
		return s
	}
	i += 2
	if i < len(s) && s[i] == ' ' {
		i++
	}
	return s[i:]
}

// terminalSlug lower-cases a label as JavaScript does and turns white space
// runs into '-'.
func terminalSlug(label string) string { return replaceJSSpaceRuns(jsLower(label), '-') }

type legacyElement struct {
	d     ElementDetails
	label string
}

// buildLegacyElement reads an element entry: header "<name>…", key lines
// url, selector, source, and the html and styles sections.
func buildLegacyElement(e legacyEntry) (ElementDetails, string, bool) {
	h := e.header
	k := strings.IndexByte(h, '>')
	if len(h) < 3 || h[0] != '<' || k < 2 {
		return ElementDetails{}, "", false
	}
	name := h[1:k]
	d := ElementDetails{TagName: jsLower(name)}
	if strings.IndexFunc(name, unicode.IsUpper) >= 0 {
		n := name
		d.ComponentName = &n
	}
	var html, styles []string
	var seenURL, seenSel, seenSrc, seenHTML, seenStyles bool
	var section *[]string
	inSection := false
	for _, l := range e.lines {
		if inSection {
			if strings.HasPrefix(l, "  ") {
				if section != nil {
					*section = append(*section, l[2:])
				}
				continue
			}
			if isBlankJS(l) {
				if section != nil {
					*section = append(*section, "")
				}
				continue
			}
			inSection, section = false, nil
		}
		key, val, ok := splitLegacyKey(l)
		if !ok {
			continue
		}
		switch key {
		case "url":
			if !seenURL {
				seenURL = true
				d.PageURL = val
			}
		case "selector":
			if !seenSel {
				seenSel = true
				if val != "" {
					v := val
					d.Selector = &v
				}
			}
		case "source":
			if !seenSrc {
				seenSrc = true
				src, ok := parseLegacySource(val)
				if !ok {
					return ElementDetails{}, "", false
				}
				d.Source = src
			}
		case "html", "styles":
			inSection = true
			target, seen := &html, &seenHTML
			if key == "styles" {
				target, seen = &styles, &seenStyles
			}
			if *seen {
				section = nil
				break
			}
			*seen = true
			section = target
			if val != "" {
				*section = append(*section, val)
			}
		}
	}
	d.HTMLPreview = TrimJS(strings.Join(html, "\n"))
	d.Styles = TrimJS(strings.Join(styles, "\n"))
	return d, "<" + name + ">", true
}

// splitLegacyKey reads "key: value" with a lower-case ASCII key; the value
// is trimmed.
func splitLegacyKey(l string) (key, val string, ok bool) {
	i := 0
	for i < len(l) && l[i] >= 'a' && l[i] <= 'z' {
		i++
	}
	if i == 0 || i >= len(l) || l[i] != ':' {
		return "", "", false
	}
	return l[:i], TrimJS(l[i+1:]), true
}

// parseLegacySource reads "file[:line[:column]]". ok is false when a number
// is not a safe integer (the record would fail the schema).
func parseLegacySource(v string) (*ElementSource, bool) {
	if v == "" {
		return nil, true
	}
	src := &ElementSource{}
	var nums []int64
	rest := v
	for len(nums) < 2 {
		j := len(rest)
		i := j
		for i > 0 && isDigitByte(rest[i-1]) {
			i--
		}
		if i == j || i == 0 || rest[i-1] != ':' {
			break
		}
		n, ok := parseSafeInt(rest[i:j])
		if !ok {
			return nil, false
		}
		nums = append(nums, n)
		rest = rest[:i-1]
	}
	switch len(nums) {
	case 2:
		src.LineNumber, src.ColumnNumber = &nums[1], &nums[0]
	case 1:
		src.LineNumber = &nums[0]
	}
	if rest != "" {
		f := rest
		src.FileName = &f
	}
	return src, true
}

type legacyPreview struct {
	rec   PreviewAnnotationRecord
	label string
}

// buildLegacyPreview reads a preview annotation block body.
func buildLegacyPreview(content string) (legacyPreview, bool) {
	var id, page, comment, targets string
	var haveID, havePage, haveComment, haveTargets bool
	lines := strings.Split(content, "\n")
	changesAt := -1
	for i, l := range lines {
		switch {
		case !haveID && strings.HasPrefix(l, "Id: "):
			id, haveID = TrimJS(l[len("Id: "):]), true
		case !havePage && strings.HasPrefix(l, "Page: "):
			page, havePage = TrimJS(l[len("Page: "):]), true
		case !haveComment && strings.HasPrefix(l, "Comment: "):
			comment, haveComment = TrimJS(l[len("Comment: "):]), true
		case !haveTargets && strings.HasPrefix(l, "Targets: "):
			targets, haveTargets = TrimJS(l[len("Targets: "):]), true
		case changesAt < 0 && trimEndJS(l) == "Requested visual changes:":
			changesAt = i
		}
	}
	changes := []string{}
	if changesAt >= 0 {
		for _, l := range lines[changesAt+1:] {
			if !strings.HasPrefix(l, "- ") {
				break
			}
			changes = append(changes, TrimJS(l[2:]))
		}
	}
	var els []ElementDetails
	for rest := content; ; {
		i := strings.Index(rest, elementBlockOpen)
		if i < 0 {
			break
		}
		cs := i + len(elementBlockOpen)
		c := strings.Index(rest[cs:], elementBlockClose)
		if c < 0 {
			break
		}
		entries, ok := parseLegacyEntries(rest[cs : cs+c])
		if !ok {
			return legacyPreview{}, false
		}
		for _, e := range entries {
			d, _, ok := buildLegacyElement(e)
			if !ok {
				return legacyPreview{}, false
			}
			els = append(els, d)
		}
		rest = rest[cs+c+len(elementBlockClose):]
	}
	r := PreviewAnnotationRecord{
		AnnotationID:  id,
		Comment:       comment,
		TargetSummary: targets,
		StyleChanges:  changes,
	}
	if hasPrefixFold(page, "http://") || hasPrefixFold(page, "https://") {
		r.PageURL = page
	} else {
		if page != "" {
			p := page
			r.PageTitle = &p
		}
		if len(els) > 0 {
			r.PageURL = els[0].PageURL
		}
	}
	if len(els) > 0 {
		r.Elements = &els
	}
	label := page
	if label == "" {
		label = legacyPreviewLabel
	}
	return legacyPreview{rec: r, label: label}, true
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// ---------------------------------------------------------------------------
// JavaScript's String.prototype.toLowerCase.

// jsLower lower-cases s as JavaScript does: the default full mapping (İ
// becomes "i̇") and the final-sigma rule.
func jsLower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch r {
		case 0x130:
			b.WriteString("i\u0307")
		case 0x3A3:
			if isFinalSigma(s, i) {
				b.WriteRune(0x3C2)
			} else {
				b.WriteRune(0x3C3)
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// isFinalSigma applies Unicode's Final_Sigma condition to the Σ at i.
func isFinalSigma(s string, i int) bool {
	before := false
	for j := i; j > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		j -= size
		if isCaseIgnorable(r) {
			continue
		}
		before = isCased(r)
		break
	}
	if !before {
		return false
	}
	for j := i + utf8.RuneLen(0x3A3); j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		j += size
		if isCaseIgnorable(r) {
			continue
		}
		return !isCased(r)
	}
	return true
}

func isCased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

func isCaseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
