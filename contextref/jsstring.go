package contextref

import (
	"strings"
	"unicode/utf8"
)

// isJSSpace reports whether r is white space for JavaScript: the set that
// String.prototype.trim removes and that the regular-expression class \s
// matches (WhiteSpace plus LineTerminator in ECMA-262).
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// TrimJS trims s as JavaScript's String.prototype.trim does.
func TrimJS(s string) string {
	return strings.TrimFunc(s, isJSSpace)
}

// trimEndJS trims trailing white space as String.prototype.trimEnd does.
func trimEndJS(s string) string {
	return strings.TrimRightFunc(s, isJSSpace)
}

// isBlankJS reports whether s is empty after TrimJS.
func isBlankJS(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !isJSSpace(r) }) < 0
}

// UTF16Len returns the length of s in UTF-16 code units, as JavaScript's
// .length reports it for the same text. Each invalid UTF-8 byte counts as one
// unit (it decodes to U+FFFD).
func UTF16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// utf16LenAtMost reports whether s is at most max UTF-16 units long without
// walking s when its byte length already decides: a unit takes one to three
// bytes of UTF-8 (a four-byte character is two units).
func utf16LenAtMost(s string, max int) bool {
	if len(s) <= max {
		return true
	}
	if len(s) > 3*max {
		return false
	}
	return UTF16Len(s) <= max
}

// cutUTF16 keeps the first max UTF-16 units of s. A character that would be
// cut in half (a surrogate pair straddling the limit) is dropped.
func cutUTF16(s string, max int) string {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > max {
			return s[:i]
		}
		n += w
		i += size
	}
	return s
}

// foldJSSpace replaces every run of JavaScript white space with one space.
func foldJSSpace(s string) string { return replaceJSSpaceRuns(s, ' ') }

// replaceJSSpaceRuns replaces every run of JavaScript white space with sep.
func replaceJSSpaceRuns(s string, sep byte) string {
	var b strings.Builder
	b.Grow(len(s))
	inSpace := false
	for _, r := range s {
		if isJSSpace(r) {
			if !inSpace {
				b.WriteByte(sep)
			}
			inSpace = true
			continue
		}
		inSpace = false
		b.WriteRune(r)
	}
	return b.String()
}
