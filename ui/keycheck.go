package ui

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// typingScopes are where a printable key types its character: the
// composer (in ! mode and with a picker open too), the review comment
// editor and the one-line fields.
var typingScopes = []Scope{ScopeComposer, ScopeShell, ScopePicker, ScopeComment, ScopeAttach, ScopeRename, ScopeHistory, ScopeQuote}

// typesText reports whether key name k is a key press that types a
// character: one printable character or space, with no modifier but shift.
func typesText(k string) bool {
	mods, base := splitKeyName(k)
	for _, m := range mods {
		if m != "shift" {
			return false
		}
	}
	if base == "space" {
		return true
	}
	r, n := utf8.DecodeRuneInString(base)
	return n == len(base) && r != utf8.RuneError && unicode.IsPrint(r)
}

// checkTypingKey refuses key k for the action named name when k types a
// character and the action acts where text is typed: the binding would
// take that character from the user (send = ["a"], send = ["space"]).
func checkTypingKey(name, k string) error {
	d, ok := keyDef(name)
	if !ok || !typesText(k) || !meets(d.Scopes, typingScopes) {
		return nil
	}
	return fmt.Errorf("that key types a character in the composer and the fields, so binding it to %s would make it impossible to type; allowed: a key with ctrl or alt, or a named key such as enter, tab, f2", name)
}
