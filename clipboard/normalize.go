package clipboard

import (
	"strings"
	"unicode/utf8"
)

// NormalizeText is what the composer's draft makes of pasted text, and so
// the form a copy's text has in the fragment cache: CRLF and lone CR become
// LF (terminals send a pasted newline as CR), and control characters other
// than tab and LF are dropped. A paste is looked up by its normalized text,
// so a multi-line copy pasted through a terminal finds its fragment.
// (composer.Draft.InsertText applies the same rules; a test holds them
// equal.)
func NormalizeText(s string) string {
	if isNormal(s) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\r':
			b.WriteByte('\n')
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7F || r >= 0x80 && r < 0xA0:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isNormal reports valid UTF-8 with no CR and no other control character
// to drop (the common case: nothing to copy).
func isNormal(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n' || c == '\t':
		case c < 0x20 || c == 0x7f:
			return false
		case c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] < 0xa0:
			return false // a C1 control
		}
	}
	return utf8.ValidString(s)
}
