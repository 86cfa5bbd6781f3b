package contextref

import (
	"strings"
	"unicode/utf8"
)

// LinkScheme is the prefix of every version-1 reference href.
const LinkScheme = "t3-context://v1/"

// scanMarker is what a text must contain for any reference to be in it.
const scanMarker = "](t3-context:"

// candidate is where a link's label ends and its href begins.
const candidate = "](" + LinkScheme

const (
	maxScanLabelLen = 512 // UTF-16 units of label the scanning pattern takes
	maxScanHrefLen  = 200 // UTF-16 units after "t3-context://v1/"
)

// Occurrence is one reference link found in a text. Start and End are byte
// offsets into the scanned text; Label is sanitized.
type Occurrence struct {
	Kind      string `json:"kind"`
	ContextID string `json:"contextId"`
	Label     string `json:"label"`
	Image     bool   `json:"image"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
}

// SanitizeLabel makes display text safe for a link label: '[', ']', '\\', CR
// and LF become spaces, white space runs fold to one space, the result is
// trimmed and cut to 200 UTF-16 units (a character that would be cut in half
// is dropped). An empty result is the kind name.
func SanitizeLabel(label, kind string) string {
	s := label
	if strings.ContainsAny(s, "[]\\\r\n") {
		s = strings.Map(func(r rune) rune {
			switch r {
			case '[', ']', '\\', '\r', '\n':
				return ' '
			}
			return r
		}, s)
	}
	s = TrimJS(foldJSSpace(s))
	s = cutUTF16(s, MaxLabelLen)
	if s == "" {
		return kind
	}
	return s
}

// FormatLink writes the canonical reference link for a record, with a
// leading '!' when the kind is image.
func FormatLink(kind, contextID, label string) string {
	var b strings.Builder
	l := SanitizeLabel(label, kind)
	b.Grow(len(l) + len(kind) + len(contextID) + len(LinkScheme) + 6)
	if kind == KindImage {
		b.WriteByte('!')
	}
	b.WriteByte('[')
	b.WriteString(l)
	b.WriteString("](")
	b.WriteString(LinkScheme)
	b.WriteString(kind)
	b.WriteByte('/')
	b.WriteString(contextID)
	b.WriteByte(')')
	return b.String()
}

// LinkFor formats the link of a record.
func LinkFor(r Record) string {
	b := r.RecordBase()
	return FormatLink(b.Kind, b.ContextID, b.Label)
}

// ParseHref splits a reference href into kind and context id. Only
// t3-context://v1/<kind>/<id> with exactly those two segments parses: query
// strings, fragments, credentials, other versions and extra segments do not.
func ParseHref(href string) (kind, contextID string, ok bool) {
	rest, found := strings.CutPrefix(href, LinkScheme)
	if !found {
		return "", "", false
	}
	kind, contextID, found = strings.Cut(rest, "/")
	if !found || !isKindName(kind) || !IsContextID(contextID) {
		return "", "", false
	}
	return kind, contextID, true
}

// HasReferences reports whether text can hold any reference link at all;
// texts without the marker skip the scan entirely.
func HasReferences(text string) bool { return strings.Contains(text, scanMarker) }

// Scan finds every reference link in text, left to right and without
// overlap, exactly as the contract's scanning pattern does:
//
//	(!?)\[([^\]\n]{0,512})\]\((t3-context://v1/[^\s)]{1,200})\)
//
// A match whose href does not parse is plain text (and its characters are
// consumed). It never costs more than linear time.
func Scan(text string) []Occurrence {
	var out []Occurrence
	scan(text, func(o Occurrence) { out = append(out, o) })
	return out
}

// scan calls emit for each occurrence in order.
func scan(text string, emit func(Occurrence)) {
	if !HasReferences(text) {
		return
	}
	pos := 0 // the pattern resumes here after a match
	for pos < len(text) {
		k := strings.Index(text[pos:], candidate)
		if k < 0 {
			return
		}
		q := pos + k // index of ']'
		start, image, labelOK := labelStart(text, pos, q)
		hrefStart := q + 2
		hrefEnd, hrefOK := hrefEnd(text, hrefStart+len(LinkScheme))
		if !labelOK || !hrefOK {
			pos = q + 1
			continue
		}
		end := hrefEnd + 1 // past ')'
		if kind, id, ok := ParseHref(text[hrefStart:hrefEnd]); ok {
			emit(Occurrence{
				Kind:      kind,
				ContextID: id,
				Label:     SanitizeLabel(text[labelOpen(start, image)+1:q], kind),
				Image:     image,
				Start:     start,
				End:       end,
			})
		}
		pos = end
	}
}

func labelOpen(start int, image bool) int {
	if image {
		return start + 1
	}
	return start
}

// labelStart finds the leftmost '[' at or after floor whose label run (no ']'
// and no '\n') reaches the ']' at q within 512 UTF-16 units, and whether a '!'
// right before it (still at or after floor) makes it an image link.
func labelStart(text string, floor, q int) (start int, image, ok bool) {
	best := -1
	units := 0
	for i := q; i > floor; {
		c := text[i-1]
		if c < utf8.RuneSelf {
			i--
			if c == ']' || c == '\n' {
				break
			}
			if c == '[' {
				best = i
			}
			units++
		} else {
			r, size := utf8.DecodeLastRuneInString(text[floor:i])
			i -= size
			if r >= 0x10000 {
				units += 2
			} else {
				units++
			}
		}
		// A '[' further left would have a label of at least units+1 units.
		if units >= maxScanLabelLen+1 {
			break
		}
	}
	if best < 0 {
		return 0, false, false
	}
	if best > floor && text[best-1] == '!' {
		return best - 1, true, true
	}
	return best, false, true
}

// hrefEnd returns the index of the ')' closing an href whose part after the
// scheme starts at i, when that part is 1 to 200 UTF-16 units of characters
// other than white space and ')'.
func hrefEnd(text string, i int) (int, bool) {
	units := 0
	for j := i; j < len(text); {
		c := text[j]
		if c == ')' {
			return j, units >= 1
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[j:])
		}
		if isJSSpace(r) {
			return 0, false
		}
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		if units > maxScanHrefLen {
			return 0, false
		}
		j += size
	}
	return 0, false
}

// Replace rewrites every reference occurrence in text with what fn returns
// for it; the text between occurrences is kept as is. Replace(text, func(o)
// string { return text[o.Start:o.End] }) gives text back.
func Replace(text string, fn func(Occurrence) string) string {
	if !HasReferences(text) {
		return text
	}
	var b strings.Builder
	last := 0
	scan(text, func(o Occurrence) {
		if last == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[last:o.Start])
		b.WriteString(fn(o))
		last = o.End
	})
	if last == 0 && b.Len() == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
