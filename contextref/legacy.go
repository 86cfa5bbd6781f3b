package contextref

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// UpgradeLegacy turns the context blocks of an older T3 Code message into
// reference links and records, in memory (DESIGN.md 3.6, the "precise
// rules", which follow T3 Code's code): review blocks anywhere in the text
// first, then the trailing <preview_annotation>, <element_context> and
// <terminal_context> blocks, then U+FFFC placeholders and inline
// @<slug>:<range> labels. Records come in the order terminals, elements,
// previews, reviews, with ids legacy_<kind>_<n>.
//
// A text holding none of <terminal_context, <element_context,
// <preview_annotation, <review_comment (each followed by a word boundary)
// nor U+FFFC returns at once, unchanged and without allocating. Once
// triggered, an upgrade that runs to completion returns its text
// right-trimmed (JavaScript trimEnd) even when nothing converts, with
// orphan U+FFFC placeholders deleted; a malformed trailing block or a record
// list failing the schema (more than 200 records, or a record that the
// type-side schema refuses) gives the original text back byte for byte.
// records is nil when there are none.
//
// It is total and about linear in the text (inline labels cost one pass
// per terminal, and there are at most 200 of them).
//
// Decisions where the contract is silent: annotationId must be non-empty
// (the schema's rule), so a preview without an "Id: " line fails the
// message; the type-side check is "the record encodes, decodes and encodes
// to the same bytes", so any field the schema would trim, or refuse, fails.
func UpgradeLegacy(text string) (string, []Record) {
	if !hasLegacyTrigger(text) {
		return text, nil
	}
	out, recs, ok := upgradeLegacy(text)
	if !ok {
		return text, nil
	}
	if len(recs) == 0 {
		recs = nil
	}
	return out, recs
}

