package contextref

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// FragmentMIME is the clipboard type a fragment is written under.
const FragmentMIME = "web application/x-t3-context-fragment+json"

// MaxFragmentLen is the longest fragment encoding, in characters; a longer one
// is not written.
const MaxFragmentLen = 16_000_000

// ErrNoFragment is wrapped by every fragment decoding failure: the paste then
// falls back to plain text.
var ErrNoFragment = errors.New("no context fragment")

// FragmentSource says where copied records came from.
type FragmentSource struct {
	EnvironmentID string `json:"environmentId"`
	ThreadID      string `json:"threadId,omitempty"`
	MessageID     string `json:"messageId,omitempty"`
}

// Fragment is the typed part of a copy (DESIGN.md 3.7): the records of the
// copied selection and their source. It never holds bytes or asset URLs.
type Fragment struct {
	Source  FragmentSource
	Records []Record
}

// Marshal encodes the fragment as compact JSON. It fails when the source has
// no environment id, when there are more than 200 records, or when the
// encoding is longer than 16,000,000 characters.
func (f *Fragment) Marshal() ([]byte, error) {
	if TrimJS(f.Source.EnvironmentID) == "" {
		return nil, fmt.Errorf("%w: source.environmentId is empty", ErrNoFragment)
	}
	if len(f.Records) > MaxContextRecords {
		return nil, fmt.Errorf("%w: more than %d records", ErrNoFragment, MaxContextRecords)
	}
	recs := f.Records
	if recs == nil {
		recs = []Record{}
	}
	src := FragmentSource{
		EnvironmentID: TrimJS(f.Source.EnvironmentID),
		ThreadID:      TrimJS(f.Source.ThreadID),
		MessageID:     TrimJS(f.Source.MessageID),
	}
	out, err := marshalNoEscape(struct {
		Version int            `json:"version"`
		Source  FragmentSource `json:"source"`
		Records []Record       `json:"records"`
	}{1, src, recs})
	if err != nil {
		return nil, err
	}
	if !utf16LenAtMost(string(out), MaxFragmentLen) {
		return nil, fmt.Errorf("%w: encoding is longer than %d characters", ErrNoFragment, MaxFragmentLen)
	}
	return out, nil
}

// DecodeFragment reads a fragment from its JSON or from an HTML carrier.
func DecodeFragment(input []byte) (*Fragment, error) {
	t := bytes.TrimLeft(input, " \t\r\n\ufeff")
	if len(t) > 0 && t[0] == '{' {
		return DecodeFragmentJSON(input)
	}
	return DecodeFragmentHTML(string(input))
}

// DecodeFragmentJSON decodes a fragment's JSON: version 1, a source with a
// trimmed non-empty environmentId (threadId and messageId optional, trimmed,
// non-empty when present), at most 200 records each decoded on its own (an
// undecodable one is dropped; so is a later record repeating an earlier one's
// context id, so that every id names one record).
func DecodeFragmentJSON(raw []byte) (*Fragment, error) {
	if len(raw) > 4*MaxFragmentLen { // more than 16,000,000 characters whatever they are
		return nil, fmt.Errorf("%w: longer than %d characters", ErrNoFragment, MaxFragmentLen)
	}
	o, err := newObject(raw, "", "")
	if err != nil || o == nil {
		return nil, fmt.Errorf("%w: not a JSON object", ErrNoFragment)
	}
	if v, ok := o.raw("version"); !ok {
		return nil, fmt.Errorf("%w: version is required", ErrNoFragment)
	} else if f, ok := parseJSONNumber(v); !ok || f != 1 {
		return nil, fmt.Errorf("%w: version must be 1", ErrNoFragment)
	}
	frag := &Fragment{}
	srcRaw, ok := o.raw("source")
	if !ok {
		return nil, fmt.Errorf("%w: source is required", ErrNoFragment)
	}
	if !o.child("source", srcRaw, func(c *object) {
		nonEmpty := strRule{trim: true, nonEmpty: true}
		frag.Source.EnvironmentID = c.str("environmentId", nonEmpty)
		if s := c.optStr("threadId", nonEmpty); s != nil {
			frag.Source.ThreadID = *s
		}
		if s := c.optStr("messageId", nonEmpty); s != nil {
			frag.Source.MessageID = *s
		}
	}) {
		return nil, fmt.Errorf("%w: %v", ErrNoFragment, o.err)
	}
	recsRaw, ok := o.raw("records")
	if !ok {
		return nil, fmt.Errorf("%w: records is required", ErrNoFragment)
	}
	items, err := splitRecords(recsRaw, MaxContextRecords)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoFragment, err)
	}
	seen := map[string]bool{}
	frag.Records = make([]Record, 0, len(items))
	for _, it := range items {
		rec, err := DecodeRecord(it)
		if err != nil || seen[rec.RecordBase().ContextID] {
			continue
		}
		seen[rec.RecordBase().ContextID] = true
		frag.Records = append(frag.Records, rec)
	}
	return frag, nil
}

