package contextref

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

// MaxContextIDLen is the longest context id, in characters.
const MaxContextIDLen = 128

func isIDByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// IsContextID reports whether s matches ^[a-z0-9_-]{1,128}$ (any case).
func IsContextID(s string) bool {
	if len(s) == 0 || len(s) > MaxContextIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIDByte(s[i]) {
			return false
		}
	}
	return true
}

// isKindName reports whether s matches ^[a-z][a-z0-9-]{0,39}$.
func isKindName(s string) bool {
	if len(s) == 0 || len(s) > 40 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

const (
	fnvPrime   = 0x01000193
	fnvOffset1 = 0x811c9dc5
	fnvOffset2 = 0x9dc5811c
)

// ToContextID turns any producer id into a context id (DESIGN.md 3.3). An id
// that is already valid comes back unchanged; any other gets a readable slug
// of at most 48 characters plus a 16-hex-digit hash of the whole input, so
// two different inputs never share a result by slugging alike.
func ToContextID(producerID string) string {
	if IsContextID(producerID) {
		return producerID
	}
	var slug strings.Builder
	inRun := false
	for _, r := range producerID {
		if r < 0x80 && isIDByte(byte(r)) {
			slug.WriteByte(byte(r))
			inRun = false
			continue
		}
		if !inRun {
			slug.WriteByte('-')
		}
		inRun = true
	}
	s := strings.Trim(slug.String(), "-")
	if len(s) > 48 { // all ASCII: one byte per UTF-16 unit
		s = s[:48]
	}
	if s == "" {
		s = "ctx"
	}
	units := utf16.Encode([]rune(producerID))
	var h1, h2 uint32 = fnvOffset1, fnvOffset2
	for _, u := range units {
		h1 ^= uint32(u)
		h1 *= fnvPrime
	}
	for i := len(units) - 1; i >= 0; i-- {
		h2 ^= uint32(units[i])
		h2 *= fnvPrime
	}
	return s + "-" + hex8(h1) + hex8(h2)
}

func hex8(v uint32) string {
	s := strconv.FormatUint(uint64(v), 16)
	return strings.Repeat("0", 8-len(s)) + s
}