const (
	legacyPlaceholder = "\uFFFC"
	reviewOpenTag     = "<review_comment"
	reviewCloseTag    = "</review_comment>"
	reviewTokenUnit   = "\uE000"

	terminalBlockOpen  = "<terminal_context>\n"
	terminalBlockClose = "\n</terminal_context>"
	elementBlockOpen   = "<element_context>\n"
	elementBlockClose  = "\n</element_context>"
	previewBlockOpen   = "<preview_annotation>\n"
	previewBlockClose  = "\n</preview_annotation>"

	legacyPreviewLabel = "Preview annotation"
	maxLegacyRecords   = MaxContextRecords
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

func upgradeLegacy(text string) (string, []Record, bool) {
	// Rule 1: review blocks become private tokens in place.
	tok, realTok := reviewTokens(text)
	var reviews []*ReviewCommentRecord
	tooMany := false
	rest := replaceReviewBlocks(text, func(whole, attrs, body string) string {
		if tooMany {
			return whole
		}
		r := legacyReviewRecord(attrs, body)
		if r == nil || !typeSideValid(r) {
			return whole
		}
		if len(reviews) == maxLegacyRecords {
			tooMany = true // the record list will fail the atomic check
			return whole
		}
		reviews = append(reviews, r)
		return tok + strconv.Itoa(len(reviews)-1) + tok
	})
	if tooMany {
		return "", nil, false
	}

	// Rule 2: the run of tokens at the very end, with the white space before
	// it, is cut off; those reviews are appended last.
	cut, trailing := trailingReviewTokens(rest, tok)
	if len(trailing) > 0 {
		rest = strings.TrimRight(rest[:cut], "\n")
	}

	// Rule 3: trailing blocks.
	var termEntries, elemEntries [][]legacyEntry
	var previewBodies []string
	for {
		if cut, body, ok := trailingPreview(rest); ok {
			rest = strings.TrimRight(rest[:cut], "\n")
			previewBodies = append(previewBodies, body)
			continue
		}
		if cut, body, ok := trailingBlock(rest, elementBlockOpen, elementBlockClose); ok {
			entries, ok := parseLegacyEntries(body)
			if !ok || len(entries) == 0 {
				return "", nil, false
			}
			for _, e := range entries {
				if _, _, ok := legacyElement(e); !ok {
					return "", nil, false
				}
			}
			rest = strings.TrimRight(rest[:cut], "\n")
			elemEntries = append(elemEntries, entries)
			continue
		}
		if cut, body, ok := trailingBlock(rest, terminalBlockOpen, terminalBlockClose); ok {
			entries, ok := parseLegacyEntries(body)
			if !ok || len(entries) == 0 {
				return "", nil, false
			}
			for _, e := range entries {
				if _, ok := legacyTerminal(e); !ok {
					return "", nil, false
				}
			}
			rest = strings.TrimRight(rest[:cut], "\n")
			termEntries = append(termEntries, entries)
			continue
		}
		break
	}

	// Records, in text order within each kind (blocks were peeled from the
	// end).
	var terms []*legacyTerm
	for i := len(termEntries) - 1; i >= 0; i-- {
		for _, e := range termEntries[i] {
			t, _ := legacyTerminal(e)
			t.rec.Base = NewBase(KindTerminal, "legacy_terminal_"+strconv.Itoa(len(terms)+1), e.header)
			terms = append(terms, t)
		}
	}
	var elems []*ElementRecord
	for i := len(elemEntries) - 1; i >= 0; i-- {
		for _, e := range elemEntries[i] {
			d, label, _ := legacyElement(e)
			elems = append(elems, &ElementRecord{Base: NewBase(KindElement, "legacy_element_"+strconv.Itoa(len(elems)+1), label), ElementDetails: d})
		}
	}
	var previews []*PreviewAnnotationRecord
	for i := len(previewBodies) - 1; i >= 0; i-- {
		p, ok := legacyPreview(previewBodies[i])
		if !ok {
			return "", nil, false
		}
		p.Base = NewBase(KindPreviewAnnotation, "legacy_preview-annotation_"+strconv.Itoa(len(previews)+1), p.Label)
		previews = append(previews, p)
	}
	total := len(terms) + len(elems) + len(previews) + len(reviews)
	if total > maxLegacyRecords {
		return "", nil, false
	}
	for i, r := range reviews {
		r.Base = NewBase(KindReviewComment, "legacy_review-comment_"+strconv.Itoa(i+1), r.Label)
	}

	// Rule 4: placement.
	body := replaceReviewTokens(rest, tok, func(i int) string {
		if i < 0 || i >= len(reviews) {
			return ""
		}
		return LinkFor(reviews[i])
	})
	placed := make([]bool, len(terms))
	if strings.Contains(body, legacyPlaceholder) {
		next := 0
		var b strings.Builder
		b.Grow(len(body))
		for {
			k := strings.Index(body, legacyPlaceholder)
			if k < 0 {
				b.WriteString(body)
				break
			}
			b.WriteString(body[:k])
			if next < len(terms) {
				b.WriteString(LinkFor(&terms[next].rec))
				placed[next] = true
			}
			next++
			body = body[k+len(legacyPlaceholder):]
		}
		body = b.String()
	}
	for i, t := range terms {
		if placed[i] {
			continue
		}
		if at := findInlineLabel(body, t.inline); at >= 0 {
			body = body[:at] + LinkFor(&t.rec) + body[at+len(t.inline):]
			placed[i] = true
		}
	}
	body = trimEndJS(body)

	var links []string
	var recs []Record
	for i, t := range terms {
		if !placed[i] {
			links = append(links, LinkFor(&t.rec))
		}
		recs = append(recs, &t.rec)
	}
	for _, e := range elems {
		links = append(links, LinkFor(e))
		recs = append(recs, e)
	}
	for _, p := range previews {
		links = append(links, LinkFor(p))
		recs = append(recs, p)
	}
	for _, i := range trailing {
		if i >= 0 && i < len(reviews) {
			links = append(links, LinkFor(reviews[i]))
		}
	}
	for _, r := range reviews {
		recs = append(recs, r)
	}
	if len(links) > 0 {
		if body != "" {
			body += "\n\n"
		}
		body += strings.Join(links, " ")
	}

	// Rule 5: the atomic check. A record holding a stand-in token gets the
	// contract's token back first.
	for i, r := range recs {
		if realTok != "" {
			var ok bool
			if r, ok = withRealTokens(r, tok, realTok); !ok {
				return "", nil, false
			}
			recs[i] = r
		}
		if !typeSideValid(r) {
			return "", nil, false
		}
	}
	return body, recs, true
}

// reviewTokens returns the private token of rule 1: U+E000 doubled until it
// does not occur in the text. When that token would be long (the text holds
// a run of 64 or more U+E000), a one-character stand-in absent from the text
// is used instead, and realTok is the contract's token: the two behave alike
// in every rule (neither is white space, a digit or part of a tag), and
// only a record that captured a token needs the real one back.
func reviewTokens(text string) (tok, realTok string) {
	tok = reviewTokenUnit
	for strings.Contains(text, tok) {
		tok += tok
		if len(tok) >= 64*len(reviewTokenUnit) {
			break
		}
	}
	if !strings.Contains(text, tok) {
		return tok, ""
	}
	real := tok
	for strings.Contains(text, real) {
		real += real
	}
	if c, ok := absentPrivateRune(text); ok {
		return string(c), real
	}
	return real, ""
}

// absentPrivateRune finds a character of the supplementary private use
// planes that text does not hold.
func absentPrivateRune(text string) (rune, bool) {
	const lo, hi = 0xF0000, 0x10FFFD
	seen := make([]uint64, (hi-lo)/64+1)
	for _, r := range text {
		if r >= lo && r <= hi {
			seen[(r-lo)/64] |= 1 << ((r - lo) % 64)
		}
	}
	for r := rune(lo); r <= hi; r++ {
		if seen[(r-lo)/64]&(1<<((r-lo)%64)) == 0 && r&0xFFFE != 0xFFFE {
			return r, true
		}
	}
	return 0, false
}

// withRealTokens rewrites the stand-in tokens a record holds into the
// contract's token. A record that would grow past every field bound fails.
func withRealTokens(r Record, tok, realTok string) (Record, bool) {
	raw, err := MarshalRecord(r)
	if err != nil {
		return nil, false
	}
	n := strings.Count(string(raw), tok)
	if n == 0 {
		return r, true
	}
	if UTF16Len(realTok) > MaxTerminalTextLen {
		return nil, false // no field holds that much
	}
	fixed := strings.ReplaceAll(string(raw), tok, realTok)
	d, err := DecodeRecord([]byte(fixed))
	if err != nil {
		return nil, false
	}
	return d, true
}

// typeSideValid is the type-side schema check: the record encodes, decodes
// and encodes to the same bytes (a field the schema would trim or refuse
// fails).
func typeSideValid(r Record) bool {
	raw, err := MarshalRecord(r)
	if err != nil {
		return false
	}
	d, err := DecodeRecord(raw)
	if err != nil {
		return false
	}
	again, err := MarshalRecord(d)
	return err == nil && string(again) == string(raw)
}

// ---------------------------------------------------------------------------
// Rule 1: the review scanner.

// isLineStart reports whether i is at the start of a line as JavaScript's
// multiline ^ sees it: the text start, or after \n, \r, U+2028 or U+2029.
func isLineStart(s string, i int) bool {
	if i == 0 {
		return true
	}
	switch s[i-1] {
	case '\n', '\r':
		return true
	}
	return i >= 3 && (s[i-3:i] == "\u2028" || s[i-3:i] == "\u2029")
}

var contextBlockTags = [...]string{"terminal_context", "element_context", "preview_annotation"}

// replaceReviewBlocks finds, left to right, an opening
// <review_comment\b[^>]*> or a context block (a line-start
// <terminal_context>, <element_context> or <preview_annotation> line and
// the shortest run to a line-start closing tag of that name). A context
// block is skipped whole. An opening ends at the first </review_comment>
// outside a code fence; replace gets the whole block, the raw attribute text
// and the body. An opening that never ends stops the scan there.
func replaceReviewBlocks(text string, replace func(whole, attrs, body string) string) string {
	if !strings.Contains(text, reviewOpenTag) {
		return text
	}
	var b strings.Builder
	consumed, pos := 0, 0
	noGTAfter := len(text) + 1    // no '>' at or after this position
	closeAt := [3]int{-2, -2, -2} // per context tag: -2 unknown, -1 none, else the last closing found
	for pos < len(text) {
		k := strings.IndexByte(text[pos:], '<')
		if k < 0 {
			break
		}
		p := pos + k
		rest := text[p:]
		// A context block at a line start.
		if isLineStart(text, p) {
			skipped := false
			for ti, tag := range contextBlockTags {
				open := "<" + tag + ">\n"
				if !strings.HasPrefix(rest, open) {
					continue
				}
				e := p + len(open)
				closing := "\n</" + tag + ">"
				// The first closing at or after e; once none is found, none
				// is found for a later e either.
				if closeAt[ti] == -2 || closeAt[ti] >= 0 && closeAt[ti] < e {
					if c := strings.Index(text[e:], closing); c >= 0 {
						closeAt[ti] = e + c
					} else {
						closeAt[ti] = -1
					}
				}
				if closeAt[ti] >= e {
					pos = closeAt[ti] + len(closing)
					skipped = true
				}
				break
			}
			if skipped {
				continue
			}
		}
		if strings.HasPrefix(rest, reviewOpenTag) && (len(rest) == len(reviewOpenTag) || !isASCIIWordByte(rest[len(reviewOpenTag)])) && p+len(reviewOpenTag) < noGTAfter {
			a := p + len(reviewOpenTag)
			g := strings.IndexByte(text[a:], '>')
			if g < 0 {
				noGTAfter = a
			} else {
				bodyStart := a + g + 1
				c := reviewBlockEnd(text, bodyStart)
				if c < 0 {
					break
				}
				end := c + len(reviewCloseTag)
				b.WriteString(text[consumed:p])
				b.WriteString(replace(text[p:end], text[a:a+g], text[bodyStart:c]))
				consumed, pos = end, end
				continue
			}
		}
		pos = p + 1
	}
	if consumed == 0 {
		return text
	}
	b.WriteString(text[consumed:])
	return b.String()
}

// reviewBlockEnd returns where the closing tag of a body starting at from
// is: the first </review_comment> not inside an open fence, or -1. A line
// starting with 3+ backticks (the whole line consumed) opens a fence when
// none is open; while one is open, a line of at least as many backticks
// whose rest is blank closes it.
func reviewBlockEnd(text string, from int) int {
	fence := 0
	cur := from
	nextTag, nextFence := -2, -2
	for {
		if nextTag != -1 && nextTag < cur {
			if k := strings.Index(text[cur:], reviewCloseTag); k >= 0 {
				nextTag = cur + k
			} else {
				nextTag = -1
			}
		}
		if nextFence != -1 && nextFence < cur {
			nextFence = nextFenceLine(text, cur)
		}
		switch {
		case nextFence >= 0 && (nextTag < 0 || nextFence < nextTag):
			run := backtickRun(text[nextFence:])
			lineEnd := len(text)
			if k := strings.IndexByte(text[nextFence:], '\n'); k >= 0 {
				lineEnd = nextFence + k
			}
			if fence == 0 {
				fence = run
			} else if run >= fence && isBlankJS(text[nextFence+run:lineEnd]) {
				fence = 0
			}
			cur = lineEnd
			if cur == nextFence { // cannot happen: a fence line has 3+ backticks
				cur++
			}
		case nextTag >= 0:
			if fence == 0 {
				return nextTag
			}
			cur = nextTag + len(reviewCloseTag)
		default:
			return -1
		}
	}
}

// nextFenceLine returns the first position at or after i that starts a line
// and three backticks, or -1.
func nextFenceLine(text string, i int) int {
	for i < len(text) {
		k := strings.Index(text[i:], "```")
		if k < 0 {
			return -1
		}
		p := i + k
		if isLineStart(text, p) {
			return p
		}
		i = p + 1
	}
	return -1
}

func backtickRun(s string) int {
	n := 0
	for n < len(s) && s[n] == '`' {
		n++
	}
	return n
}

// legacyReviewRecord builds the record of a review block, or nil when the
// block stays text (ids and label are set later).
func legacyReviewRecord(rawAttrs, body string) *ReviewCommentRecord {
	attrs := map[string]string{}
	for _, a := range parseReviewAttrs(rawAttrs) {
		attrs[a[0]] = unescapeAttr(a[1])
	}
	filePath := TrimJS(attrs["filePath"])
	sectionID := TrimJS(attrs["sectionId"])
	si, sok := attrs["startIndex"]
	ei, eok := attrs["endIndex"]
	if filePath == "" || sectionID == "" || !sok || !eok || !allDigits(si) || !allDigits(ei) {
		return nil
	}
	a, aok := parseSafeInt(si)
	e, eok2 := parseSafeInt(ei)
	if !aok || !eok2 {
		return nil // an unsafe integer fails the review schema: the block stays text
	}
	if a > e {
		a, e = e, a
	}
	rangeLabel := TrimJS(attrs["rangeLabel"])
	if rangeLabel == "" {
		rangeLabel = "line"
	}
	sectionTitle := TrimJS(attrs["sectionTitle"])
	if sectionTitle == "" {
		sectionTitle = "Review"
	}
	base := filePath[strings.LastIndexAny(filePath, "/\\")+1:]
	r := &ReviewCommentRecord{
		SectionID:    sectionID,
		SectionTitle: sectionTitle,
		FilePath:     filePath,
		StartIndex:   a,
		EndIndex:     e,
		RangeLabel:   rangeLabel,
	}
	lang := "diff"
	if f, ok := lastFence(body); ok {
		r.Text = TrimJS(body[:f.start])
		r.Diff = f.content
		if f.lang != "" {
			lang = f.lang
		}
	} else {
		r.Text = TrimJS(body)
	}
	r.FenceLanguage = &lang
	r.Base = NewBase(KindReviewComment, "legacy_review-comment_1", base+" "+rangeLabel)
	return r
}

// parseReviewAttrs returns every name="value" of the attribute text, name
// [A-Za-z][A-Za-z0-9_-]*, left to right as a global regular expression
// finds them.
func parseReviewAttrs(s string) [][2]string {
	var out [][2]string
	for i := 0; i < len(s); {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && (isASCIIWordByte(s[j]) || s[j] == '-') {
			j++
		}
		if j+1 < len(s) && s[j] == '=' && s[j+1] == '"' {
			if q := strings.IndexByte(s[j+2:], '"'); q >= 0 {
				out = append(out, [2]string{s[i:j], s[j+2 : j+2+q]})
				i = j + 2 + q + 1
				continue
			}
		}
		// No attribute starts at i; the next try is one character on (a
		// shorter name starting later may still match).
		i++
	}
	return out
}

// unescapeAttr undoes &lt; &gt; &quot; &amp; (replaced in that order, which
// equals one left-to-right pass).
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

type fenceMatch struct {
	start   int
	lang    string
	content string
}

// lastFence returns the last match in body of
// /(`{3,})([^\s`]*)[^\n]*\n([\s\S]*?)\n\1/g, matched as JavaScript does.
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
		lang := ""
		if kk == run { // with fewer backticks than the run the language is empty
			w := i + kk
			for w < n1 {
				r, size := utf8.DecodeRuneInString(body[w:])
				if r == '`' || isJSSpace(r) {
					break
				}
				w += size
			}
			lang = body[i+kk : w]
		}
		last = fenceMatch{start: i, lang: lang, content: body[n1+1 : c]}
		found = true
		pos = c + 1 + kk
	}
	return last, found
}