// MaxFragmentHTMLLen is the longest HTML the carrier decoder reads, in
// characters (4 × MaxFragmentLen).
const MaxFragmentHTMLLen = 4 * MaxFragmentLen

// FragmentHTML writes the HTML carrier of a fragment around the copied plain
// text, for clipboard targets that only take HTML: <pre
// data-t3-context-fragment="…"> and the text with & < > escaped.
func FragmentHTML(text string, f *Fragment) (string, error) { return FragmentCarrier(text, "", f) }

// FragmentCarrier writes the HTML carrier of a fragment (DESIGN.md 3.7),
// the attribute value being encodeURIComponent of the JSON with ' also
// escaped (%27).
// When the copy has an HTML rendering of its own (html not empty, for
// example a transcript selection) the carrier is <div
// data-t3-context-fragment="…"> around that HTML, unchanged; otherwise it
// is the <pre> form around the plain text, escaped.
func FragmentCarrier(text, html string, f *Fragment) (string, error) {
	js, err := f.Marshal()
	if err != nil {
		return "", err
	}
	// encodeURIComponent leaves ' as it is; the decoder takes only a value
	// holding no quote of either kind, so ' is written %27 (which every
	// decoder reads back as ').
	enc := strings.ReplaceAll(EncodeURIComponent(string(js)), "'", "%27")
	var b strings.Builder
	if html != "" {
		b.Grow(len(enc) + len(html) + 48)
		b.WriteString(`<div data-t3-context-fragment="`)
		b.WriteString(enc)
		b.WriteString(`">`)
		b.WriteString(html)
		b.WriteString(`</div>`)
		return b.String(), nil
	}
	b.Grow(len(enc) + len(text) + 64)
	b.WriteString(`<pre data-t3-context-fragment="`)
	b.WriteString(enc)
	b.WriteString(`">`)
	b.WriteString(htmlTextEscaper.Replace(text))
	b.WriteString(`</pre>`)
	return b.String(), nil
}

var htmlTextEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

const fragmentAttrName = "data-t3-context-fragment="

// fragmentAttrValue returns the value of the first
// data-t3-context-fragment= attribute whose value is wrapped in " or ' and
// holds no quote of either kind, as the pattern
// /data-t3-context-fragment=(["'])([^"']*)\1/ finds it.
func fragmentAttrValue(html string) (string, bool) {
	for pos := 0; pos < len(html); {
		k := strings.Index(html[pos:], fragmentAttrName)
		if k < 0 {
			return "", false
		}
		v := pos + k + len(fragmentAttrName)
		if v < len(html) && (html[v] == '"' || html[v] == '\'') {
			q := html[v]
			if e := strings.IndexAny(html[v+1:], `"'`); e >= 0 && html[v+1+e] == q {
				return html[v+1 : v+1+e], true
			}
		}
		pos = pos + k + 1
	}
	return "", false
}

// DecodeFragmentHTML reads the fragment from an HTML carrier, whichever
// element holds the attribute (<div> and <pre> both decode): HTML longer
// than 64,000,000 characters is refused; the first
// data-t3-context-fragment= attribute whose value is quoted and holds no
// quote is percent-decoded, JSON-parsed (at most 16,000,000 characters) and
// schema-decoded. Any failure gives ErrNoFragment.
func DecodeFragmentHTML(html string) (*Fragment, error) {
	if !utf16LenAtMost(html, MaxFragmentHTMLLen) {
		return nil, fmt.Errorf("%w: the HTML is longer than %d characters", ErrNoFragment, MaxFragmentHTMLLen)
	}
	val, ok := fragmentAttrValue(html)
	if !ok {
		return nil, fmt.Errorf("%w: no data-t3-context-fragment attribute", ErrNoFragment)
	}
	js, ok := DecodeURIComponent(val)
	if !ok {
		return nil, fmt.Errorf("%w: the attribute is not percent-encoded UTF-8", ErrNoFragment)
	}
	if !utf16LenAtMost(js, MaxFragmentLen) {
		return nil, fmt.Errorf("%w: the fragment JSON is longer than %d characters", ErrNoFragment, MaxFragmentLen)
	}
	return DecodeFragmentJSON([]byte(js))
}

// EncodeURIComponent percent-encodes s as JavaScript's encodeURIComponent:
// everything but A–Z a–z 0–9 - _ . ! ~ * ' ( ) as UTF-8 bytes.
func EncodeURIComponent(s string) string {
	const upper = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s) * 3 / 2)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upper[c>>4])
		b.WriteByte(upper[c&0xF])
	}
	return b.String()
}

// DecodeURIComponent undoes EncodeURIComponent as JavaScript's
// decodeURIComponent does: a '%' not followed by two hex digits, or escapes
// that do not form UTF-8, fail.
func DecodeURIComponent(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 {
		return s, true
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			out = append(out, s[i])
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", false
		}
		out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
		i += 2
	}
	if !utf8.Valid(out) {
		return "", false
	}
	return string(out), true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
