package fragment

import (
	"strings"
	"unicode"
)

// Role is who a message speaks as. Fragments are user or developer;
// assistant appears only in histories handed to the compaction helpers.
type Role string

// Roles.
const (
	RoleUser      Role = "user"
	RoleDeveloper Role = "developer"
	RoleAssistant Role = "assistant"
)

// Kind is a fragment type. Its fields are type-level values: every fragment
// of a kind has the same role, markers and stand-alone rule. Kinds are
// compared by pointer; declare one package-level variable per kind.
type Kind struct {
	// Name identifies the kind in a registry ("environment_context").
	Name string
	// Role is RoleUser or RoleDeveloper.
	Role Role
	// Begin and End frame the rendered body. Both empty: the kind is
	// unmarked and can never be claimed back from text.
	Begin, End string
	// StandAlone says the fragment must be its own message. Only developer
	// fragments can stand alone; user fragments all go in the one
	// contextual user message.
	StandAlone bool
}

// Marked reports whether the kind has begin and end markers.
func (k *Kind) Marked() bool { return k.Begin != "" && k.End != "" }

// Matches reports whether text is a fragment of this kind by the claim rule:
// after trimming leading whitespace it starts with Begin, and after trimming
// trailing whitespace it ends with End, both ASCII case-insensitive. An
// unmarked kind never matches.
func (k *Kind) Matches(text string) bool {
	if !k.Marked() {
		return false
	}
	head := strings.TrimLeftFunc(text, unicode.IsSpace)
	tail := strings.TrimRightFunc(head, unicode.IsSpace)
	return len(head) >= len(k.Begin) && asciiEqualFold(head[:len(k.Begin)], k.Begin) &&
		len(tail) >= len(k.End) && asciiEqualFold(tail[len(tail)-len(k.End):], k.End)
}

// Unwrap returns the body of a text this kind matches: the text with
// surrounding whitespace and both markers removed. It reports false when
// the kind does not match or the markers overlap in the text.
func (k *Kind) Unwrap(text string) (string, bool) {
	if !k.Matches(text) {
		return "", false
	}
	t := strings.TrimFunc(text, unicode.IsSpace)
	if len(t) < len(k.Begin)+len(k.End) {
		return "", false
	}
	return t[len(k.Begin) : len(t)-len(k.End)], true
}

// asciiEqualFold compares a and b folding only ASCII letters.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Fragment is one runtime context injection.
type Fragment interface {
	// Kind is the fragment's type (role, markers, stand-alone rule).
	Kind() *Kind
	// Body is the text between the markers; whitespace belongs to it.
	Body() string
}

// Render is begin marker + body + end marker, with no separator. An
// unmarked kind renders the body alone.
func Render(f Fragment) string {
	k := f.Kind()
	return k.Begin + f.Body() + k.End
}

// escape writes a value for a tag's content: & < > become entities.
func escape(s string) string {
	if !strings.ContainsAny(s, "&<>") {
		return s
	}
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