// ---------------------------------------------------------------------------
// Rule 2: review tokens.

// trailingReviewTokens finds the run of tokens at the very end of s (white
// space allowed between and after): where it starts, white space before it
// included, and the review indices in text order.
func trailingReviewTokens(s, tok string) (int, []int) {
	end := len(s)
	var idx []int
	cut := len(s)
	for {
		t := trimEndJS(s[:end])
		if !strings.HasSuffix(t, tok) {
			break
		}
		d := len(t) - len(tok)
		ds := d
		for ds > 0 && isDigitByte(t[ds-1]) {
			ds--
		}
		if ds == d || !strings.HasSuffix(t[:ds], tok) {
			break
		}
		n, ok := parseSafeInt(t[ds:d])
		if !ok {
			n = -1
		}
		idx = append(idx, int(n))
		end = ds - len(tok)
		cut = len(trimEndJS(s[:end]))
	}
	if len(idx) == 0 {
		return len(s), nil
	}
	for i, j := 0, len(idx)-1; i < j; i, j = i+1, j-1 {
		idx[i], idx[j] = idx[j], idx[i]
	}
	return cut, idx
}

// replaceReviewTokens rewrites every token<digits>token, left to right.
func replaceReviewTokens(s, tok string, link func(int) string) string {
	if !strings.Contains(s, tok) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last, pos := 0, 0
	for pos < len(s) {
		k := strings.Index(s[pos:], tok)
		if k < 0 {
			break
		}
		p := pos + k
		d := p + len(tok)
		de := d
		for de < len(s) && isDigitByte(s[de]) {
			de++
		}
		if de > d && strings.HasPrefix(s[de:], tok) {
			n, ok := parseSafeInt(s[d:de])
			if !ok {
				n = -1
			}
			b.WriteString(s[last:p])
			b.WriteString(link(int(n)))
			last = de + len(tok)
			pos = last
			continue
		}
		pos = p + 1
	}
	b.WriteString(s[last:])
	return b.String()
}

// ---------------------------------------------------------------------------
// Rule 3: trailing blocks.

// trailingBlock matches /\n*<open>([\s\S]*?)<close>\s*$/ (open ends and
// close starts with the newline) as JavaScript does: the block starts at the
// first opener of the text. cut is where the newlines before it start.
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

// trailingPreview matches the trailing preview pattern: optional newlines,
// <preview_annotation>, newline, a body that never holds
// "\n</preview_annotation>", newline, the closing tag, white space, end. It
// is the last preview block.
func trailingPreview(s string) (cut int, content string, ok bool) {
	t := trimEndJS(s)
	if !strings.HasSuffix(t, previewBlockClose) {
		return 0, "", false
	}
	closeNL := len(t) - len(previewBlockClose)
	from := 0
	if l := strings.LastIndex(t[:closeNL], previewBlockClose); l >= 0 {
		from = max(0, l-len(previewBlockOpen)+1)
	}
	k := strings.Index(s[from:], previewBlockOpen)
	if k < 0 {
		return 0, "", false
	}
	i := from + k
	if i+len(previewBlockOpen) > closeNL {
		return 0, "", false
	}
	cut = i
	for cut > 0 && s[cut-1] == '\n' {
		cut--
	}
	return cut, s[i+len(previewBlockOpen) : closeNL], true
}

type legacyEntry struct {
	header string
	body   string
}

// parseLegacyEntries splits a terminal or element block body into entries:
// a line "- <header>:" starts one, a line starting with two spaces belongs
// to the open entry (spaces removed), a white-space-only line is an empty
// line of the open entry; any other line makes the block malformed. Each
// body is right-trimmed.
func parseLegacyEntries(content string) ([]legacyEntry, bool) {
	var out []legacyEntry
	var lines []string
	open := false
	commit := func() {
		if open {
			out[len(out)-1].body = trimEndJS(strings.Join(lines, "\n"))
		}
		lines = lines[:0]
	}
	for rest, more := content, true; more; {
		var line string
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			line, more = rest, false
		}
		if h, ok := entryHeader(line); ok {
			commit()
			out = append(out, legacyEntry{header: h})
			open = true
			continue
		}
		switch {
		case open && strings.HasPrefix(line, "  "):
			lines = append(lines, line[2:])
		case !isBlankJS(line):
			return nil, false
		case open:
			lines = append(lines, "")
		}
	}
	commit()
	return out, true
}

// entryHeader matches /^- (.+):$/ on one line: "." takes no line
// terminator.
func entryHeader(line string) (string, bool) {
	if len(line) < 4 || !strings.HasPrefix(line, "- ") || line[len(line)-1] != ':' {
		return "", false
	}
	h := line[2 : len(line)-1]
	if hasJSLineTerminator(h) {
		return "", false
	}
	return h, true
}

func hasJSLineTerminator(s string) bool {
	return strings.ContainsAny(s, "\r\n\u2028\u2029")
}

type legacyTerm struct {
	rec    TerminalRecord
	inline string // the @<slug>:<range> label the old send path wrote
}

// legacyTerminal reads a terminal entry: header
// /^(.*?) (?:line (\d+)|lines (\d+)-(\d+))$/ with a non-blank label; body
// lines lose /^\d+ \| ?/.
func legacyTerminal(e legacyEntry) (*legacyTerm, bool) {
	name, a, b, ok := parseTerminalHeader(e.header)
	if !ok {
		return nil, false
	}
	label := TrimJS(name)
	if label == "" {
		return nil, false
	}
	start, sok := parseSafeInt(a)
	end, eok := parseSafeInt(b)
	lines := strings.Split(e.body, "\n")
	for i, l := range lines {
		lines[i] = stripLineNumber(l)
	}
	slug := terminalSlug(label)
	t := &legacyTerm{rec: TerminalRecord{
		TerminalID:    slug,
		TerminalLabel: label,
		LineStart:     start,
		LineEnd:       end,
		Text:          strings.Join(lines, "\n"),
	}}
	if !sok || !eok {
		// Not a safe integer: the record fails the schema (atomic); keep a
		// marker that cannot pass the check.
		t.rec.LineStart, t.rec.LineEnd = 1, 0
	}
	rng := strconv.FormatInt(t.rec.LineStart, 10)
	if t.rec.LineStart != t.rec.LineEnd {
		rng += "-" + strconv.FormatInt(t.rec.LineEnd, 10)
	}
	t.inline = "@" + slug + ":" + rng
	return t, true
}

// parseTerminalHeader matches ^(.*?) (?:line (\d+)|lines (\d+)-(\d+))$ with
// the shortest label.
func parseTerminalHeader(h string) (name, start, end string, ok bool) {
	for i := 0; i < len(h); {
		k := strings.Index(h[i:], " line")
		if k < 0 {
			break
		}
		p := i + k
		rest := h[p+len(" line"):]
		if strings.HasPrefix(rest, " ") && allDigits(rest[1:]) {
			return h[:p], rest[1:], rest[1:], true
		}
		if strings.HasPrefix(rest, "s ") {
			a, b, found := strings.Cut(rest[2:], "-")
			if found && allDigits(a) && allDigits(b) {
				return h[:p], a, b, true
			}
		}
		i = p + 1
	}
	return "", "", "", false
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

// findInlineLabel returns the first occurrence of label in s whose
// neighbours allow it: the character before is not a letter, number, mark,
// '_', '@', '.' or '-', and what follows does not start with a letter,
// number, mark, '_' or '-', nor with a run of '.'/'@' and one of those.
func findInlineLabel(s, label string) int {
	for from := 0; from <= len(s); {
		k := strings.Index(s[from:], label)
		if k < 0 {
			return -1
		}
		at := from + k
		if inlinePrevOK(s, at) && inlineNextOK(s, at+len(label)) {
			return at
		}
		// indexOf(label, at + 1): one UTF-16 unit on; a byte on finds the
		// same next occurrence.
		from = at + 1
	}
	return -1
}

func isInlineWordRune(r rune) bool {
	return r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

func inlinePrevOK(s string, p int) bool {
	if p == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:p])
	return !(r == '@' || r == '.' || isInlineWordRune(r))
}

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

// legacyElement reads an element entry: the header starts with <name>; the
// body's "key: value" lines set fields (the last wins) and "html:" and
// "styles:" start sections of the lines that follow with two spaces (or
// are empty).
func legacyElement(e legacyEntry) (ElementDetails, string, bool) {
	h := e.header
	if len(h) < 3 || h[0] != '<' {
		return ElementDetails{}, "", false
	}
	k := strings.IndexByte(h[1:], '>')
	if k < 1 {
		return ElementDetails{}, "", false
	}
	name := h[1 : 1+k]
	fields := map[string]string{}
	sections := map[string][]string{}
	section := ""
	for _, l := range strings.Split(e.body, "\n") {
		if section != "" && (strings.HasPrefix(l, "  ") || l == "") {
			if l == "" {
				sections[section] = append(sections[section], "")
			} else {
				sections[section] = append(sections[section], l[2:])
			}
			continue
		}
		section = ""
		if key, val, ok := splitLegacyKey(l); ok {
			fields[key] = val
			continue
		}
		if l == "html:" || l == "styles:" {
			section = l[:len(l)-1]
			sections[section] = []string{}
		}
	}
	d := ElementDetails{
		PageURL:     fields["url"],
		TagName:     jsLower(name),
		HTMLPreview: trimEndJS(strings.Join(sections["html"], "\n")),
		Styles:      trimEndJS(strings.Join(sections["styles"], "\n")),
	}
	if v, ok := fields["selector"]; ok {
		d.Selector = &v
	}
	if strings.ContainsFunc(name, func(r rune) bool { return r >= 'A' && r <= 'Z' }) {
		n := name
		d.ComponentName = &n
	}
	if v := fields["source"]; v != "" {
		d.Source = parseLegacySource(v)
	}
	return d, "<" + name + ">", true
}

// splitLegacyKey matches /^([a-z]+): (.*)$/ ("." takes no line terminator).
func splitLegacyKey(l string) (key, val string, ok bool) {
	i := 0
	for i < len(l) && l[i] >= 'a' && l[i] <= 'z' {
		i++
	}
	if i == 0 || !strings.HasPrefix(l[i:], ": ") {
		return "", "", false
	}
	v := l[i+2:]
	if hasJSLineTerminator(v) {
		return "", "", false
	}
	return l[:i], v, true
}

// parseLegacySource matches /^(.*?)(?::(\d+))?(?::(\d+))?$/: the longest
// ":N:M" or ":N" suffix gives the numbers; an empty file name gives no
// source. A number that is not a safe integer fails the record's schema.
func parseLegacySource(v string) *ElementSource {
	file, nums := v, []string(nil)
	trailingNum := func(s string) (string, string, bool) {
		j := len(s)
		i := j
		for i > 0 && isDigitByte(s[i-1]) {
			i--
		}
		if i == j || i == 0 || s[i-1] != ':' {
			return "", "", false
		}
		return s[:i-1], s[i:], true
	}
	if head, last, ok := trailingNum(v); ok {
		if head2, first, ok := trailingNum(head); ok {
			file, nums = head2, []string{first, last}
		} else {
			file, nums = head, []string{last}
		}
	}
	if file == "" {
		return nil
	}
	src := &ElementSource{FileName: &file}
	num := func(s string) *int64 {
		n, ok := parseSafeInt(s)
		if !ok {
			n = -1 // fails the schema (at least 0)
		}
		return &n
	}
	if len(nums) >= 1 {
		src.LineNumber = num(nums[0])
	}
	if len(nums) == 2 {
		src.ColumnNumber = num(nums[1])
	}
	return src
}

// legacyPreview reads a preview annotation block body.
func legacyPreview(content string) (*PreviewAnnotationRecord, bool) {
	lines := strings.Split(content, "\n")
	read := func(prefix string) string {
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return TrimJS(l[len(prefix):])
			}
		}
		return ""
	}
	changes := []string{}
	for i, l := range lines {
		if l != "Requested visual changes:" {
			continue
		}
		for _, c := range lines[i+1:] {
			if !strings.HasPrefix(c, "- ") {
				break
			}
			changes = append(changes, c[2:])
		}
		break
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
			return nil, false
		}
		for _, e := range entries {
			d, _, ok := legacyElement(e)
			if !ok {
				return nil, false
			}
			els = append(els, d)
		}
		rest = rest[cs+c+len(elementBlockClose):]
	}
	page := read("Page: ")
	r := &PreviewAnnotationRecord{
		AnnotationID:  read("Id: "),
		Comment:       read("Comment: "),
		TargetSummary: read("Targets: "),
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
	r.Label = page
	if r.Label == "" {
		r.Label = legacyPreviewLabel
	}
	return r, true
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
